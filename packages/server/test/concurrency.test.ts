import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

describe('concurrent creates', () => {
  it.each([1, 2, 3, 4, 5])('links a flag to exactly one of two concurrent features (round %i)', async (round) => {
    const flag = (
      await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload: { key: `race-${round}` } })
    ).json();
    const create = (name: string) =>
      s.app.inject({
        method: 'POST',
        url: `/api/projects/${s.projectId}/early_access_feature/`,
        headers: s.headers,
        payload: { name, stage: 'beta', feature_flag_id: flag.id },
      });
    const results = await Promise.all([create(`A ${round}`), create(`B ${round}`)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const loser = results.find((r) => r.statusCode === 400)!;
    expect(loser.json().detail).toBe(`Linked feature flag race-${round} already has a feature attached to it.`);
    const rows = await s.services.db.kysely.selectFrom('early_access_features').select('id').where('feature_flag_id', '=', flag.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('creates one flag when two features with the same name race', async () => {
    const create = () =>
      s.app.inject({
        method: 'POST',
        url: `/api/projects/${s.projectId}/early_access_feature/`,
        headers: s.headers,
        payload: { name: 'Same name', stage: 'beta' },
      });
    const results = await Promise.all([create(), create(), create()]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const flags = await s.services.db.kysely.selectFrom('feature_flags').select('id').where('key', '=', 'same-name').execute();
    expect(flags).toHaveLength(1);
  });
});
