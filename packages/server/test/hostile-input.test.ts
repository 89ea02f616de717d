import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/json';
import { startService, type TestService } from './helpers';

// Issue 10, item 6: a client's mistake (deep JSON, NUL bytes, ids out of range) is a 4xx, never a 500, on both databases.

let s: TestService;
let flags: string;
let features: string;
beforeAll(async () => {
  s = await startService();
  flags = `/api/projects/${s.projectId}/feature_flags`;
  features = `/api/projects/${s.projectId}/early_access_feature`;
});
afterAll(() => s.close());

/** JSON text of a value nested `depth` levels deep: `{"a":{"a":…1…}}`. */
const deepText = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deep = (depth: number): unknown => JSON.parse(deepText(depth));
/** Stands for a value nested 10,000 deep in a request body (which JSON.stringify could not write). */
const DEEP = '<10,000 deep>';
/** A body's JSON text, with every `DEEP` replaced by JSON nested 10,000 levels deep. */
const bodyText = (payload: unknown) => JSON.stringify(payload).replaceAll(JSON.stringify(DEEP), deepText(10_000));

type Res = { statusCode: number; json(): Record<string, unknown>; body: string };
function expectError(res: Res, status: number, fields: Record<string, unknown>) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['attr', 'code', 'detail', 'type']);
  expect(body).toMatchObject(fields);
}

const rest = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  s.app.inject({
    method,
    url,
    headers: { ...s.headers, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload: bodyText(payload) }),
  });
const sdk = (url: string, payload: unknown) =>
  s.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: bodyText(payload) });
let n = 0;
const someone = () => `hostile-${++n}-${randomUUID().slice(0, 8)}`;

describe('JSON nested 10,000 deep', () => {
  it(`refuses a flag whose filters or payloads nest deeper than ${MAX_JSON_DEPTH} levels with 400 naming filters`, async () => {
    const created = await rest('POST', `${flags}/`, { key: 'deep-payload', filters: { groups: [], payloads: { true: DEEP } } });
    expectError(created, 400, { type: 'validation_error', code: 'max_depth', attr: 'filters' });
    const flag = (await rest('POST', `${flags}/`, { key: 'shallow' })).json();
    const patched = await rest('PATCH', `${flags}/${flag.id}/`, { filters: { groups: [{ properties: [], rollout_percentage: 100, x: DEEP }] } });
    expectError(patched, 400, { type: 'validation_error', code: 'max_depth', attr: 'filters' });
  });

  it(`accepts a payload nested ${MAX_JSON_DEPTH - 5} levels deep, the limit leaving room for the body around it`, async () => {
    const res = await rest('POST', `${flags}/`, { key: 'deep-enough', filters: { groups: [], payloads: { true: deep(MAX_JSON_DEPTH - 5) } } });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses any REST body nested too deep with 400, naming the field when there is one', async () => {
    expectError(await rest('POST', `${features}/`, { name: 'x', stage: 'beta', description: DEEP }), 400, { type: 'validation_error', attr: 'description' });
    const res = await s.app.inject({
      method: 'POST',
      url: `${features}/`,
      headers: { ...s.headers, 'content-type': 'application/json' },
      payload: '['.repeat(10_000) + ']'.repeat(10_000),
    });
    expectError(res, 400, { type: 'validation_error', code: 'max_depth', attr: null });
  });

  it('refuses a captured event nested too deep alone, naming it, and stores the rest of its batch', async () => {
    const id = someone();
    const batch = [
      { event: 'fine', distinct_id: id },
      { event: 'deep', distinct_id: id, properties: { a: DEEP } },
    ];
    const res = await sdk('/batch/', { api_key: s.token, batch });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refused).toEqual([
      { type: 'validation_error', code: 'max_depth', detail: `JSON may nest at most ${MAX_JSON_DEPTH} levels deep.`, attr: 'batch__1__properties' },
    ]);
    // A request whose every event is refused is refused, for the first one's reason.
    expectError(await sdk('/e/', { api_key: s.token, event: 'deep', distinct_id: id, $set: DEEP }), 400, { code: 'max_depth', attr: 'batch__0__$set' });
    expect((await sdk('/e/', { api_key: s.token, event: 'after', distinct_id: id, properties: { a: deep(MAX_JSON_DEPTH - 3) } })).statusCode).toBe(200);
    const events = (await rest('GET', `/api/projects/${s.projectId}/events/?distinct_id=${id}`)).json();
    expect((events.results as { event: string }[]).map((e) => e.event)).toEqual(['after', 'fine']);
  });

  it('refuses a GET capture with `data` twice with a 4xx', async () => {
    const data = Buffer.from(JSON.stringify({ event: 'e', distinct_id: 'x', api_key: s.token })).toString('base64');
    const res = await s.app.inject({ url: `/e/?token=${s.token}&data=${data}&data=${data}` });
    expectError(res, 400, { type: 'validation_error', attr: 'data' });
  });

  it('refuses a /flags request whose person_properties or groups nest too deep with 400 naming the field', async () => {
    expectError(await sdk('/flags/?v=2', { token: s.token, distinct_id: 'x', person_properties: { a: DEEP } }), 400, {
      code: 'max_depth',
      attr: 'person_properties',
    });
    expectError(await sdk('/flags/?v=2', { token: s.token, distinct_id: 'x', groups: DEEP }), 400, { code: 'max_depth', attr: 'groups' });
  });
});

