import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, startService, testStorage, type TestService } from './helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

/** A person with stored properties, as ingestion leaves one. */
async function storePerson(projectId: number, distinctId: string, properties: Record<string, unknown>) {
  const now = new Date().toISOString();
  const { id } = await s.services.db.kysely
    .insertInto('persons')
    .values({ project_id: projectId, uuid: crypto.randomUUID(), properties: JSON.stringify(properties), is_identified: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await s.services.db.kysely.insertInto('person_distinct_ids').values({ project_id: projectId, distinct_id: distinctId, person_id: id }).execute();
}

const flags = (body: Record<string, unknown>, url = '/flags/?v=2') => s.app.inject({ method: 'POST', url, payload: { token: s.token, ...body } });
const createFlag = async (payload: Record<string, unknown>, projectId = s.projectId) => {
  const res = await s.app.inject({ method: 'POST', url: `/api/projects/${projectId}/feature_flags/`, headers: s.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

describe('early access through /flags', () => {
  let feature: { id: string; feature_flag: { key: string } };
  beforeAll(async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: s.headers,
      payload: { name: 'Beta dashboard', stage: 'beta' },
    });
    feature = res.json();
    await storePerson(s.projectId, 'opted-in', { [`$feature_enrollment/${feature.feature_flag.key}`]: true });
    await storePerson(s.projectId, 'opted-out', { [`$feature_enrollment/${feature.feature_flag.key}`]: false });
    await storePerson(s.projectId, 'never-asked', { email: 'x@example.com' });
  });
  const value = async (distinctId: string, extra: Record<string, unknown> = {}) =>
    (await flags({ distinct_id: distinctId, ...extra })).json().flags[feature.feature_flag.key];

  it('turns a beta feature on for a person who opted in, with reason super_condition_value', async () => {
    expect(await value('opted-in')).toMatchObject({ enabled: true, reason: { code: 'super_condition_value', condition_index: 0 } });
  });

  it('keeps it off for people who opted out, never opted in, or are unknown', async () => {
    expect((await value('opted-out')).enabled).toBe(false);
    expect((await value('never-asked')).enabled).toBe(false);
    expect((await value('stranger')).enabled).toBe(false);
  });

  it("lets the request's person_properties override stored ones", async () => {
    const key = `$feature_enrollment/${feature.feature_flag.key}`;
    expect((await value('opted-in', { person_properties: { [key]: false } })).enabled).toBe(false);
    expect((await value('stranger', { person_properties: { [key]: 'true' } })).enabled).toBe(true);
  });

  it('turns it off for everyone once the feature is archived, and on again back in beta', async () => {
    const patch = (stage: string) =>
      s.app.inject({ method: 'PATCH', url: `/api/projects/${s.projectId}/early_access_feature/${feature.id}/`, headers: s.headers, payload: { stage } });
    await patch('archived');
    expect((await value('opted-in')).enabled).toBe(false);
    await patch('beta');
    expect((await value('opted-in')).enabled).toBe(true);
  });
});

describe('POST /flags', () => {
  let multi: { id: number; version: number };
  beforeAll(async () => {
    multi = await createFlag({
      key: 'checkout',
      name: 'Checkout experiment',
      filters: {
        groups: [
          { properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }], rollout_percentage: 100, variant: 'treatment' },
          { properties: [], rollout_percentage: 100 },
        ],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'treatment', rollout_percentage: 50 },
          ],
        },
        payloads: { treatment: '{"color":"green"}', control: '{"color":"grey"}' },
      },
    });
    await createFlag({ key: 'off-flag', active: false, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
    await createFlag({
      key: 'company-beta',
      filters: {
        aggregation_group_type_index: 0,
        groups: [{ properties: [{ key: 'size', type: 'group', group_type_index: 0, operator: 'gt', value: 100 }], rollout_percentage: 100 }],
      },
    });
    await s.services.db.kysely.insertInto('group_type_mappings').values({ project_id: s.projectId, group_type: 'company', group_type_index: 0 }).execute();
    const now = new Date().toISOString();
    await s.services.db.kysely
      .insertInto('groups')
      .values({ project_id: s.projectId, group_type_index: 0, group_key: 'acme', properties: JSON.stringify({ size: 500 }), created_at: now, updated_at: now })
      .execute();
    await storePerson(s.projectId, 'pro-user', { plan: 'pro' });
  });

  it('answers the v2 shape with variant, reason and payload metadata', async () => {
    const body = (await flags({ distinct_id: 'pro-user' })).json();
    expect(body.flags.checkout).toEqual({
      key: 'checkout',
      enabled: true,
      variant: 'treatment',
      reason: { code: 'condition_match', condition_index: 0, description: 'Matched condition set 1' },
      metadata: { id: multi.id, version: multi.version, description: 'Checkout experiment', payload: '{"color":"green"}' },
    });
    expect(body.featureFlags.checkout).toBe('treatment');
    expect(body.featureFlagPayloads.checkout).toBe('{"color":"green"}');
    expect(body.flags['off-flag']).toMatchObject({ enabled: false, reason: { code: 'flag_disabled' }, metadata: { payload: null } });
    expect(body.errorsWhileComputingFlags).toBe(false);
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('uses stored group properties, overlaid by the request, for group flags', async () => {
    expect((await flags({ distinct_id: 'u', groups: { company: 'acme' } })).json().flags['company-beta'].enabled).toBe(true);
    expect(
      (await flags({ distinct_id: 'u', groups: { company: 'acme' }, group_properties: { company: { size: 5 } } })).json().flags['company-beta'].enabled,
    ).toBe(false);
    expect(
      (await flags({ distinct_id: 'u', groups: { company: 'tiny' }, group_properties: { company: { size: 1000 } } })).json().flags['company-beta'].enabled,
    ).toBe(true);
    expect((await flags({ distinct_id: 'u' })).json().flags['company-beta']).toMatchObject({ enabled: false, reason: { code: 'no_group_type' } });
  });

  it('sees a group type first mapped by ingestion at once', async () => {
    await createFlag({ key: 'team-flag', filters: { aggregation_group_type_index: 1, groups: [{ properties: [], rollout_percentage: 100 }] } });
    const team = async () => (await flags({ distinct_id: 'u', groups: { team: 'core' } })).json().flags['team-flag'];
    expect(await team()).toMatchObject({ enabled: false, reason: { code: 'no_group_type' } });
    const capture = await s.app.inject({
      method: 'POST',
      url: '/batch/',
      payload: {
        api_key: s.token,
        batch: [{ event: '$groupidentify', distinct_id: 'u', properties: { $group_type: 'team', $group_key: 'core', $group_set: { size: 3 } } }],
      },
    });
    expect(capture.statusCode).toBe(200);
    expect(await team()).toMatchObject({ enabled: true, reason: { code: 'condition_match' } });
  });

  it('evaluates only flag_keys_to_evaluate when given, and nothing with disable_flags', async () => {
    expect(Object.keys((await flags({ distinct_id: 'u', flag_keys_to_evaluate: ['checkout'] })).json().flags)).toEqual(['checkout']);
    expect((await flags({ distinct_id: 'u', disable_flags: true })).json().flags).toEqual({});
  });

  it('reflects a flag change at once', async () => {
    const flag = await createFlag({ key: 'soon', filters: { groups: [{ properties: [], rollout_percentage: 0 }] } });
    expect((await flags({ distinct_id: 'u' })).json().flags.soon.enabled).toBe(false);
    await s.app.inject({
      method: 'PATCH',
      url: `/api/projects/${s.projectId}/feature_flags/${flag.id}/`,
      headers: s.headers,
      payload: { filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
    });
    expect((await flags({ distinct_id: 'u' })).json().flags.soon.enabled).toBe(true);
  });

  it.each([
    ['/flags/?v=2', 'v2'],
    ['/flags', 'v2'],
    ['/flags/?v=1', 'legacy'],
    ['/decide/?v=3', 'legacy'],
    ['/decide/?v=4', 'v2'],
    ['/decide/?v=2', 'map'],
    ['/decide/', 'list'],
  ])('answers %s in the %s shape', async (url, shape) => {
    const body = (await flags({ distinct_id: 'pro-user' }, url)).json();
    if (shape === 'v2') expect(body.flags.checkout.variant).toBe('treatment');
    else expect(body).not.toHaveProperty('flags');
    if (shape === 'legacy') expect(body.featureFlags).toMatchObject({ checkout: 'treatment', 'off-flag': false });
    if (shape === 'map') expect(body.featureFlags).toMatchObject({ checkout: 'treatment' });
    if (shape === 'map') expect(body.featureFlags).not.toHaveProperty('off-flag');
    if (shape === 'list') expect(body.featureFlags).toContain('checkout');
    if (shape === 'list') expect(body.featureFlags).not.toContain('off-flag');
    if (url.startsWith('/decide')) expect(body.supportedCompression).toEqual(['gzip', 'gzip-js']);
  });
});

describe('remote config for posthog-js', () => {
  it('answers the features this service offers for a known token, with CORS, and 401 for an unknown one', async () => {
    const res = await s.app.inject({ url: `/array/${s.token}/config`, headers: { origin: 'https://app.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: s.token, hasFeatureFlags: true, supportedCompression: ['gzip', 'gzip-js'], sessionRecording: false });
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect((await s.app.inject({ url: '/array/phc_unknown/config' })).json()).toMatchObject({ code: 'invalid_api_key' });
  });

  it('serves config.js, the script posthog-js loads first, which sets the same config where posthog-js reads it', async () => {
    const res = await s.app.inject({ url: `/array/${s.token}/config.js`, headers: { origin: 'https://app.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // Run as a page runs it, beside another project's config already there.
    const window: { _POSTHOG_REMOTE_CONFIG?: Record<string, unknown> } = { _POSTHOG_REMOTE_CONFIG: { phc_other: { config: {} } } };
    vm.runInNewContext(res.body, { window });
    const json = (await s.app.inject({ url: `/array/${s.token}/config` })).json();
    expect(window._POSTHOG_REMOTE_CONFIG).toEqual({ phc_other: { config: {} }, [s.token]: { config: json, siteApps: [] } });

    const unknown = await s.app.inject({ url: '/array/phc_unknown/config.js' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: 'invalid_api_key' });
  });
});

describe('/flags encodings', () => {
  const body = () => JSON.stringify({ token: s.token, distinct_id: 'enc' });
  const b64 = () => Buffer.from(body()).toString('base64');
  it.each([
    ['JSON', { 'content-type': 'application/json' }, () => body(), ''],
    ['text/plain JSON (sendBeacon)', { 'content-type': 'text/plain' }, () => body(), ''],
    ['gzip by Content-Encoding', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, () => gzipSync(body()), ''],
    ['gzip by magic bytes', { 'content-type': 'text/plain' }, () => gzipSync(body()), ''],
    ['gzip by compression=gzip-js', { 'content-type': 'text/plain' }, () => gzipSync(body()), '&compression=gzip-js'],
    ['data=<base64> form', { 'content-type': 'application/x-www-form-urlencoded' }, () => `data=${encodeURIComponent(b64())}`, '&compression=base64'],
    ['base64 text with compression=base64', { 'content-type': 'text/plain' }, () => b64(), '&compression=base64'],
  ])('reads %s', async (_name, headers, payload, query) => {
    const res = await s.app.inject({ method: 'POST', url: `/flags/?v=2${query}`, headers, payload: payload() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveProperty('flags');
  });

  it('answers CORS preflights and echoes the origin', async () => {
    const pre = await s.app.inject({
      method: 'OPTIONS',
      url: '/flags/?v=2',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const res = await s.app.inject({
      method: 'POST',
      url: '/flags/?v=2',
      headers: { origin: 'https://app.example.com' },
      payload: { token: s.token, distinct_id: 'c' },
    });
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });
});

describe('/flags rejections', () => {
  const send = (payload: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }, url = '/flags/?v=2') =>
    s.app.inject({ method: 'POST', url, headers, payload });
  const cases: [string, () => Promise<Awaited<ReturnType<typeof send>>>, number, string][] = [
    ['no token', () => send(JSON.stringify({ distinct_id: 'x' })), 401, 'missing_api_key'],
    ['unknown token', () => send(JSON.stringify({ token: 'phc_nope', distinct_id: 'x' })), 401, 'invalid_api_key'],
    ['no distinct_id', () => send(JSON.stringify({ token: s.token })), 400, 'required'],
    ['malformed JSON', () => send('{"token":'), 400, 'parse_error'],
    ['an empty body', () => send(''), 401, 'missing_api_key'],
    ['bad gzip', () => send(Buffer.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3])), 400, 'parse_error'],
    ['a form without data', () => send('x=1', { 'content-type': 'application/x-www-form-urlencoded' }), 400, 'parse_error'],
    ['bad base64', () => send('data=%%%%', { 'content-type': 'application/x-www-form-urlencoded' }), 400, 'parse_error'],
    ['an array body', () => send(JSON.stringify([{ token: s.token }])), 401, 'missing_api_key'],
    [
      'an array body with the token in the query',
      () => send(JSON.stringify([{ distinct_id: 'x' }]), { 'content-type': 'application/json' }, `/flags/?v=2&token=${s.token}`),
      400,
      'invalid_input',
    ],
    ['person_properties not an object', () => send(JSON.stringify({ token: s.token, distinct_id: 'x', person_properties: 'a' })), 400, 'invalid_input'],
    ['flag keys not a list', () => send(JSON.stringify({ token: s.token, distinct_id: 'x', flag_keys_to_evaluate: 'a' })), 400, 'invalid_input'],
    ['a body over the limit', () => send(JSON.stringify({ token: s.token, distinct_id: 'x', pad: 'x'.repeat(3 * 1024 * 1024) })), 413, 'request_too_large'],
    ['a gzip bomb', () => send(gzipSync(Buffer.alloc(8 * 1024 * 1024, 32)), { 'content-type': 'text/plain' }), 413, 'request_too_large'],
  ];
  it.each(cases)('answers %s with a JSON error', async (_name, request, status, code) => {
    const res = await request();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ code });
    expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
  });

  it('answers GET with 405', async () => {
    const res = await s.app.inject({ url: '/flags/?v=2' });
    expect(res.statusCode).toBe(405);
  });
});

describe('flag definitions for local evaluation', () => {
  it.each(['/flags/definitions', '/api/feature_flag/local_evaluation'])('%s serves definitions, group types and cohorts with an ETag', async (path) => {
    const res = await s.app.inject({ url: `${path}?token=${s.token}&send_cohorts`, headers: s.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.group_type_mapping).toMatchObject({ '0': 'company' });
    expect(body.cohorts).toEqual({});
    const checkout = body.flags.find((f: { key: string }) => f.key === 'checkout');
    expect(checkout).toMatchObject({
      key: 'checkout',
      active: true,
      deleted: false,
      ensure_experience_continuity: false,
      filters: { multivariate: { variants: [{ key: 'control' }, { key: 'treatment' }] } },
    });
    expect(typeof checkout.id).toBe('number');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    const again = await s.app.inject({ url: `${path}?token=${s.token}`, headers: { ...s.headers, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('changes the ETag when a flag changes', async () => {
    const before = (await s.app.inject({ url: `/flags/definitions?token=${s.token}`, headers: s.headers })).headers.etag as string;
    await createFlag({ key: `etag-${Date.now()}` });
    const after = await s.app.inject({ url: `/flags/definitions?token=${s.token}`, headers: { ...s.headers, 'if-none-match': before } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it("requires a personal key with feature_flag:read that may use the token's project", async () => {
    const url = `/flags/definitions?token=${s.token}`;
    expect((await s.app.inject({ url })).statusCode).toBe(401);
    expect((await s.app.inject({ url, headers: s.auth(await s.keyWith(['early_access_feature:write'])) })).statusCode).toBe(403);
    expect((await s.app.inject({ url, headers: s.auth(await s.keyWith(['feature_flag:read'])) })).statusCode).toBe(200);
    const other = await s.services.projects.create('elsewhere');
    expect((await s.app.inject({ url, headers: s.auth(await s.keyWith(['feature_flag:read'], [other.id])) })).statusCode).toBe(403);
    expect((await s.app.inject({ url: '/flags/definitions?token=phc_unknown', headers: s.headers })).json().code).toBe('invalid_api_key');
    expect((await s.app.inject({ url: '/flags/definitions', headers: s.headers })).json().code).toBe('missing_api_key');
  });
});

describe('rate limits on SDK routes', () => {
  it('gives definitions polling the public budget, not the REST API one', async () => {
    const limited = await startService({ apiRateLimitPerMinute: 2, publicRateLimitPerMinute: 4 });
    try {
      const get = () => limited.app.inject({ url: `/flags/definitions?token=${limited.token}`, headers: limited.headers });
      for (let i = 0; i < 4; i++) expect((await get()).statusCode).toBe(200);
      const throttled = await get();
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json()).toMatchObject({ type: 'throttled_error', code: 'throttled' });
    } finally {
      await limited.close();
    }
  });

  it('limits /flags per project token with a 429 JSON body', async () => {
    const limited = await startService({ publicRateLimitPerMinute: 3 });
    try {
      const post = (token: string) => limited.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token, distinct_id: 'x' } });
      for (let i = 0; i < 3; i++) expect((await post(limited.token)).statusCode).toBe(200);
      const res = await post(limited.token);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ type: 'throttled_error', code: 'throttled' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      const other = await limited.services.projects.create('other');
      expect((await post(other.api_token)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

// Cross-instance invalidation travels through PostgreSQL LISTEN/NOTIFY; SQLite serves one process.
if (dialect === 'postgres') {
  describe('two service instances on one PostgreSQL database', () => {
    it("sees a write on one instance in the other instance's cache within a second", async () => {
      const storage = testStorage();
      const a = await startService({}, storage);
      const b = await startService({}, storage);
      try {
        const flag = (
          await a.app.inject({
            method: 'POST',
            url: `/api/projects/${a.projectId}/feature_flags/`,
            headers: a.headers,
            payload: { key: 'shared', filters: { groups: [{ rollout_percentage: 0 }] } },
          })
        ).json();
        const read = async () =>
          (await b.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: a.token, distinct_id: 'x' } })).json().flags.shared.enabled;
        expect(await read()).toBe(false); // b has compiled and cached the project now
        await a.app.inject({
          method: 'PATCH',
          url: `/api/projects/${a.projectId}/feature_flags/${flag.id}/`,
          headers: a.headers,
          payload: { filters: { groups: [{ rollout_percentage: 100 }] } },
        });
        const start = Date.now();
        while (!(await read()) && Date.now() - start < 1000) await new Promise((r) => setTimeout(r, 20));
        expect(await read()).toBe(true);
        expect(Date.now() - start).toBeLessThan(1000);
      } finally {
        await b.close({ keepData: true });
        await a.close();
      }
    });
  });
}
