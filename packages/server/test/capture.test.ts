import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestService } from '../src/capture/ingest';
import { OverloadedError } from '../src/errors';
import { apiErrorOf } from '../src/http/errors';
import { startService, type TestService } from './helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

let n = 0;
/** A distinct id no other test uses. */
const someone = (label = 'user') => `${label}-${++n}-${randomUUID().slice(0, 8)}`;

type Headers = Record<string, string>;
const post = (url: string, payload: string | Buffer | object, headers: Headers = {}) =>
  s.app.inject({
    method: 'POST',
    url,
    payload: typeof payload === 'object' && !Buffer.isBuffer(payload) ? JSON.stringify(payload) : payload,
    headers: { 'content-type': 'application/json', ...headers },
  });

async function eventsOf(distinctId: string) {
  return s.services.db.kysely.selectFrom('events').selectAll().where('distinct_id', '=', distinctId).orderBy('id').execute();
}
async function eventCount() {
  const { count } = await s.services.db.kysely
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

describe('encodings', () => {
  it('stores one JSON event with api_key in the body, answering 200 {"status": 1}', async () => {
    const id = someone();
    const res = await post('/e/', { api_key: s.token, event: 'signed_up', distinct_id: id, properties: { plan: 'pro' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1 });
    const [row] = await eventsOf(id);
    expect(row).toMatchObject({ project_id: s.projectId, event: 'signed_up', distinct_id: id });
    expect(JSON.parse(row!.properties)).toEqual({ plan: 'pro' });
    expect(row!.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('stores a JSON array of events, with the token in their properties (posthog-js legacy)', async () => {
    const id = someone();
    const res = await post('/e/', [
      { event: 'a', properties: { token: s.token, distinct_id: id } },
      { event: 'b', properties: { token: s.token, distinct_id: id } },
    ]);
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['a', 'b']);
  });

  it('stores a {batch: [...]} body with token, sent_at and per-event distinct ids', async () => {
    const a = someone();
    const b = someone();
    const res = await post('/batch/', {
      token: s.token,
      sent_at: new Date().toISOString(),
      batch: [
        { event: 'x', distinct_id: a },
        { event: 'y', distinct_id: b },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(a)).map((e) => e.event)).toEqual(['x']);
    expect((await eventsOf(b)).map((e) => e.event)).toEqual(['y']);
  });

  it('reads gzip announced by Content-Encoding (posthog-node)', async () => {
    const id = someone();
    const body = gzipSync(JSON.stringify({ api_key: s.token, batch: [{ event: 'gz-header', distinct_id: id }] }));
    const res = await post('/batch/', body, { 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['gz-header']);
  });

  it('reads gzip recognised by its magic bytes in a text/plain body (posthog-js, no compression parameter)', async () => {
    const id = someone();
    const body = gzipSync(JSON.stringify({ api_key: s.token, batch: [{ event: 'gz-magic', properties: { distinct_id: id } }] }));
    expect(body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const res = await post('/i/v0/e/', body, { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['gz-magic']);
  });

  it('reads gzip announced by ?compression=gzip-js (older posthog-js)', async () => {
    const id = someone();
    const body = gzipSync(JSON.stringify([{ event: 'gz-param', properties: { distinct_id: id, token: s.token } }]));
    const res = await post(`/e/?compression=gzip-js&ip=1&_=${Date.now()}&ver=1.200.0`, body, { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['gz-param']);
  });

  it('reads a data=<base64> form with compression=base64 in the form', async () => {
    const id = someone();
    const data = Buffer.from(JSON.stringify({ api_key: s.token, batch: [{ event: 'form-b64', distinct_id: id, properties: { note: 'ü+/=' } }] })).toString(
      'base64',
    );
    const res = await post('/e/', `data=${encodeURIComponent(data)}&compression=base64`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(200);
    const [row] = await eventsOf(id);
    expect(row!.event).toBe('form-b64');
    expect(JSON.parse(row!.properties)).toEqual({ note: 'ü+/=' });
  });

  it('reads a data=<base64> form with ?compression=base64 in the query (sendBeacon of posthog-js)', async () => {
    const id = someone();
    const data = Buffer.from(JSON.stringify([{ event: 'beacon-form', distinct_id: id, properties: { token: s.token } }])).toString('base64');
    const res = await post('/e/?compression=base64&beacon=1', `data=${encodeURIComponent(data)}`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['beacon-form']);
  });

  it('reads a bare base64 body announced by ?compression=base64', async () => {
    const id = someone();
    const body = Buffer.from(JSON.stringify({ api_key: s.token, batch: [{ event: 'bare-b64', distinct_id: id }] })).toString('base64');
    const res = await post('/i/v0/e/?compression=base64', body, { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['bare-b64']);
  });

  it('reads a text/plain JSON body as sendBeacon sends it, answering 204 with ?beacon=1', async () => {
    const id = someone();
    const res = await post('/e/?beacon=1', JSON.stringify({ api_key: s.token, batch: [{ event: '$pageleave', distinct_id: id }] }), {
      'content-type': 'text/plain;charset=UTF-8',
    });
    expect(res.statusCode).toBe(204);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['$pageleave']);
  });

  it('reads gzip bytes in a text/plain beacon body', async () => {
    const id = someone();
    const res = await post('/e/?beacon=1', gzipSync(JSON.stringify({ api_key: s.token, batch: [{ event: 'beacon-gz', distinct_id: id }] })), {
      'content-type': 'text/plain',
    });
    expect(res.statusCode).toBe(204);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['beacon-gz']);
  });

  it('takes GET with ?data=<base64> and the token in the query', async () => {
    const id = someone();
    const data = Buffer.from(JSON.stringify({ event: 'pixel', distinct_id: id })).toString('base64');
    const res = await s.app.inject({ url: `/e/?token=${s.token}&data=${encodeURIComponent(data)}` });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['pixel']);
  });

  it('takes the token from the query when the body has none', async () => {
    const id = someone();
    const res = await post(`/batch/?token=${s.token}`, { batch: [{ event: 'query-token', distinct_id: id }] });
    expect(res.statusCode).toBe(200);
    expect(await eventsOf(id)).toHaveLength(1);
  });
});

describe('paths', () => {
  it.each(['/e', '/e/', '/i/v0/e', '/i/v0/e/', '/batch', '/batch/', '/capture', '/capture/'])('stores events sent to %s', async (path) => {
    const id = someone();
    const res = await post(path, { api_key: s.token, batch: [{ event: `to ${path}`, distinct_id: id }] });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(id)).map((e) => e.event)).toEqual([`to ${path}`]);
  });

  it('takes bodies above 2 MB on /batch/ (up to 20 MB)', async () => {
    const id = someone();
    const batch = Array.from({ length: 30 }, (_, i) => ({ event: 'big', distinct_id: id, properties: { i, blob: 'x'.repeat(100_000) } }));
    const res = await post('/batch/', { api_key: s.token, batch });
    expect(res.statusCode).toBe(200);
    expect(await eventsOf(id)).toHaveLength(30);
  });
});

describe('clocks', () => {
  const now = () => Date.now();
  const timestampOf = async (event: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const id = someone();
    const res = await post('/batch/', { api_key: s.token, ...extra, batch: [{ event: 'clock', distinct_id: id, ...event }] });
    expect(res.statusCode).toBe(200);
    return Date.parse((await eventsOf(id))[0]!.timestamp);
  };

  it('uses now - offset when the event has an offset (batched posthog-js)', async () => {
    const before = now();
    const ts = await timestampOf({ offset: 60_000, timestamp: '2001-01-01T00:00:00Z' });
    expect(ts).toBeGreaterThanOrEqual(before - 60_000);
    expect(ts).toBeLessThanOrEqual(now() - 60_000);
  });

  it("shifts the timestamp by the client's clock error, measured by sent_at", async () => {
    // The client's clock is one hour fast: it sent at "now + 1h" an event it stamped "now + 1h - 5 s".
    const before = now();
    const ts = await timestampOf({ timestamp: new Date(before + 3_600_000 - 5000).toISOString() }, { sent_at: new Date(before + 3_600_000).toISOString() });
    expect(ts).toBeGreaterThanOrEqual(before - 5000);
    expect(ts).toBeLessThanOrEqual(now() - 5000);
  });

  it('keeps a timestamp as sent when there is no sent_at, and uses now when there is none', async () => {
    expect(await timestampOf({ timestamp: '2026-03-04T05:06:07.890Z' })).toBe(Date.parse('2026-03-04T05:06:07.890Z'));
    const before = now();
    const ts = await timestampOf({});
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(now());
  });

  it('uses now for an unreadable timestamp or one more than a day ahead', async () => {
    for (const timestamp of ['yesterday-ish', new Date(now() + 3 * 86_400_000).toISOString()]) {
      const before = now();
      const ts = await timestampOf({ timestamp });
      expect(ts).toBeGreaterThanOrEqual(before);
      expect(ts).toBeLessThanOrEqual(now());
    }
  });
});

describe('duplicates', () => {
  it('stores a uuid repeated in one batch once, keeping the first', async () => {
    const id = someone();
    const uuid = randomUUID();
    const res = await post('/batch/', {
      api_key: s.token,
      batch: [
        { uuid, event: 'first', distinct_id: id },
        { uuid, event: 'second', distinct_id: id },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(id)).map((e) => [e.uuid, e.event])).toEqual([[uuid, 'first']]);
  });

  it('stores a uuid sent again in a later batch (a retry) once, and applies its $set once', async () => {
    const id = someone();
    const uuid = randomUUID();
    const send = (plan: string) => post('/batch/', { api_key: s.token, batch: [{ uuid, event: 'retry', distinct_id: id, $set: { plan } }] });
    expect((await send('first')).statusCode).toBe(200);
    expect((await send('second')).statusCode).toBe(200);
    expect(await eventsOf(id)).toHaveLength(1);
    const person = (await s.app.inject({ url: `/api/projects/${s.projectId}/persons/?distinct_id=${id}`, headers: s.headers })).json().results[0];
    expect(person.properties).toEqual({ plan: 'first' });
  });

  it('treats uuids case-insensitively', async () => {
    const id = someone();
    const uuid = randomUUID();
    await post('/batch/', { api_key: s.token, batch: [{ uuid: uuid.toUpperCase(), event: 'upper', distinct_id: id }] });
    await post('/batch/', { api_key: s.token, batch: [{ uuid, event: 'lower', distinct_id: id }] });
    expect((await eventsOf(id)).map((e) => [e.uuid, e.event])).toEqual([[uuid, 'upper']]);
  });
});

describe('rejections', () => {
  const authError = (code: string, detail: string) => ({ type: 'authentication_error', code, detail, attr: null });

  it('answers 401 missing_api_key without a token', async () => {
    const res = await post('/batch/', { batch: [{ event: 'x', distinct_id: 'a' }] });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(authError('missing_api_key', 'API key not provided. You can find your project API key in your project settings.'));
  });

  it('answers 401 invalid_api_key for an unknown token', async () => {
    const res = await post('/e/', { api_key: 'phc_nope', event: 'x', distinct_id: 'a' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(authError('invalid_api_key', 'Project API key invalid. You can find your project API key in your project settings.'));
  });

  it('answers 401 when the events of one request name different tokens', async () => {
    const res = await post('/e/', [
      { event: 'x', distinct_id: 'a', properties: { token: s.token } },
      { event: 'y', distinct_id: 'a', properties: { token: 'phc_other' } },
    ]);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_api_key');
  });

  it('answers 400 parse_error for malformed JSON, in any encoding', async () => {
    for (const res of [
      await post('/e/', '{"event": ', { 'content-type': 'application/json' }),
      await post('/e/', '{"event": ', { 'content-type': 'text/plain' }),
      await post('/e/', gzipSync('{"event": '), { 'content-encoding': 'gzip' }),
      await post('/e/', 'data=bm90IGpzb24%3D&compression=base64', { 'content-type': 'application/x-www-form-urlencoded' }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'parse_error', attr: null });
    }
  });

  it('answers 400 for gzip that is not gzip', async () => {
    const broken = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.from('definitely not deflate data')]);
    const res = await post('/e/', broken, { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'invalid_request', code: 'parse_error', detail: 'Body is not valid gzip.', attr: null });
  });

  it('answers 400 naming the event that is not an event', async () => {
    const res = await post(`/batch/?token=${s.token}`, { batch: [{ event: 'ok', distinct_id: 'a' }, 'hello'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'Event 1 is not an event object.', attr: 'batch__1' });
  });

  it('answers 400 for a body that is not an event at all, or has no events', async () => {
    for (const payload of ['"hello"', '42', '{"batch": "nope"}', '{"batch": []}', '[]']) {
      const res = await post(`/e/?token=${s.token}`, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().type).toBe('validation_error');
    }
    const empty = await s.app.inject({ method: 'POST', url: `/e/?token=${s.token}` });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ type: 'validation_error', code: 'required' });
  });

  it('answers 400 naming the event without an event name', async () => {
    const res = await post('/batch/', { api_key: s.token, batch: [{ event: 'ok', distinct_id: 'a' }, { distinct_id: 'a' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'Event 1 has no event name.', attr: 'batch__1__event' });
  });

  it('answers 400 naming the event without a distinct_id, and stores nothing of the batch', async () => {
    const before = await eventCount();
    const batch = [0, 1, 2].map((i) => ({ event: 'fine', distinct_id: `fine-${i}` }));
    const res = await post('/batch/', { api_key: s.token, batch: [...batch, { event: 'no id', properties: {} }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'Event 3 has no distinct_id.', attr: 'batch__3__distinct_id' });
    expect(await eventCount()).toBe(before);
  });

  it('answers 400 for an object distinct_id, a uuid that is not a UUID, and properties that are not an object', async () => {
    const cases = [
      [{ event: 'x', distinct_id: { id: 1 } }, 'batch__0__distinct_id'],
      [{ event: 'x', distinct_id: 'a', uuid: 'not-a-uuid' }, 'batch__0__uuid'],
      [{ event: 'x', distinct_id: 'a', properties: [1, 2] }, 'batch__0__properties'],
    ] as const;
    for (const [event, attr] of cases) {
      const res = await post('/batch/', { api_key: s.token, batch: [event] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', attr });
    }
  });

  it('answers 413 for a body above 2 MB on /e/', async () => {
    const res = await post('/e/', { api_key: s.token, event: 'huge', distinct_id: 'a', properties: { blob: 'x'.repeat(2.5 * 1024 * 1024) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'request_too_large' });
  });

  it('answers 413 for a gzip bomb: a small body that inflates past the limit', async () => {
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from(`{"api_key": "${s.token}", "event": "x", "distinct_id": "a", "properties": {"p": "`),
        Buffer.alloc(50 * 1024 * 1024, 'a'),
        Buffer.from('"}}'),
      ]),
    );
    expect(bomb.length).toBeLessThan(200 * 1024);
    for (const path of ['/e/', '/batch/']) {
      const res = await post(path, bomb, { 'content-encoding': 'gzip' });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'request_too_large' });
    }
  });

  it('answers 405 with an Allow header for other methods', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
      const res = await s.app.inject({ method, url: '/batch/', payload: { api_key: s.token } });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'method_not_allowed' });
      expect(res.headers.allow).toContain('POST');
    }
  });

  it('stores names with NUL, lone surrogates and absurd lengths instead of failing (never a 500)', async () => {
    const id = `odd\u0000id\ud800-${someone()}`;
    const res = await post('/batch/', {
      api_key: s.token,
      batch: [{ event: `e\u0000v\udc00${'n'.repeat(500)}`, distinct_id: id, properties: { 'k\u0000': 'v\u0000\ud800' } }],
    });
    expect(res.statusCode).toBe(200);
    const rows = await s.services.db.kysely
      .selectFrom('events')
      .selectAll()
      .where('distinct_id', '=', id.replace('\u0000', '\uFFFD').replace('\ud800', '\uFFFD'))
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.event).toHaveLength(200);
    expect(rows[0]!.event.startsWith('e\uFFFDv\uFFFDn')).toBe(true);
    expect(JSON.parse(rows[0]!.properties)).toEqual({ 'k\u0000': 'v\u0000\ud800' }); // properties are JSON text: kept as sent
  });
});

describe('CORS', () => {
  const origin = 'https://app.example.com';

  it('echoes the Origin with credentials on success and on errors', async () => {
    const ok = await post('/e/', { api_key: s.token, event: 'cors', distinct_id: someone() }, { origin });
    const unauthorized = await post('/e/', { event: 'cors', distinct_id: 'a' }, { origin });
    const malformed = await post('/e/', '{', { origin });
    for (const res of [ok, unauthorized, malformed]) {
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
    }
    expect([ok.statusCode, unauthorized.statusCode, malformed.statusCode]).toEqual([200, 401, 400]);
  });

  it('answers a preflight with 204 and the allowed methods and headers', async () => {
    const res = await s.app.inject({
      method: 'OPTIONS',
      url: '/i/v0/e/',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,traceparent' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'content-type,traceparent',
    });
  });

  it('sends no CORS headers without an Origin', async () => {
    const res = await post('/e/', { api_key: s.token, event: 'no-cors', distinct_id: someone() });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('durability and back-pressure', () => {
  it('answers 503 overloaded with Retry-After once more events wait than INGEST_MAX_PENDING_EVENTS, storing every one it acknowledged', async () => {
    const small = await startService({ ingestMaxPendingEvents: 5 });
    try {
      const batch = (i: number) => ({
        api_key: small.token,
        batch: Array.from({ length: 3 }, (_, j) => ({ uuid: randomUUID(), event: 'burst', distinct_id: `burst-${i}-${j}` })),
      });
      const bodies = Array.from({ length: 30 }, (_, i) => batch(i));
      const answers = await Promise.all(bodies.map((body) => small.app.inject({ method: 'POST', url: '/batch/', payload: body })));
      const codes = answers.map((a) => a.statusCode);
      expect(codes).toContain(200);
      expect(codes).toContain(503);
      expect(codes.every((c) => c === 200 || c === 503)).toBe(true);
      const refused = answers.find((a) => a.statusCode === 503)!;
      expect(refused.json()).toMatchObject({ type: 'server_error', code: 'overloaded', attr: null });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const acknowledged = bodies.filter((_, i) => codes[i] === 200).flatMap((b) => b.batch.map((e) => e.uuid));
      const stored = await small.services.db.kysely.selectFrom('events').select('uuid').execute();
      expect(stored.map((r) => r.uuid).sort()).toEqual(acknowledged.sort());
    } finally {
      await small.close();
    }
  });

  it('commits what was accepted before it closes, and refuses events after', async () => {
    const ingest = new IngestService(s.services.db, { maxPendingEvents: 1000 });
    const id = someone('closing');
    const event = (name: string) => ({
      uuid: randomUUID(),
      event: name,
      distinctId: id,
      properties: {},
      propertiesJson: '{}',
      timestamp: new Date().toISOString(),
    });
    const accepted = ingest.capture(s.projectId, [event('before close')]);
    await ingest.close();
    await accepted;
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['before close']);
    // A domain error, which the HTTP edge answers 503 overloaded.
    const refused = await ingest.capture(s.projectId, [event('after close')]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OverloadedError);
    expect(apiErrorOf(refused as OverloadedError)).toMatchObject({ statusCode: 503, code: 'overloaded' });
  });

  it('shares transactions between concurrent requests and answers each after its events are stored', async () => {
    const ids = Array.from({ length: 20 }, () => someone('concurrent'));
    const answers = await Promise.all(ids.map((id) => post('/batch/', { api_key: s.token, batch: [{ event: 'together', distinct_id: id }] })));
    expect(answers.map((a) => a.statusCode)).toEqual(ids.map(() => 200));
    for (const id of ids) expect(await eventsOf(id)).toHaveLength(1);
  });
});

describe('rate limit', () => {
  it('answers 429 throttled_error with Retry-After once a project token spends its budget; other tokens keep theirs', async () => {
    const limited = await startService({ publicRateLimitPerMinute: 3 });
    try {
      const other = await limited.services.projects.create('Other');
      const send = (token: string) =>
        limited.app.inject({ method: 'POST', url: '/e/', payload: { api_key: token, event: 'x', distinct_id: 'a' }, headers: { origin: 'https://a.example' } });
      for (let i = 0; i < 3; i++) expect((await send(limited.token)).statusCode).toBe(200);
      const res = await send(limited.token);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ type: 'throttled_error', code: 'throttled', attr: null });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['access-control-allow-origin']).toBe('https://a.example');
      expect((await send(other.api_token)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
