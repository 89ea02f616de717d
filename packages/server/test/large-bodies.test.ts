// Issue 10, item 3: fifty concurrent 19 MB gzip bodies without a token took the service to 3 GB. A bad token in
// the query is refused before the body is read, gzip is inflated as it arrives with the limit enforced on the way,
// and only SDK_MAX_CONCURRENT_LARGE_BODIES large bodies are decoded at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, createGzip, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
let url: string;
beforeAll(async () => {
  s = await startService({ sdkMaxConcurrentLargeBodies: 1 });
  await s.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
});
afterAll(() => s.close());

const MB = 1024 * 1024;
/** A gzip body that inflates to 25 MB (past every limit) from about 25 KB. */
const bomb = (prefix: string) => gzipSync(Buffer.concat([Buffer.from(prefix), Buffer.alloc(25 * MB, 'a'), Buffer.from('"}}]}')]));
const post = (path: string, payload: Buffer, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'POST', url: path, payload, headers: { 'content-type': 'text/plain', ...headers } });
/** A batch of `count` events for `distinctId`, each with a `pad`-byte property; about `count * pad` bytes. */
const batch = (token: string | undefined, distinctId: string, count: number, pad: number) =>
  JSON.stringify({
    ...(token ? { api_key: token } : {}),
    batch: Array.from({ length: count }, (_, i) => ({ event: `e${i}`, distinct_id: distinctId, properties: { pad: 'x'.repeat(pad) } })),
  });
const stored = async (distinctId: string) => {
  const { count } = await s.services.db.kysely
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('distinct_id', '=', distinctId)
    .executeTakeFirstOrThrow();
  return Number(count);
};
const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toEqual({ type: expect.any(String), code, detail: expect.any(String), attr: null });
};

/** A POST over a real connection whose body is written by `write` and not ended; resolves with the answer. */
function unfinished(path: string, headers: Record<string, string | number>, write: (request: http.ClientRequest) => void) {
  const request = http.request(`${url}${path}`, { method: 'POST', agent: false, headers });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
  write(request);
  return { request, answer };
}

describe('a token in the query is checked before the body is read', () => {
  it('answers 401, not 413, to a gzip bomb on /batch/ with an unknown token in the query (it is never inflated)', async () => {
    const body = bomb('{"batch": [{"event": "x", "distinct_id": "a", "properties": {"p": "');
    expectError(await post('/batch/?token=phc_unknown', body, { 'content-encoding': 'gzip' }), 401, 'invalid_api_key');
    expectError(await post('/e/?api_key=phc_unknown', body), 401, 'invalid_api_key');
  });

  it('answers 401, not 413, to a gzip bomb on /flags with an unknown token in the query', async () => {
    const body = bomb('{"distinct_id": "a", "person_properties": {"p": "');
    expectError(await post('/flags/?v=2&token=phc_unknown', body, { 'content-encoding': 'gzip' }), 401, 'invalid_api_key');
  });

  it('answers 401, not 413, to a gzip bomb whose leading api_key is unknown (read from the start of the body)', async () => {
    const body = bomb('{"api_key": "phc_unknown", "batch": [{"event": "x", "distinct_id": "a", "properties": {"p": "');
    expectError(await post('/batch/', body), 401, 'invalid_api_key');
  });
});

describe('gzip is inflated as it arrives', () => {
  it('answers 413 JSON as soon as a gzip body inflates past the limit, before the body has ended', async () => {
    const gzip = createGzip();
    const { request, answer } = unfinished('/batch/', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, (req) => gzip.pipe(req));
    gzip.write(`{"api_key": "${s.token}", "batch": [{"event": "x", "distinct_id": "a", "properties": {"p": "`);
    gzip.write(Buffer.alloc(25 * MB, 'a'));
    gzip.flush(constants.Z_SYNC_FLUSH); // the rest of the body never comes
    const res = await answer;
    request.destroy();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ type: 'invalid_request', code: 'request_too_large', detail: 'Request body is too large.', attr: null });
  });

  it('answers 413 JSON as soon as a gzip body inflates past the limit, though all of it arrived before and no more comes', async () => {
    // All of the compressed body is sent at once, in small pieces: it is all read (and waiting to be inflated) before the
    // limit is reached. The answer once waited for more of the body, which never came, until the request timed out.
    const gzip = createGzip();
    const compressed: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => compressed.push(chunk));
    gzip.write(`{"api_key": "${s.token}", "batch": [{"event": "x", "distinct_id": "a", "properties": {"p": "`);
    gzip.write(Buffer.alloc(25 * MB, 'a'));
    await new Promise((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve(undefined)));
    const bytes = Buffer.concat(compressed);
    const { request, answer } = unfinished('/batch/', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, (req) => {
      for (let at = 0; at < bytes.length; at += 1024) req.write(bytes.subarray(at, at + 1024));
    });
    const res = await answer;
    request.destroy();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'request_too_large' });
  });

  it('stores a large gzip body whose token is only inside it (Content-Encoding and magic bytes)', async () => {
    const id = `large-${Date.now()}`;
    const body = gzipSync(batch(s.token, id, 300, 10_000)); // 3 MB inflated
    expect((await post('/batch/', body, { 'content-encoding': 'gzip' })).statusCode).toBe(200);
    expect((await post('/batch/', body)).statusCode).toBe(200);
    expect(await stored(id)).toBe(600);
  });

  it('evaluates /flags for a large gzip body whose token is only inside it', async () => {
    const body = gzipSync(JSON.stringify({ token: s.token, distinct_id: 'a', person_properties: { pad: 'x'.repeat(1.5 * MB) } }));
    const res = await post('/flags/?v=2', body, { 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('flags');
  });
});

