import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Service } from '../src/index';
import { startService, type RunningService } from './service';

// Issue 10, item 2: local evaluation of the regex ^(a+)+$ against 32 a's and "!" froze the host app.

let service: RunningService;
let local: Service;
beforeAll(async () => {
  service = await startService();
  const regex = (key: string, operator: string, value: string) =>
    service.createFlag({ key, filters: { groups: [{ properties: [{ key: 'name', type: 'person', operator, value }], rollout_percentage: 100 }] } });
  await regex('backtrack', 'regex', '^(a+)+$');
  await regex('backtrack-not', 'not_regex', '^(a+)+$');
  await regex('shouting', 'regex', '(?i)^ann');
  local = new Service(service.token, { host: service.url, personalApiKey: service.key });
  await local.reloadFeatureFlags();
});

afterAll(async () => {
  await local?.shutdown();
  await service?.close();
});

describe('local evaluation of regex conditions (issue 10)', () => {
  const only = (name: string) => ({ personProperties: { name }, onlyEvaluateLocally: true, sendFeatureFlagEvents: false });

  it('answers ^(a+)+$ against 32 a\'s and "!" locally, with either operator', async () => {
    const evil = `${'a'.repeat(32)}!`;
    expect(await local.getFeatureFlag('backtrack', 'attacker', only(evil))).toBe(false);
    expect(await local.getFeatureFlag('backtrack-not', 'attacker', only(evil))).toBe(true);
    expect(await local.getFeatureFlag('backtrack', 'aaa', only('a'.repeat(32)))).toBe(true);
  });

  it('honours (?i) like the service does', async () => {
    expect(await local.getFeatureFlag('shouting', 'ann', only('ANNa'))).toBe(true);
    expect(await local.getFeatureFlag('shouting', 'bob', only('Bob'))).toBe(false);
  });
});