describe('NUL bytes', () => {
  it('answers a token with NUL as an unknown token (401), in a body, a query and a path', async () => {
    const bad = `${s.token}\u0000`;
    expectError(await sdk('/e/', { api_key: bad, event: 'e', distinct_id: 'x' }), 401, { code: 'invalid_api_key' });
    expectError(
      await s.app.inject({ url: `/e/?token=${encodeURIComponent(bad)}&data=${Buffer.from('{"event":"e","distinct_id":"x"}').toString('base64')}` }),
      401,
      { code: 'invalid_api_key' },
    );
    expectError(await sdk('/flags/?v=2', { token: bad, distinct_id: 'x' }), 401, { code: 'invalid_api_key' });
    expectError(await s.app.inject({ url: `/api/early_access_features/?token=${encodeURIComponent(bad)}` }), 401, { code: 'invalid_api_key' });
    expectError(await s.app.inject({ url: `/array/${encodeURIComponent(bad)}/config` }), 401, { code: 'invalid_api_key' });
    expectError(await s.app.inject({ url: `/flags/definitions?token=${encodeURIComponent(bad)}`, headers: s.headers }), 401, { code: 'invalid_api_key' });
  });

  it('evaluates /flags for a distinct id or group key with NUL, as capture stores them', async () => {
    const id = `a\u0000b-${someone()}`;
    expect((await sdk('/e/', { api_key: s.token, event: '$identify', distinct_id: id, $set: { plan: 'nul' } })).statusCode).toBe(200);
    const flag = await rest('POST', `${flags}/`, {
      key: 'plan-nul',
      filters: { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['nul'] }], rollout_percentage: 100 }] },
    });
    expect(flag.statusCode, flag.body).toBe(201);
    const res = await sdk('/flags/?v=2', { token: s.token, distinct_id: id, groups: { company: 'x\u0000y' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().flags['plan-nul'].enabled).toBe(true);
  });

  it('stores events whose group type, group key or properties hold NUL, replacing NUL in what text columns hold', async () => {
    const id = someone();
    const batch = [
      { event: '$groupidentify', distinct_id: id, properties: { $group_type: 'org\u0000', $group_key: 'k\u0000', $group_set: { 'n\u0000': 'v\u0000' } } },
      { event: 'e', distinct_id: id, properties: { $groups: { 'team\u0000': 'g\u0000' }, raw: 'x\u0000y' } },
    ];
    const res = await sdk('/batch/', { api_key: s.token, batch });
    expect(res.statusCode, res.body).toBe(200);
    const types = await s.services.db.kysely.selectFrom('group_type_mappings').select('group_type').where('project_id', '=', s.projectId).execute();
    expect(types.map((t) => t.group_type).sort()).toEqual(['org\uFFFD', 'team\uFFFD']);
    const group = await s.services.db.kysely.selectFrom('groups').selectAll().where('project_id', '=', s.projectId).executeTakeFirstOrThrow();
    expect(group.group_key).toBe('k\uFFFD');
    expect(JSON.parse(group.properties)).toEqual({ 'n\u0000': 'v\u0000' });
    const events = (await rest('GET', `/api/projects/${s.projectId}/events/?distinct_id=${id}`)).json();
    expect((events.results as { properties: { raw: string } }[])[0]!.properties.raw).toBe('x\u0000y');
  });

  it.each([
    ['a flag name', 'POST', () => `${flags}/`, { key: 'nul-name', name: 'a\u0000b' }, 'name'],
    ['a flag key', 'POST', () => `${flags}/`, { key: 'a\u0000b' }, 'key'],
    ['a feature name', 'POST', () => `${features}/`, { name: 'a\u0000b', stage: 'beta' }, 'name'],
    ['a feature description', 'POST', () => `${features}/`, { name: 'nul description', stage: 'beta', description: 'a\u0000b' }, 'description'],
    [
      'a documentation URL',
      'POST',
      () => `${features}/`,
      { name: 'nul url', stage: 'beta', documentation_url: 'https://x.test/a\u0000b' },
      'documentation_url',
    ],
  ] as const)('refuses %s with NUL: 400 null_characters_not_allowed naming the field', async (_what, method, url, payload, attr) => {
    expectError(await rest(method, url(), payload), 400, {
      type: 'validation_error',
      code: 'null_characters_not_allowed',
      detail: 'Null characters are not allowed.',
      attr,
    });
  });

  it('refuses NUL in a flag or feature rename the same way', async () => {
    const flag = (await rest('POST', `${flags}/`, { key: 'rename-nul' })).json();
    expectError(await rest('PATCH', `${flags}/${flag.id}/`, { name: '\u0000' }), 400, { code: 'null_characters_not_allowed', attr: 'name' });
    const feature = (await rest('POST', `${features}/`, { name: 'Rename nul', stage: 'draft' })).json();
    expectError(await rest('PATCH', `${features}/${feature.id}/`, { description: '\u0000' }), 400, {
      code: 'null_characters_not_allowed',
      attr: 'description',
    });
  });

  it.each([
    ['search', () => `${flags}/?search=%00`],
    ['event', () => `/api/projects/${s.projectId}/events/?event=a%00`],
    ['distinct_id', () => `/api/projects/${s.projectId}/events/?distinct_id=a%00`],
    ['distinct_id', () => `/api/projects/${s.projectId}/persons/?distinct_id=%00`],
  ])('refuses a %s filter with NUL: 400 naming it', async (attr, url) => {
    expectError(await rest('GET', url()), 400, { type: 'validation_error', code: 'null_characters_not_allowed', attr });
  });

  it('searches flags for up to 10,000 characters of LIKE wildcards, and refuses a longer search with 400 (found by the fuzzer: a 500 on SQLite)', async () => {
    const longest = await rest('GET', `${flags}/?search=${encodeURIComponent('%_\\'.repeat(3_333))}`);
    expect(longest.statusCode, longest.body).toBe(200);
    expect(longest.json().results).toEqual([]);
    expectError(await rest('GET', `${flags}/?search=${'a'.repeat(60_000)}`), 400, { type: 'validation_error', code: 'max_length', attr: 'search' });
  });

  it('answers a public early access list for a stage with NUL with no features', async () => {
    const res = await s.app.inject({ url: `/api/early_access_features/?token=${s.token}&stage=beta%00` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ earlyAccessFeatures: [] });
  });

  it('answers ids with NUL in the path with 404', async () => {
    expectError(await rest('GET', `${flags}/1%00/`), 404, { code: 'not_found' });
    expectError(await rest('GET', `${features}/%00/`), 404, { code: 'not_found' });
    expectError(await rest('GET', `/api/projects/%00/`), 404, { code: 'not_found' });
  });
});

