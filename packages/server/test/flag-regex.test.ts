import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// Issue 10, item 2: a flag with the regex ^(a+)+$ and a person property of 32 a's and "!", sent by anyone
// with the public project token, kept the service busy for 52 s.

let s: TestService;
let url: string;
beforeAll(async () => {
  s = await startService();
  await s.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
});
afterAll(() => s.close());

const base = () => `/api/projects/${s.projectId}/feature_flags/`;
const filters = (operator: string, value: string, where = 'groups') => ({
  [where]: [{ properties: [{ key: 'name', type: 'person', operator, value }], rollout_percentage: 100 }],
});
const create = (key: string, f: Record<string, unknown>) => s.app.inject({ method: 'POST', url: base(), headers: s.headers, payload: { key, filters: f } });
/** POST /flags over real HTTP with the person property `name`. */
const flagsFor = (distinctId: string, name: string) =>
  fetch(`${url}/flags/?v=2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: s.token, distinct_id: distinctId, person_properties: { name } }),
  });
type FlagsBody = { flags: Record<string, { enabled: boolean }> };

describe('regex flag conditions cannot freeze the service (issue 10)', () => {
  beforeAll(async () => {
    expect((await create('backtrack', filters('regex', '^(a+)+$'))).statusCode).toBe(201);
    expect((await create('backtrack-not', filters('not_regex', '^(a+)+$'))).statusCode).toBe(201);
    expect((await create('shouting', filters('regex', '(?i)^ann'))).statusCode).toBe(201);
  });

  it('answers POST /flags with ^(a+)+$ against 32 a\'s and "!", and /_health answers meanwhile', async () => {
    const [flags, health] = await Promise.all([flagsFor('attacker', `${'a'.repeat(32)}!`), fetch(`${url}/_health`)]);
    expect(health.status).toBe(200);
    expect(flags.status).toBe(200);
    const body = (await flags.json()) as FlagsBody;
    expect(body.flags.backtrack.enabled).toBe(false);
    expect(body.flags['backtrack-not'].enabled).toBe(true);
  });

  it('matches the pattern where it should, and honours (?i)', async () => {
    const body = (await (await flagsFor('ann', 'ANNa')).json()) as FlagsBody;
    expect([body.flags.shouting.enabled, body.flags.backtrack.enabled]).toEqual([true, false]);
  });
});

describe('flags with a regex the engine cannot compile', () => {
  it.each([
    ['(', 'regex', 'groups'],
    ['a{2,1}', 'not_regex', 'groups'],
    ['(?=a)b', 'regex', 'super_groups'],
  ])('rejects %s (%s in %s) with 400 and the field path', async (pattern, operator, where) => {
    const res = await create(`bad-${operator}-${where}`, filters(operator, pattern, where));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: expect.stringContaining(`invalid regular expression ${JSON.stringify(pattern)}`),
      attr: `filters__${where}`,
    });
  });

  it('rejects it on update too, and keeps the stored filters', async () => {
    const created = await create('fine-regex', filters('regex', '^ok'));
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    const res = await s.app.inject({ method: 'PATCH', url: `${base()}${id}/`, headers: s.headers, payload: { filters: filters('regex', '(') } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'filters__groups' });
    const stored = await s.app.inject({ method: 'GET', url: `${base()}${id}/`, headers: s.headers });
    expect(stored.json().filters.groups[0].properties[0].value).toBe('^ok');
  });
});
