import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StackFrame } from '../src/error-tracking/sourcemaps/resolve';
import { uuidv7 } from '../src/uuid';
import { dialect, startService, testStorage, type TestService } from './helpers';
import { buildBundle, cartLine, cartSource, framesOf, type Bundle, type WireFrame } from './sourcemap-bundle';

const APP_URL = 'https://shop.example.com/assets/app.js';

let s: TestService;
let v1: Bundle;
let v2: Bundle;
beforeAll(async () => {
  s = await startService();
  v1 = await buildBundle();
  // The same app two releases later: ten lines added at the top move every original line.
  v2 = await buildBundle(10);
});
afterAll(async () => {
  await s.close();
  v1.remove();
  v2.remove();
});

const base = (projectId = s.projectId) => `/api/projects/${projectId}/error_tracking/sourcemaps`;

function upload(body: Record<string, unknown>, opts: { headers?: Record<string, string>; projectId?: number; app?: TestService } = {}) {
  const app = opts.app ?? s;
  return app.app.inject({ method: 'POST', url: `${base(opts.projectId ?? app.projectId)}/`, headers: { ...app.headers, ...opts.headers }, payload: body });
}

async function uploaded(release: string, url: string, map: string, projectId = s.projectId, app = s) {
  const res = await upload({ release, url, map }, { projectId, app });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; release: string; url: string; created_at: string; size: number };
}

const list = async (query = '', projectId = s.projectId) => (await s.app.inject({ url: `${base(projectId)}/${query}`, headers: s.headers })).json();
const remove = (id: string, projectId = s.projectId, headers = s.headers) => s.app.inject({ method: 'DELETE', url: `${base(projectId)}/${id}/`, headers });
const resolve = (frames: StackFrame[], release?: string, projectId = s.projectId) => s.services.sourceMaps.resolver.resolveFrames(projectId, release, frames);