describe('ids and offsets out of range', () => {
  it.each(['2147483648', '99999999999999', '1e300', '-1', '1.5', 'abc'])('answers the flag id %s in the path with 404', async (id) => {
    expectError(await rest('GET', `${flags}/${id}/`), 404, { code: 'not_found' });
    expectError(await rest('PATCH', `${flags}/${id}/`, { name: 'x' }), 404, { code: 'not_found' });
  });

  it.each(['2147483648', '99999999999999'])('answers the project id %s with 404', async (id) => {
    expectError(await rest('GET', `/api/projects/${id}/feature_flags/`), 404, { code: 'not_found' });
  });

  it.each([2147483648, 1e300, -1, 1.5, 'abc', '2147483648'])('refuses feature_flag_id %s with 400 naming it', async (id) => {
    expectError(await rest('POST', `${features}/`, { name: `Link ${String(id)}`, stage: 'beta', feature_flag_id: id }), 400, {
      type: 'validation_error',
      attr: 'feature_flag_id',
    });
  });

  it.each(['9007199254740993', '99999999999999999999999', '1'.repeat(400)])('answers offset=%s with an empty page', async (offset) => {
    for (const path of ['feature_flags', 'early_access_feature', 'events', 'persons']) {
      const res = await rest('GET', `/api/projects/${s.projectId}/${path}/?offset=${offset}`);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
      expect(res.json().results).toEqual([]);
    }
    const projects = await rest('GET', `/api/projects/?offset=${offset}&limit=${offset}`);
    expect(projects.statusCode, projects.body).toBe(200);
    expect(projects.json().results).toEqual([]);
  });

  it('answers a huge limit with at most a full page', async () => {
    const res = await rest('GET', `/api/projects/?limit=${'9'.repeat(400)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.length).toBeGreaterThan(0);
  });
});
