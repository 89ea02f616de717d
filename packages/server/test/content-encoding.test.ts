import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// Every route that takes a body reads the content codings of HTTP alike (src/http/content-encoding.ts): gzip, deflate
// (zlib-wrapped, or raw as some clients send it), deflate-raw and br, a list of two in the order applied; the limit
// counts decoded bytes as they come out; corrupt data is 400 and any other coding 415, as JSON.

const LIMIT = 64 * 1024;
let s: TestService;
let unique = 0;
beforeAll(async () => {
  s = await startService({ bodyLimit: LIMIT, sdkBodyLimit: LIMIT, captureBatchBodyLimit: LIMIT, sourcemapMaxBytes: LIMIT });
});
afterAll(() => s.close());

const MAP = JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'AAAA' });

/** A route that takes a body: what it is sent, and how its success shows. */
interface RouteKind {
  path: () => string;
  headers: () => Record<string, string>;
  body: () => string;
  succeeded: (res: { statusCode: number; json(): unknown; body: string }) => Promise<void> | void;
}
const ROUTES: Record<string, RouteKind> = {
  'capture (/batch/)': {
    path: () => '/batch/',
    headers: () => ({ 'content-type': 'application/json' }),
    body: () => JSON.stringify({ api_key: s.token, batch: [{ event: 'encoded', distinct_id: `enc-${++unique}` }] }),
    succeeded: async (res) => {
      expect(res.statusCode, res.body).toBe(200);
      const row = await s.services.db.kysely.selectFrom('events').select('event').where('distinct_id', '=', `enc-${unique}`).executeTakeFirst();
      expect(row?.event).toBe('encoded');
    },
  },
  '/flags': {
    path: () => '/flags/?v=2',
    headers: () => ({ 'content-type': 'application/json' }),
    body: () => JSON.stringify({ token: s.token, distinct_id: 'enc' }),
    succeeded: (res) => {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toHaveProperty('flags');
    },
  },
  'a REST route (feature flags)': {
    path: () => `/api/projects/${s.projectId}/feature_flags/`,
    headers: () => ({ ...s.headers, 'content-type': 'application/json' }),
    body: () => JSON.stringify({ key: `encoded-${++unique}`, name: 'Encoded' }),
    succeeded: (res) => {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ key: `encoded-${unique}` });
    },
  },
  'the source map upload': {
    path: () => `/api/projects/${s.projectId}/error_tracking/sourcemaps/`,
    headers: () => ({ ...s.headers, 'content-type': 'application/json' }),
    body: () => JSON.stringify({ release: 'encoded', url: `~/assets/encoded-${++unique}.js`, map: MAP }),
    succeeded: (res) => {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ url: `~/assets/encoded-${unique}.js`, size: MAP.length });
    },
  },
};

const br = (b: Buffer | string) => zlib.brotliCompressSync(b);
/** Each way a body may be encoded: its Content-Encoding and how its bytes are made. */
const ENCODINGS: Array<[string, (b: Buffer | string) => Buffer]> = [
  ['gzip', (b) => zlib.gzipSync(b)],
  ['x-gzip', (b) => zlib.gzipSync(b)],
  ['deflate', (b) => zlib.deflateSync(b)],
  ['deflate', (b) => zlib.deflateRawSync(b)], // raw deflate under HTTP's name, as some clients send it
  ['deflate-raw', (b) => zlib.deflateRawSync(b)],
  ['br', br],
  ['BR', br],
  ['gzip, br', (b) => br(zlib.gzipSync(b))],
  ['identity, deflate', (b) => zlib.deflateSync(b)],
];
const send = (route: RouteKind, payload: Buffer | string, headers: Record<string, string>, streamed: boolean) =>
  s.app.inject({
    method: 'POST',
    url: route.path(),
    headers: { ...route.headers(), ...headers },
    // A stream has no declared length: the SDK routes read it as it arrives rather than whole.
    payload: streamed ? Readable.from([Buffer.from(payload)]) : payload,
  });
const expectError = (res: { statusCode: number; json(): unknown; body: string }, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ type: 'invalid_request', code, detail: expect.any(String), attr: null });
};

/** 1 GB of spaces in 809 bytes of brotli (quality 9, window 24: `createBrotliCompress` fed 64 × 16 MB of spaces). */
const BR_BOMB = fs.readFileSync(new URL('./fixtures/bomb-1gb.br', import.meta.url));
/** 8 MB of spaces, 8 KB compressed: far past the limit once inflated. */
const SPACES = Buffer.alloc(8 * 1024 * 1024, 32);
const BOMBS: Array<[string, Buffer]> = [
  ['gzip', zlib.gzipSync(SPACES)],
  ['deflate', zlib.deflateSync(SPACES)],
  ['deflate-raw', zlib.deflateRawSync(SPACES)],
  ['br', BR_BOMB],
];