/** Sends the cart's RangeError with these frames, of a release, as one `$exception` through `/batch/`; its uuid. */
async function sendCartError(frames: WireFrame[], release: string, distinctId: string): Promise<string> {
  const uuid = uuidv7();
  const res = await s.app.inject({
    method: 'POST',
    url: '/batch/',
    payload: {
      api_key: s.token,
      batch: [
        {
          uuid,
          event: '$exception',
          distinct_id: distinctId,
          properties: {
            $release: release,
            $exception_list: [{ type: 'RangeError', value: 'negative price -2', mechanism: { handled: false }, stacktrace: { type: 'raw', frames } }],
          },
        },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return uuid;
}

/** The throw site (last frame) and its callers, by the minified function name each had. */
const byMangled = (frames: StackFrame[]) => Object.fromEntries(frames.map((f) => [f.mangled_name ?? f.function, f]));

describe('source map upload API', () => {
  it('stores a map (201) and lists it, newest first, by release', async () => {
    const first = await uploaded('list-1', '~/assets/list.js', v1.map);
    expect(first).toEqual({
      id: expect.any(String),
      release: 'list-1',
      url: '~/assets/list.js',
      created_at: expect.any(String),
      size: Buffer.byteLength(v1.map),
    });
    const second = await uploaded('list-2', '~/assets/list.js', v2.map);
    const all = await list();
    expect(all.results.map((m: { id: string }) => m.id).slice(0, 2)).toEqual([second.id, first.id]);
    expect(all.results[0]).not.toHaveProperty('map');
    const one = await list('?release=list-1');
    expect(one).toMatchObject({ count: 1, next: null, previous: null, results: [first] });
    for (const m of [first, second]) expect((await remove(m.id)).statusCode).toBe(204);
  });

  it('refuses what is not a source map v3 (400, attr map) and a bad url (400, attr url)', async () => {
    const valid = JSON.parse(v1.map) as Record<string, unknown>;
    const bad: [string, string][] = [
      ['not JSON', 'this is not json'],
      ['a JSON list', '[1, 2]'],
      ['JSON null', 'null'],
      ['version 2', JSON.stringify({ ...valid, version: 2 })],
      ['mappings a number', JSON.stringify({ ...valid, mappings: 42 })],
      ['sources missing', JSON.stringify({ ...valid, sources: undefined })],
      ['names not strings', JSON.stringify({ ...valid, names: [1] })],
      ['a mapping to a source that is not there', JSON.stringify({ version: 3, sources: [], names: [], mappings: 'AAAA' })],
      ['a mapping to a name that is not there', JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'AAAAA' })],
      ['sections that are not maps', JSON.stringify({ version: 3, sections: [{ offset: { line: 0, column: 0 }, map: 'x' }] })],
    ];
    // The field at fault is named in the detail.
    const mappings = (value: string) => JSON.stringify({ ...valid, mappings: value });
    const section = (offset: { line: number; column: number }, map: unknown) => ({ offset, map });
    const named: [string, string, string][] = [
      ['a character outside base64', mappings('AAAA,CA!A'), '"mappings" has "!" at 7'],
      ['a character outside ASCII', mappings('AAAA,Cé'), '"mappings" has "é" at 6'],
      ['a number left unfinished at the end', mappings('AAAA,CAAg'), '"mappings" ends a number unfinished at 9'],
      ['a number left unfinished before a comma', mappings('AAAg,CAAA'), '"mappings" ends a number unfinished at 4'],
      ['a number too large', mappings('AAAA,gggggggA'), '"mappings" has a number out of range'],
      ['a segment of 2 numbers', mappings('AA'), '"mappings" has a segment of 2 numbers'],
      ['a segment of 6 numbers', mappings('AAAAAA'), '"mappings" has a segment of more than 5 numbers'],
      ['a negative column', mappings('AAAA,DAAA'), '"mappings" has a column out of range'],
      ['a section without an offset', JSON.stringify({ version: 3, sections: [{ map: valid }] }), '"sections[0].offset" is not a line and a column'],
      [
        'sections out of order',
        JSON.stringify({ version: 3, sections: [section({ line: 2, column: 0 }, valid), section({ line: 1, column: 0 }, valid)] }),
        '"sections[1].offset" comes before the section above it',
      ],
      [
        "a section's bad mappings",
        JSON.stringify({ version: 3, sections: [section({ line: 0, column: 0 }, valid), section({ line: 5, column: 0 }, { ...valid, mappings: 'A*' })] }),
        '"sections[1].map.mappings" has "*" at 1',
      ],
      [
        'a section whose map has sections',
        JSON.stringify({ version: 3, sections: [section({ line: 0, column: 0 }, { version: 3, sections: [section({ line: 0, column: 0 }, valid)] })] }),
        '"sections[0].map" has sections: sections may not nest',
      ],
    ];
    for (const [what, map, detail] of [...bad.map(([what, map]) => [what, map, ''] as const), ...named]) {
      const res = await upload({ release: 'bad', url: '~/assets/bad.js', map });
      expect(res.statusCode, what).toBe(400);
      expect(res.json(), what).toMatchObject({ type: 'validation_error', code: 'invalid_source_map', attr: 'map' });
      expect(res.json().detail, what).toContain(detail);
    }
    const missing = await upload({ release: 'bad', url: '~/assets/bad.js' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ attr: 'map', code: 'required' });
    for (const url of ['assets/app.js', '~/', '/assets/app.js', '~assets/app.js']) {
      const res = await upload({ release: 'bad', url, map: v1.map });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ attr: 'url', code: 'invalid_url' });
    }
    expect((await list('?release=bad')).count).toBe(0);
  });

  it('refuses sections nested 20,000 deep with 400, reading them without recursion', async () => {
    let map = JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'AAAA' });
    for (let i = 0; i < 20_000; i++) map = `{"version":3,"sections":[{"offset":{"line":0,"column":0},"map":${map}}]}`;
    const res = await upload({ release: 'deep', url: '~/assets/deep.js', map });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid_source_map',
      attr: 'map',
      detail: 'Not a valid source map (v3): "sections[0].map" has sections: sections may not nest.',
    });
  });

  it('refuses a map past SOURCEMAP_MAX_SEGMENTS or SOURCEMAP_MAX_LINES (413), its lines counted in mappings and sources alike', async () => {
    const limited = await startService({ sourcemapMaxSegments: 100, sourcemapMaxLines: 50 });
    try {
      const map = (mappings: string, content = '') => JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings, sourcesContent: [content] });
      const tooLarge = async (text: string, detail: string) => {
        const res = await upload({ release: 'limits', url: '~/assets/limits.js', map: text }, { app: limited });
        expect(res.statusCode, res.body).toBe(413);
        expect(res.json()).toEqual({ type: 'invalid_request', code: 'source_map_too_large', detail, attr: 'map' });
      };
      await tooLarge(map(`AAAA${',CAAA'.repeat(100)}`), 'The source map is too large: "mappings" has 101 segments, over the limit of 100.');
      await tooLarge(map(`AAAA${';'.repeat(49)}`), 'The source map is too large: its generated file and sources have 51 lines, over the limit of 50.');
      await tooLarge(map('AAAA', '\n'.repeat(49)), 'The source map is too large: its generated file and sources have 51 lines, over the limit of 50.');
      const fits = await upload({ release: 'limits', url: '~/assets/limits.js', map: map(`AAAA${',CAAA'.repeat(99)};`, '\n'.repeat(47)) }, { app: limited });
      expect(fits.statusCode, fits.body).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('reads its body off the event loop as the REST API reads any: 400 for bad JSON, JSON too deep, __proto__', async () => {
    const post = (payload: string) =>
      s.app.inject({ method: 'POST', url: `${base()}/`, headers: { ...s.headers, 'content-type': 'application/json' }, payload });
    const broken = await post('{"release": "x", "url": ');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ type: 'invalid_request', code: 'parse_error', attr: null });
    expect(broken.json().detail).toMatch(/^JSON parse error - /);
    const deep = await post(JSON.stringify({ release: 'x', url: '~/a.js', map: 'x', source: JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) }));
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ type: 'validation_error', code: 'max_depth', attr: 'source' });
    const proto = await post(`{"release": "x", "url": "~/a.js", "map": ${JSON.stringify(v1.map)}, "__proto__": {"polluted": true}}`);
    expect(proto.statusCode, proto.body).toBe(400);
    expect(proto.json()).toMatchObject({ type: 'invalid_request', code: 'parse_error' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await list('?release=x')).count).toBe(0);
  });

  it('takes a gzipped body; refuses bad gzip (400) and encodings it does not read (415)', async () => {
    const body = JSON.stringify({ release: 'gz', url: '~/assets/gz.js', map: v1.map });
    const zipped = await s.app.inject({
      method: 'POST',
      url: `${base()}/`,
      headers: { ...s.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(body),
    });
    expect(zipped.statusCode, zipped.body).toBe(201);
    expect(zipped.json().size).toBe(Buffer.byteLength(v1.map));
    const broken = await s.app.inject({
      method: 'POST',
      url: `${base()}/`,
      headers: { ...s.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from('not gzip at all'),
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 'parse_error', detail: 'Body is not valid gzip.' });
    const zstd = await s.app.inject({
      method: 'POST',
      url: `${base()}/`,
      headers: { ...s.headers, 'content-type': 'application/json', 'content-encoding': 'zstd' },
      payload: body,
    });
    expect(zstd.statusCode).toBe(415);
    expect(zstd.json()).toMatchObject({ code: 'unsupported_encoding' });
    // A body Fastify never reads (not JSON) whose gzip is broken: answered, and nothing left to crash the process.
    const unread = await s.app.inject({
      method: 'POST',
      url: `${base()}/`,
      headers: { ...s.headers, 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      payload: Buffer.from('not gzip at all'),
    });
    expect(unread.statusCode).toBe(415);
    await new Promise((r) => setTimeout(r, 50));
    expect((await remove(zipped.json().id)).statusCode).toBe(204);
  });

  it('takes maps larger than the REST body limit, and refuses past SOURCEMAP_MAX_BYTES (413), also once inflated', { timeout: 60_000 }, async () => {
    const small = await startService({ bodyLimit: 4 * 1024, sourcemapMaxBytes: 64 * 1024 });
    try {
      const ok = await upload({ release: 'big', url: '~/assets/app.js', map: v1.map.padEnd(30 * 1024, ' ') }, { app: small });
      expect(ok.statusCode, ok.body).toBe(201);
      const big = { release: 'big', url: '~/assets/big.js', map: v1.map.padEnd(100 * 1024, ' ') };
      const plain = await upload(big, { app: small });
      expect(plain.statusCode).toBe(413);
      expect(plain.json()).toEqual({ type: 'invalid_request', code: 'request_too_large', detail: 'Request body is too large.', attr: null });
      // 100 KB of spaces gzip to well under the limit: the inflated size is what counts.
      const zipped = gzipSync(JSON.stringify(big));
      expect(zipped.length).toBeLessThan(64 * 1024);
      const inflated = await small.app.inject({
        method: 'POST',
        url: `${base(small.projectId)}/`,
        headers: { ...small.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: zipped,
      });
      expect(inflated.statusCode).toBe(413);
      // Other REST routes keep their own limit.
      const flag = await small.app.inject({
        method: 'POST',
        url: `/api/projects/${small.projectId}/feature_flags/`,
        headers: small.headers,
        payload: { key: 'x', name: 'x'.repeat(10 * 1024) },
      });
      expect(flag.statusCode).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('needs error_tracking:write to upload and delete, error_tracking:read to list (403 otherwise)', async () => {
    const map = await uploaded('scopes', '~/assets/scopes.js', v1.map);
    const reader = s.auth(await s.keyWith(['error_tracking:read']));
    const stranger = s.auth(await s.keyWith(['feature_flag:write']));
    const writer = s.auth(await s.keyWith(['error_tracking:write']));
    const denied = (res: { statusCode: number; json(): unknown }) => {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'permission_denied' });
    };
    denied(await upload({ release: 'scopes', url: '~/assets/other.js', map: v1.map }, { headers: reader }));
    denied(await remove(map.id, s.projectId, reader));
    denied(await s.app.inject({ url: `${base()}/`, headers: stranger }));
    expect((await s.app.inject({ url: `${base()}/`, headers: reader })).statusCode).toBe(200);
    expect((await s.app.inject({ url: `${base()}/` })).statusCode).toBe(401);
    expect((await upload({ release: 'scopes', url: '~/assets/other.js', map: v1.map }, { headers: writer })).statusCode).toBe(201);
    expect((await remove(map.id, s.projectId, writer)).statusCode).toBe(204);
  });

  it('keeps projects apart: another project neither lists, deletes (404) nor resolves with a map', async () => {
    const other = await s.services.projects.create('other');
    const map = await uploaded('apart', '~/assets/app.js', v1.map);
    const frames = framesOf(v1.js, APP_URL);
    expect((await list('', other.id)).count).toBe(0);
    expect((await remove(map.id, other.id)).statusCode).toBe(404);
    expect(await resolve(frames, 'apart', other.id)).toEqual(frames);
    // A key limited to the other project cannot reach this one's maps.
    const limited = s.auth(await s.keyWith(['error_tracking:write'], [other.id]));
    expect((await remove(map.id, s.projectId, limited)).statusCode).toBe(403);
    expect((await remove(map.id)).statusCode).toBe(204);
    expect((await remove(map.id)).statusCode).toBe(404);
    expect((await remove('not-a-uuid')).statusCode).toBe(404);
  });
});

describe('resolving frames', () => {
  it('maps minified frames to the original file, line, column, function and source context', async () => {
    const map = await uploaded('r1', '~/assets/app.js', v1.map);
    const raw = framesOf(v1.js, APP_URL);
    const frames = await resolve(raw, 'r1');
    expect(frames).toHaveLength(raw.length);
    const [run, checkout, computeTotal, each, callback] = frames as (WireFrame & StackFrame)[];
    // The throw site: the callback inside computeTotal, called by `each` as `fn`.
    expect(callback).toMatchObject({
      resolved: true,
      filename: 'src/cart.ts',
      lineno: cartLine("      throw new RangeError('negative price ' + item.price);"),
      function: 'fn',
      mangled_name: '?',
      in_app: true,
      platform: 'web:javascript',
      raw: { filename: APP_URL, lineno: raw[4]!.lineno, colno: raw[4]!.colno },
      context_line: "      throw new RangeError('negative price ' + item.price);",
      pre_context: ['  let total = 0;', '  each(items, (item: Item) => {', '    if (item.price < 0) {'],
      post_context: ['    }', '    total += item.price;', '  });'],
    });
    expect(callback!.colno).toBe(cartSource().split('\n')[callback!.lineno - 1]!.indexOf('new RangeError') + 1);
    expect(each).toMatchObject({ resolved: true, filename: 'node_modules/tiny-each/index.js', lineno: 2, function: 'each', in_app: false });
    expect(computeTotal).toMatchObject({ filename: 'src/cart.ts', lineno: cartLine('  each(items, (item: Item) => {'), function: 'computeTotal' });
    expect(checkout).toMatchObject({ filename: 'src/cart.ts', lineno: cartLine('  const sum = computeTotal(cart.items);'), function: 'checkout' });
    expect(checkout!.mangled_name).toMatch(/^\w{1,2}$/);
    // The oldest frame has no caller to name it: its own (unminified) name stays.
    expect(run).toMatchObject({
      filename: 'src/main.ts',
      lineno: 4,
      function: 'globalThis.run',
      context_line: '  return checkout({ items: [{ price: 1 }, { price: -2 }] });',
    });
    expect((await remove(map.id)).statusCode).toBe(204);
  });

  it('matches `~/path` on any origin and with a query string; an absolute URL only on its origin', async () => {
    const tilde = await uploaded('origins', '~/assets/app.js', v1.map);
    for (const url of ['https://a.example/assets/app.js', 'http://b.example:8080/assets/app.js?v=3#x']) {
      const frames = await resolve(framesOf(v1.js, url), 'origins');
      expect(
        frames.every((f) => f.resolved),
        url,
      ).toBe(true);
    }
    const elsewhere = framesOf(v1.js, 'https://a.example/static/app.js');
    expect(await resolve(elsewhere, 'origins')).toEqual(elsewhere);
    expect((await remove(tilde.id)).statusCode).toBe(204);

    const exact = await uploaded('origins', 'https://cdn.example.com/assets/app.js', v1.map);
    expect((await resolve(framesOf(v1.js, 'https://cdn.example.com/assets/app.js'), 'origins')).every((f) => f.resolved)).toBe(true);
    const otherOrigin = framesOf(v1.js, 'https://a.example/assets/app.js');
    expect(await resolve(otherOrigin, 'origins')).toEqual(otherOrigin);
    expect((await remove(exact.id)).statusCode).toBe(204);
  });

  it("prefers the event's release, else the newest upload", async () => {
    const url = 'https://shop.example.com/assets/release.js';
    const a = await uploaded('1.0.0', '~/assets/release.js', v1.map);
    const b = await uploaded('2.0.0', '~/assets/release.js', v2.map);
    const throwLine = "      throw new RangeError('negative price ' + item.price);";
    const thrown = async (bundle: Bundle, release?: string) => (await resolve(framesOf(bundle.js, url), release)).at(-1)!.lineno;
    expect(await thrown(v1, '1.0.0')).toBe(cartLine(throwLine));
    expect(await thrown(v2, '2.0.0')).toBe(cartLine(throwLine, 10));
    // No release, or one without maps: the newest upload (2.0.0).
    expect(await thrown(v2)).toBe(cartLine(throwLine, 10));
    expect(await thrown(v2, '3.0.0')).toBe(cartLine(throwLine, 10));
    for (const m of [a, b]) expect((await remove(m.id)).statusCode).toBe(204);
  });

  it('replaces the map of the same release and URL on re-upload, and forgets a deleted one at once', async () => {
    const url = 'https://shop.example.com/assets/replace.js';
    const throwLine = "      throw new RangeError('negative price ' + item.price);";
    const first = await uploaded('re', '~/assets/replace.js', v1.map);
    const frames = framesOf(v2.js, url);
    expect((await resolve(frames, 're')).at(-1)!.lineno).toBe(cartLine(throwLine));
    const second = await uploaded('re', '~/assets/replace.js', v2.map);
    expect(second.id).not.toBe(first.id);
    expect((await list('?release=re')).results).toEqual([second]);
    expect((await resolve(frames, 're')).at(-1)!.lineno).toBe(cartLine(throwLine, 10));
    expect((await remove(second.id)).statusCode).toBe(204);
    expect(await resolve(frames, 're')).toEqual(frames);
  });

  it('leaves frames without a map, or outside the map, as they came', async () => {
    const map = await uploaded('outside', '~/assets/app.js', v1.map);
    const frames: StackFrame[] = [
      { filename: APP_URL, function: 'a', lineno: 40, colno: 1, in_app: true },
      { filename: 'https://other.example.com/vendor.js', function: 'b', lineno: 1, colno: 10, in_app: true },
      { filename: 'src/server/index.js', function: 'c', lineno: 1, colno: 1, in_app: true },
      { filename: APP_URL, function: 'd', in_app: true },
      { function: 'e', lineno: 1, colno: 1, in_app: true },
    ];
    expect(await resolve(frames, 'outside')).toEqual(frames);
    expect((await remove(map.id)).statusCode).toBe(204);
  });

  it('never throws on a corrupt stored map: its frames stay, with resolve_failure', async () => {
    const frames = framesOf(v1.js, 'https://shop.example.com/assets/corrupt.js');
    // A row no upload would accept (as an older version might have stored).
    await s.services.db.kysely
      .insertInto('source_maps')
      .values({
        id: uuidv7(),
        project_id: s.projectId,
        release: 'corrupt',
        url: '~/assets/corrupt.js',
        map: '{"version": 3, "mappings": "AAAA", "sources": []',
        source: null,
        size: 10,
        created_at: new Date().toISOString(),
      })
      .execute();
    const resolved = await resolve(frames, 'corrupt');
    expect(resolved).toEqual(frames.map((f) => ({ ...f, resolve_failure: 'the source map is not valid' })));
    // Again, from the cache.
    expect(await resolve(frames, 'corrupt')).toEqual(resolved);
  });

  it(
    'decodes maps off the event loop: a timer keeps its time while a 12 MB map larger than the cache is uploaded and resolved',
    { timeout: 180_000 },
    async () => {
      const big = await startService({ sourcemapCacheBytes: 1024 * 1024, sourcemapMaxSegments: 8_000_000, sourcemapMaxLines: 8_000_000 });
      // Fastify compiles every route's schemas once ready (a listening service is): not part of what is measured.
      await big.app.ready();
      try {
        const { text, frames, context } = largeMap();
        expect(text.length).toBeGreaterThan(12 * 1024 * 1024);
        const body = JSON.stringify({ release: 'big', url: '~/assets/big.js', map: text });
        const uploadLag = await longestLag(async () => {
          const res = await big.app.inject({
            method: 'POST',
            url: `${base(big.projectId)}/`,
            headers: { ...big.headers, 'content-type': 'application/json' },
            payload: body,
          });
          expect(res.statusCode, res.body.slice(0, 500)).toBe(201);
        });
        expect(uploadLag).toBeLessThan(1000);
        // Not kept (1 MB of cache): each resolution decodes the map again, in the worker.
        for (let round = 0; round < 2; round++) {
          let resolved: StackFrame[] = [];
          const lag = await longestLag(async () => {
            resolved = await big.services.sourceMaps.resolver.resolveFrames(big.projectId, 'big', frames);
          });
          expect(resolved[1]).toMatchObject({ resolved: true, filename: 'src/big.ts', lineno: 1001, colno: 1, function: 'bigName', context_line: context });
          expect(lag).toBeLessThan(1000);
        }
      } finally {
        await big.close();
      }
    },
  );

  it("bounds what one project's cache misses load a second: past SOURCEMAP_LOAD_BYTES_PER_SECOND frames stay as they came, with resolve_failure", async () => {
    // Maps of some 300 KB that decode to 1.2 MB, over the cache: every resolution loads them again.
    const budget = await startService({ sourcemapCacheBytes: 1024 * 1024, sourcemapLoadBytesPerSecond: 1024 });
    try {
      const other = await budget.services.projects.create('other');
      const { text, frames } = largeMap({ mapped: 60_000, unmapped: 0, contentLines: 1000 });
      for (const projectId of [budget.projectId, other.id])
        await budget.services.sourceMaps.upload(projectId, { release: 'budget', url: '~/assets/big.js', map: text });
      const resolve = (projectId: number) => budget.services.sourceMaps.resolver.resolveFrames(projectId, 'budget', frames);
      // The first load may start (the bucket holds 4 KB) and leaves it some 300 KB below empty: minutes to refill.
      expect((await resolve(budget.projectId))[1]).toMatchObject({ resolved: true, filename: 'src/big.ts', function: 'bigName' });
      const failure = "the project's source maps were being loaded faster than SOURCEMAP_LOAD_BYTES_PER_SECOND allows";
      expect(await resolve(budget.projectId)).toEqual(frames.map((frame) => ({ ...frame, resolve_failure: failure })));
      // Another project has a budget of its own.
      expect((await resolve(other.id))[1]).toMatchObject({ resolved: true, filename: 'src/big.ts' });
    } finally {
      await budget.close();
    }
  });
});

/**
 * Calls `work` with a 10 ms timer running meanwhile; the longest the timer fired late, in ms: how long the event loop
 * was held at once.
 */
async function longestLag(work: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 10);
    last = now;
  }, 10);
  try {
    await work();
    return longest;
  } finally {
    clearInterval(timer);
  }
}