describe('SDK_MAX_CONCURRENT_LARGE_BODIES (here 1)', () => {
  it('answers 503 JSON with Retry-After to a large body that waited too long while another held the only slot', async () => {
    const id = `held-${Date.now()}`;
    const body = Buffer.from(batch(s.token, id, 30, 100_000)); // 3 MB, sent in two halves
    const held = unfinished('/batch/', { 'content-type': 'application/json', 'content-length': body.length }, (req) => req.write(body.subarray(0, 1.5 * MB)));
    let refused: Awaited<typeof held.answer> | undefined;
    const probe = Buffer.from(batch(s.token, `probe-${id}`, 12, 100_000));
    for (let attempt = 0; attempt < 10 && !refused; attempt++) {
      const { request, answer } = unfinished('/batch/', { 'content-type': 'application/json', 'content-length': probe.length }, (req) => req.end(probe));
      const res = await answer;
      request.destroy();
      if (res.status === 503) refused = res;
      else expect(res.status).toBe(200); // sent before the held body took the slot
    }
    expect(refused?.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused!.body)).toMatchObject({ type: 'server_error', code: 'overloaded', attr: null });
    held.request.end(body.subarray(1.5 * MB));
    expect((await held.answer).status).toBe(200);
    expect(await stored(id)).toBe(30);
  });

  it('makes a small br body wait for a slot too (its decoder may hold a window of up to 16 MB): 503 while another holds it', async () => {
    const id = `held-br-${Date.now()}`;
    const body = Buffer.from(batch(s.token, id, 30, 100_000)); // 3 MB declared: it takes the slot once its headers are read
    const held = unfinished('/batch/', { 'content-type': 'application/json', 'content-length': body.length }, (req) => req.write(body.subarray(0, MB)));
    const probe = brotliCompressSync(JSON.stringify({ token: s.token, distinct_id: 'br' }));
    let refused: Awaited<typeof held.answer> | undefined;
    for (let attempt = 0; attempt < 10 && !refused; attempt++) {
      const headers = { 'content-type': 'application/json', 'content-encoding': 'br', 'content-length': probe.length };
      const { request, answer } = unfinished('/flags/?v=2', headers, (req) => req.end(probe));
      const res = await answer;
      request.destroy();
      if (res.status === 503) refused = res;
      else expect(res.status).toBe(200); // sent before the held body took the slot
    }
    expect(JSON.parse(refused!.body)).toMatchObject({ type: 'server_error', code: 'overloaded' });
    held.request.end(body.subarray(MB));
    expect((await held.answer).status).toBe(200);
    const after = await post('/flags/?v=2', brotliCompressSync(JSON.stringify({ token: s.token, distinct_id: 'br' })), { 'content-encoding': 'br' });
    expect(after.statusCode).toBe(200);
  });

  it('answers every one of many concurrent large bodies 200, or 503 with Retry-After, and stores what it acknowledged', async () => {
    const id = `many-${Date.now()}`;
    const body = gzipSync(batch(s.token, id, 20, 100_000)); // 2 MB inflated
    const answers = await Promise.all(Array.from({ length: 8 }, async () => await post('/batch/', body)));
    let acknowledged = 0;
    for (const res of answers) {
      if (res.statusCode === 503) expect(res.headers['retry-after']).toBe('1');
      else expect(res.statusCode).toBe(200);
      if (res.statusCode === 200) acknowledged += 20;
    }
    expect(await stored(id)).toBe(acknowledged);
  });

  it('still reads a bad body that is large: 400, not 503 or 500', async () => {
    const res = await post('/batch/', gzipSync(`{"api_key": "${s.token}", "batch": [${'1,'.repeat(MB)}`));
    expectError(res, 400, 'parse_error');
  });
});

// Issue 10, item 5: a large body is parsed in slices between turns of the event loop (src/http/sliced-json.ts).
describe('a large body is parsed in slices', () => {
  it('stores a large batch with __proto__ keys and escapes exactly as JSON.parse reads it', async () => {
    const id = `sliced-${Date.now()}`;
    const event = (i: number) =>
      `{"event":"e${i}","distinct_id":"${id}","properties":{"__proto__":{"p":${i}},"s":"\\u00e9\\ud83d\\ude00 \\"]},","pad":"${'x'.repeat(1000)}"}}`;
    const body = `{"api_key": "${s.token}", "batch": [${Array.from({ length: 2000 }, (_, i) => event(i)).join(',\n')}]}`; // 2 MB
    expect((await post('/batch/', Buffer.from(body))).statusCode).toBe(200);
    const rows = await s.services.db.kysely.selectFrom('events').select('properties').where('distinct_id', '=', id).where('event', '=', 'e1999').execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.properties)).toEqual(JSON.parse(body).batch[1999].properties);
    expect(JSON.parse(rows[0]!.properties)).toMatchObject({ s: 'é😀 "]},' });
    expect(Object.keys(JSON.parse(rows[0]!.properties))).toContain('__proto__');
    expect(await stored(id)).toBe(2000);
  });

  it('answers 400 parse_error to a large body that is invalid JSON only near its end', async () => {
    const body = batch(s.token, `invalid-${Date.now()}`, 300, 10_000).replace(/]}$/, ',]}'); // 3 MB, a trailing comma
    expectError(await post('/batch/', Buffer.from(body)), 400, 'parse_error');
  });
});