describe.each(Object.entries(ROUTES))('%s', (_name, route) => {
  it.each([false, true])('reads every coding and a list of two (streamed: %s)', async (streamed) => {
    for (const [coding, encode] of ENCODINGS) {
      const res = await send(route, encode(route.body()), { 'content-encoding': coding }, streamed);
      await route.succeeded(res);
    }
  });

  it.each([false, true])('answers 413 JSON to a bomb of each coding, 1 GB of br among them (streamed: %s)', async (streamed) => {
    for (const [coding, body] of BOMBS) {
      expect(body.length).toBeLessThan(LIMIT);
      expectError(await send(route, body, { 'content-encoding': coding }, streamed), 413, 'request_too_large');
    }
  });

  it('answers 400 JSON parse_error to data that is not in its coding, or cut short', async () => {
    for (const [coding, encode] of ENCODINGS.filter(([name]) => BOMBS.some(([bomb]) => bomb === name))) {
      const cut = encode(route.body());
      for (const corrupt of [Buffer.from('definitely not compressed'), cut.subarray(0, cut.length - 6)]) {
        const res = await send(route, corrupt, { 'content-encoding': coding }, false);
        expectError(res, 400, 'parse_error');
        expect(res.json()).toMatchObject({ detail: `Body is not valid ${coding}.` });
      }
    }
  });

  it('answers 415 JSON unsupported_encoding to any other coding, or more than two', async () => {
    for (const coding of ['zstd', 'compress', 'gzip, gzip, gzip', 'gzip;q=1']) {
      const res = await send(route, zlib.gzipSync(route.body()), { 'content-encoding': coding }, false);
      expectError(res, 415, 'unsupported_encoding');
      expect(res.json()).toMatchObject({ detail: expect.stringContaining(coding) });
    }
  });
});

describe('SDK encodings within a coded body', () => {
  const event = (id: string) => JSON.stringify({ api_key: s.token, batch: [{ event: 'inner', distinct_id: id }] });
  const stored = async (id: string) =>
    (await s.services.db.kysely.selectFrom('events').select('event').where('distinct_id', '=', id).executeTakeFirst())?.event;

  it('reads a data= form and base64 text sent with a Content-Encoding, and gzip named by the query once', async () => {
    const b64 = (id: string) => Buffer.from(event(id)).toString('base64');
    const cases: Array<[string, string, Record<string, string>, Buffer]> = [
      ['form-br', '/batch/', { 'content-type': 'application/x-www-form-urlencoded' }, br(`data=${encodeURIComponent(b64('form-br'))}`)],
      ['base64-deflate', '/batch/?compression=base64', { 'content-type': 'text/plain' }, zlib.deflateSync(b64('base64-deflate'))],
      // posthog-js names gzip in the query; with the header too it is still gzipped once.
      ['gzip-twice-named', '/batch/?compression=gzip-js', { 'content-type': 'text/plain' }, zlib.gzipSync(event('gzip-twice-named'))],
      ['gzip-then-br', '/batch/?compression=gzip-js', { 'content-type': 'text/plain' }, br(zlib.gzipSync(event('gzip-then-br')))],
    ];
    for (const [id, url, headers, payload] of cases) {
      const coding = { 'form-br': 'br', 'base64-deflate': 'deflate', 'gzip-twice-named': 'gzip', 'gzip-then-br': 'br' }[id]!;
      const res = await s.app.inject({ method: 'POST', url, headers: { ...headers, 'content-encoding': coding }, payload });
      expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
      expect(await stored(id), id).toBe('inner');
    }
  });
});

describe('over a real connection', () => {
  let url: string;
  beforeAll(async () => {
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
  });

  it.each([
    ['a REST route', () => `/api/projects/${s.projectId}/feature_flags/`],
    ['/flags', () => '/flags/?v=2'],
  ])('answers %s 413 JSON as soon as a br body decodes past the limit, before the body has ended', async (_name, path) => {
    const compress = zlib.createBrotliCompress();
    const request = http.request(`${url}${path()}`, {
      method: 'POST',
      agent: false,
      headers: { ...s.headers, 'content-type': 'application/json', 'content-encoding': 'br', 'transfer-encoding': 'chunked' },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.on('error', reject);
    });
    compress.pipe(request);
    compress.write(`{"token": "${s.token}", "distinct_id": "a", "key": "`);
    compress.write(Buffer.alloc(4 * LIMIT, 'a'));
    compress.flush(); // the rest of the body never comes
    const { status, body } = await answer;
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ code: 'request_too_large' });
    request.destroy();
    compress.destroy();
  });
});
