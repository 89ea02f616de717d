// OFREP 0.3 (OpenFeature's remote evaluation protocol) over the /flags evaluator, by inject: values, variants,
// objects, reasons, OFREP's error shape and codes, the bulk ETag / 304, CORS, the rate limit and exposures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONTEXT_ATTRIBUTES } from '../src/ofrep/context';
import { startService, type TestService } from './helpers';

let s: TestService;
const ORIGIN = 'https://app.example.com';

beforeAll(async () => {
  s = await startService();
  const flags: object[] = [
    { key: 'everyone', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
    { key: 'pros', filters: { groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }], rollout_percentage: 100 }] } },
    { key: 'off', active: false, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
    { key: 'half', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } },
    {
      key: 'checkout',
      filters: {
        groups: [
          { properties: [{ key: 'plan', value: 'free', type: 'person' }], rollout_percentage: 100, variant: 'control' },
          { properties: [{ key: 'plan', value: ['pro', 'team'], type: 'person' }], rollout_percentage: 100 },
        ],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'treatment', rollout_percentage: 50 },
          ],
        },
        payloads: { treatment: '{"color":"green"}' },
      },
    },
    {
      key: 'banner',
      filters: {
        groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }], rollout_percentage: 100 }],
        payloads: { true: '{"text":"Hi","n":2}' },
      },
    },
    {
      key: 'team-flag',
      filters: { aggregation_group_type_index: 0, groups: [{ properties: [{ key: 'size', value: 'big', type: 'group', group_type_index: 0 }] }] },
    },
  ];
  for (const payload of flags) {
    const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload });
    expect(res.statusCode, res.body).toBe(201);
  }
  // The group type `company` (index 0), as capture makes it.
  const res = await s.app.inject({
    method: 'POST',
    url: '/batch/',
    payload: {
      api_key: s.token,
      batch: [{ event: '$groupidentify', distinct_id: 'x', properties: { $group_type: 'company', $group_key: 'acme', $group_set: {} } }],
    },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => s.close());

const one = (key: string, payload: unknown, headers: Record<string, string> = { authorization: `Bearer ${s.token}` }) =>
  s.app.inject({ method: 'POST', url: `/ofrep/v1/evaluate/flags/${key}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const bulk = (payload: unknown, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'POST', url: '/ofrep/v1/evaluate/flags', headers: { authorization: `Bearer ${s.token}`, ...headers }, payload: payload as object });
const ctx = (targetingKey: string, attributes: Record<string, unknown> = {}) => ({ context: { targetingKey, ...attributes } });

describe('POST /ofrep/v1/evaluate/flags/{key}', () => {
  it('answers a boolean flag with its value, variant, reason and metadata', async () => {
    const res = await one('everyone', ctx('u1'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      key: 'everyone',
      value: true,
      variant: 'true',
      reason: 'STATIC',
      metadata: { id: expect.any(Number), version: 1, enabled: true },
    });
    expect((await one('pros', ctx('u1', { plan: 'pro' }))).json()).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect((await one('pros', ctx('u1', { plan: 'free' }))).json()).toMatchObject({ value: false, variant: 'false', reason: 'DEFAULT' });
    expect((await one('off', ctx('u1'))).json()).toMatchObject({ value: false, reason: 'DISABLED', metadata: { enabled: false } });
  });

  it('says SPLIT where the answer is a pseudorandom assignment, on both sides of a rollout', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => one('half', ctx(`user-${i}`)).then((res) => res.json())));
    expect(new Set(answers.map((a) => a.reason))).toEqual(new Set(['SPLIT']));
    expect(new Set(answers.map((a) => a.value))).toEqual(new Set([true, false]));
  });

  it('answers a multivariate flag with its variant as the string value; no value (the caller default) when no one matched', async () => {
    const forced = (await one('checkout', ctx('u1', { plan: 'free' }))).json();
    expect(forced).toMatchObject({ key: 'checkout', value: 'control', variant: 'control', reason: 'TARGETING_MATCH' });
    const split = await Promise.all(Array.from({ length: 30 }, (_, i) => one('checkout', ctx(`p-${i}`, { plan: 'pro' })).then((res) => res.json())));
    expect(new Set(split.map((a) => a.value))).toEqual(new Set(['control', 'treatment']));
    expect(new Set(split.map((a) => a.reason))).toEqual(new Set(['SPLIT']));
    const treated = split.find((a) => a.value === 'treatment');
    expect(treated.metadata.payload).toBe('{"color":"green"}');
    const nobody = (await one('checkout', ctx('u1'))).json();
    expect(nobody).toEqual({ key: 'checkout', reason: 'DEFAULT', metadata: { id: expect.any(Number), version: 1, enabled: false } });
  });

  it('answers a flag with an object payload with the payload as its object value', async () => {
    expect((await one('banner', ctx('u1', { plan: 'pro' }))).json()).toMatchObject({ value: { text: 'Hi', n: 2 }, reason: 'TARGETING_MATCH' });
    const off = (await one('banner', ctx('u1'))).json();
    expect(off).not.toHaveProperty('value');
    expect(off.reason).toBe('DEFAULT');
  });

  it('reads groups and groupProperties from the context, as PostHog providers reserve them', async () => {
    const groups = { groups: { company: 'acme' }, groupProperties: { company: { size: 'big' } } };
    expect((await one('team-flag', ctx('u1', groups))).json()).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect((await one('team-flag', ctx('u1', { groups: { company: 'acme' } }))).json()).toMatchObject({ value: false, reason: 'DEFAULT' });
  });

  it('gives the answers /flags gives for the same person and properties', async () => {
    for (let i = 0; i < 20; i++) {
      const properties = { plan: ['pro', 'free', 'team'][i % 3] };
      const flags = await s.app.inject({
        method: 'POST',
        url: '/flags?v=2',
        payload: { token: s.token, distinct_id: `same-${i}`, person_properties: properties },
      });
      const { flags: bulkFlags } = (await bulk(ctx(`same-${i}`, properties))).json() as { flags: Array<{ key: string; metadata: { enabled: boolean } }> };
      const v2 = flags.json().flags as Record<string, { enabled: boolean; variant: string | null }>;
      for (const flag of bulkFlags) expect(flag.metadata.enabled, flag.key).toBe(v2[flag.key]!.enabled);
      const variant = (await one('checkout', ctx(`same-${i}`, properties))).json().variant;
      expect(variant ?? null).toBe(v2.checkout!.variant);
    }
  });

  it('answers mistakes with OFREP error codes and its body shape', async () => {
    const error = async (res: Awaited<ReturnType<typeof one>>, status: number, errorCode: string) => {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.json()).sort()).toEqual(['errorCode', 'errorDetails', 'key']);
      expect(res.json()).toMatchObject({ key: 'everyone', errorCode });
    };
    await error(await one('everyone', {}), 400, 'INVALID_CONTEXT');
    await error(await one('everyone', { context: 'u1' }), 400, 'INVALID_CONTEXT');
    await error(await one('everyone', { context: {} }), 400, 'TARGETING_KEY_MISSING');
    await error(await one('everyone', { context: { targetingKey: '' } }), 400, 'TARGETING_KEY_MISSING');
    await error(await one('everyone', { context: { targetingKey: 42 } }), 400, 'INVALID_CONTEXT');
    await error(await one('everyone', ctx('u1', { groups: 'acme' })), 400, 'INVALID_CONTEXT');
    await error(await one('everyone', [1, 2]), 400, 'PARSE_ERROR');
    const broken = await s.app.inject({
      method: 'POST',
      url: '/ofrep/v1/evaluate/flags/everyone',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      payload: '{"context": {',
    });
    await error(broken, 400, 'PARSE_ERROR');
    const missing = await one('no-such-flag', ctx('u1'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ key: 'no-such-flag', errorCode: 'FLAG_NOT_FOUND', errorDetails: 'The project has no flag "no-such-flag".' });
  });

  it('takes the project token as a Bearer or X-API-Key; 401 without one or for an unknown one, 403 for a personal API key', async () => {
    expect((await one('everyone', ctx('u1'), { 'x-api-key': s.token })).json()).toMatchObject({ value: true });
    expect((await one('everyone', ctx('u1'), {})).statusCode).toBe(401);
    const unknown = await one('everyone', ctx('u1'), { authorization: 'Bearer phc_not_a_token' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ errorCode: 'GENERAL', errorDetails: expect.stringContaining('Project API key invalid') });
    const personal = await one('everyone', ctx('u1'), { authorization: `Bearer ${s.key}` });
    expect(personal.statusCode).toBe(403);
    expect(personal.json().errorDetails).toMatch(/project token/);
  });

  it(`evaluates a context of ${MAX_CONTEXT_ATTRIBUTES} attributes and refuses 10,000 (INVALID_CONTEXT); a body past the limit is a 413`, async () => {
    const attributes = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`attr_${i}`, i]));
    expect((await one('pros', ctx('u1', { ...attributes(MAX_CONTEXT_ATTRIBUTES - 1), plan: 'pro' }))).json()).toMatchObject({ value: true });
    const many = await one('pros', ctx('u1', attributes(10_000)));
    expect(many.statusCode).toBe(400);
    expect(many.json()).toMatchObject({ errorCode: 'INVALID_CONTEXT', errorDetails: `The context has more than ${MAX_CONTEXT_ATTRIBUTES} attributes.` });
    const groupHeavy = await one('pros', ctx('u1', { ...attributes(600), groupProperties: { company: attributes(600) } }));
    expect(groupHeavy.json().errorCode).toBe('INVALID_CONTEXT');
    const huge = await one('pros', ctx('u1', { blob: 'x'.repeat(300 * 1024) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ key: 'pros', errorCode: 'GENERAL' });
  });
});

describe('POST /ofrep/v1/evaluate/flags', () => {
  it('answers every flag with an ETag, and the stream to listen to', async () => {
    const res = await bulk(ctx('u1', { plan: 'pro' }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.flags.map((f: { key: string }) => f.key).sort()).toEqual(['banner', 'checkout', 'everyone', 'half', 'off', 'pros', 'team-flag']);
    expect(body.flags.find((f: { key: string }) => f.key === 'banner')).toMatchObject({ value: { text: 'Hi', n: 2 }, reason: 'TARGETING_MATCH' });
    expect(body.eventStreams).toEqual([{ type: 'sse', endpoint: { requestUri: `/flags/stream?token=${s.token}` }, inactivityDelaySec: 120 }]);
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    // The same answer has the same ETag; another one another.
    expect((await bulk(ctx('u1', { plan: 'pro' }))).headers.etag).toBe(res.headers.etag);
    expect((await bulk(ctx('u1', { plan: 'free' }))).headers.etag).not.toBe(res.headers.etag);
  });

  it('answers 304 to If-None-Match with the current ETag, and 200 with a new one after a flag changes', async () => {
    const first = await bulk(ctx('etag-user'));
    const etag = first.headers.etag as string;
    const again = await bulk(ctx('etag-user'), { 'if-none-match': etag, origin: ORIGIN });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['access-control-expose-headers']).toBe('ETag');
    expect((await bulk(ctx('etag-user'), { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
    const list = await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/?search=off`, headers: s.headers });
    const off = (list.json().results as Array<{ id: number; key: string }>).find((f) => f.key === 'off')!;
    const patched = await s.app.inject({
      method: 'PATCH',
      url: `/api/projects/${s.projectId}/feature_flags/${off.id}/`,
      headers: s.headers,
      payload: { active: true },
    });
    expect(patched.statusCode).toBe(200);
    const changed = await bulk(ctx('etag-user'), { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().flags.find((f: { key: string }) => f.key === 'off')).toMatchObject({ value: true, reason: 'STATIC' });
  });

  it('answers a bad context with a 400 in OFREP shape (no key)', async () => {
    const res = await bulk({ context: { plan: 'pro' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errorCode: 'TARGETING_KEY_MISSING', errorDetails: expect.any(String) });
  });

  it('answers CORS as /flags does: a preflight allowing If-None-Match and X-API-Key, the origin echoed on answers and errors', async () => {
    const preflight = await s.app.inject({
      method: 'OPTIONS',
      url: '/ofrep/v1/evaluate/flags',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, if-none-match, x-api-key' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type, if-none-match, x-api-key');
    const answer = await bulk(ctx('u1'), { origin: ORIGIN });
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(answer.headers['access-control-expose-headers']).toBe('ETag');
    const refused = await one('everyone', ctx('u1'), { origin: ORIGIN });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(ORIGIN);
  });
});