/**
 * A map of one generated line whose column k maps to line k of `src/big.ts` for its first `mapped` columns, named
 * `bigName` at the first, then `unmapped` segments of one column each (2 bytes a segment: 6 million make 12 MB), with
 * `contentLines` lines of source content. `frames`: a call at column 1 (named there) and the frame it entered, at column
 * 1001 (line 1001 of the source, `context` its text).
 */
function largeMap({ mapped = 2000, unmapped = 6_000_000, contentLines = 100_000 } = {}) {
  const lines = Array.from({ length: contentLines }, (_, i) => `  const line${i} = ${i};`);
  const text = JSON.stringify({
    version: 3,
    sources: ['../src/big.ts'],
    names: ['bigName'],
    mappings: `AAAAA${',CACA'.repeat(mapped - 1)}${',C'.repeat(unmapped)}`,
    sourcesContent: [lines.join('\n')],
  });
  const filename = 'https://shop.example.com/assets/big.js';
  const frames: StackFrame[] = [
    { filename, function: 'b', lineno: 1, colno: 1, in_app: true },
    { filename, function: 'a', lineno: 1, colno: 1001, in_app: true },
  ];
  return { text, frames, context: lines[1000] };
}

// Other instances hear of uploads and deletes through PostgreSQL LISTEN/NOTIFY (else their lookups expire in a minute).
if (dialect === 'postgres') {
  describe('two service instances on one PostgreSQL database', () => {
    it('an upload on one is used by the other at once, though it had looked the file up before', { timeout: 60_000 }, async () => {
      const storage = testStorage();
      const a = await startService({}, storage);
      const b = await startService({}, storage);
      try {
        const frames: StackFrame[] = framesOf(v1.js, APP_URL);
        const resolvedByB = async () => (await b.services.sourceMaps.resolver.resolveFrames(b.projectId, 'shared', frames)).every((f) => f.resolved);
        expect(await resolvedByB()).toBe(false); // b keeps "no map for this file" now
        await uploaded('shared', '~/assets/app.js', v1.map, a.projectId, a);
        // Well within the lookups' minute: the notification did it.
        const deadline = Date.now() + 10_000;
        while (!(await resolvedByB()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        expect(await resolvedByB()).toBe(true);
      } finally {
        await b.close({ keepData: true });
        await a.close();
      }
    });
  });
}

describe('captured exceptions', () => {
  it('puts one error from two minified builds, whose functions the minifier named otherwise, into one issue through their maps', async () => {
    const next = await buildBundle(10, true);
    try {
      const builds = [
        { release: 'cart-1', url: 'https://shop.example.com/assets/app-1a2b3c4d.js', bundle: v1 },
        { release: 'cart-2', url: 'https://shop.example.com/assets/app-5e6f7a8b.js', bundle: next },
      ];
      const uuids: string[] = [];
      for (const { release, url, bundle } of builds) {
        await uploaded(release, `~${new URL(url).pathname}`, bundle.map);
        // Entered from an event handler: no frame calls the outermost one, whose original name the map cannot give.
        const frames = framesOf(bundle.js, url).slice(1);
        uuids.push(await sendCartError(frames, release, `cart-${release}`));
      }
      const minified = builds.map(({ bundle, url }) => framesOf(bundle.js, url).map((f) => f.function));
      expect(minified[0]).not.toEqual(minified[1]);
      const issues = await s.services.db.kysely.selectFrom('error_tracking_occurrences').select('issue_id').where('event_uuid', 'in', uuids).execute();
      expect(issues).toHaveLength(2);
      expect(issues[0]!.issue_id).toBe(issues[1]!.issue_id);
    } finally {
      next.remove();
    }
  });

  it('stores an $exception sent to /batch/ with its frames resolved', async () => {
    const map = await uploaded('e2e-1', '~/assets/app.js', v1.map);
    const frames = framesOf(v1.js, APP_URL);
    const distinctId = `e2e-${uuidv7()}`;
    await sendCartError(frames, 'e2e-1', distinctId);
    const events = (await s.app.inject({ url: `/api/projects/${s.projectId}/events/?event=$exception&distinct_id=${distinctId}`, headers: s.headers })).json();
    expect(events.results).toHaveLength(1);
    const [exception] = events.results[0].properties.$exception_list;
    expect(exception.stacktrace.type).toBe('resolved');
    const stored = byMangled(exception.stacktrace.frames);
    expect(stored['?']).toMatchObject({
      resolved: true,
      filename: 'src/cart.ts',
      function: 'fn',
      context_line: "      throw new RangeError('negative price ' + item.price);",
    });
    expect(exception.stacktrace.frames.at(-2)).toMatchObject({ filename: 'node_modules/tiny-each/index.js', function: 'each', in_app: false });
    expect(exception.stacktrace.frames.map((f: StackFrame) => f.function)).toEqual(['globalThis.run', 'checkout', 'computeTotal', 'each', 'fn']);
    expect((await remove(map.id)).statusCode).toBe(204);
  });
});