describe('exposures', () => {
  const exposures = async (distinctId: string) => {
    const res = await s.app.inject({ url: `/api/projects/${s.projectId}/events/?event=$feature_flag_called&distinct_id=${distinctId}`, headers: s.headers });
    return res.json().results as Array<{ properties: Record<string, unknown> }>;
  };

  /** The exposures of `distinctId` once there are `count` (they are stored after the answer, in the order asked). */
  const exposuresOnce = async (distinctId: string, count: number) => {
    for (let tries = 0; tries < 100; tries++) {
      const recorded = await exposures(distinctId);
      if (recorded.length >= count) return recorded;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return exposures(distinctId);
  };

  it('records $feature_flag_called for a single-flag evaluation, once per person, flag and answer; none for the bulk endpoint', async () => {
    await one('checkout', ctx('exposed', { plan: 'free' }));
    await one('checkout', ctx('exposed', { plan: 'free' }));
    await one('everyone', ctx('exposed'));
    await bulk(ctx('exposed'));
    await bulk(ctx('bulk-only'));
    // Recorded after everything above would have been: once it is there, so would theirs be.
    await one('everyone', ctx('sentinel'));
    expect(await exposuresOnce('sentinel', 1)).toHaveLength(1);
    const recorded = await exposures('exposed');
    expect(recorded.map((e) => [e.properties.$feature_flag, e.properties.$feature_flag_response]).sort()).toEqual([
      ['checkout', 'control'],
      ['everyone', true],
    ]);
    expect(recorded.find((e) => e.properties.$feature_flag === 'checkout')!.properties).toMatchObject({
      '$feature/checkout': 'control',
      $lib: 'ofrep',
      $feature_flag_reason: 'TARGETING_MATCH',
    });
    expect(await exposures('bulk-only')).toEqual([]);
  });
});

describe('rate limit', () => {
  it('answers past the per-project limit with 429, Retry-After and the OFREP shape', async () => {
    const limited = await startService({ publicRateLimitPerMinute: 2 });
    try {
      const ask = () => limited.app.inject({ method: 'POST', url: '/ofrep/v1/evaluate/flags', headers: { 'x-api-key': limited.token }, payload: ctx('u1') });
      expect((await ask()).statusCode).toBe(200);
      expect((await ask()).statusCode).toBe(200);
      const refused = await ask();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toEqual({ errorCode: 'GENERAL', errorDetails: expect.stringMatching(/throttled/) });
    } finally {
      await limited.close();
    }
  });
});
