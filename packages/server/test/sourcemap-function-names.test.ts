import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionScopes, readFunctionScopes } from '../src/error-tracking/sourcemaps/function-scopes';
import { startService, type TestService } from './helpers';
import { buildViewsBundle, framesOf, viewsSource, type Bundle } from './sourcemap-bundle';

// A frame is named by the function that encloses its position when the minified file was uploaded beside the map;
// without it, by the call that entered it. The shop calls `renderCart` through a variable: `draw(model)`.
const APP_URL = 'https://shop.example.com/assets/app.js';

let s: TestService;
let shop: Bundle;
beforeAll(async () => {
  s = await startService();
  shop = await buildViewsBundle();
});
afterAll(async () => {
  await s.close();
  shop.remove();
});

const base = (app: TestService) => `/api/projects/${app.projectId}/error_tracking/sourcemaps/`;
const upload = (body: Record<string, unknown>, app = s) => app.app.inject({ method: 'POST', url: base(app), headers: app.headers, payload: body });
const resolve = (release: string, app = s) => app.services.sourceMaps.resolver.resolveFrames(app.projectId, release, framesOf(shop.js, APP_URL));
const lineOf = (text: string) => viewsSource.split('\n').findIndex((line) => line.includes(text)) + 1;

describe('function names from the minified file', () => {
  it('names renderCart, called through a variable, by its own name; its anonymous callback as <anonymous>', async () => {
    const res = await upload({ release: 'names-1', url: '~/assets/app.js', map: shop.map, source: shop.js });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().size).toBe(Buffer.byteLength(shop.map) + Buffer.byteLength(shop.js));
    const frames = await resolve('names-1');
    expect(frames.map((f) => f.function)).toEqual(['globalThis.run', 'show', 'renderCart', '<anonymous>']);
    const [, show, renderCart, callback] = frames;
    expect(renderCart).toMatchObject({
      resolved: true,
      filename: 'src/main.ts',
      lineno: lineOf('cart.items.map('),
      mangled_name: expect.stringMatching(/^\w{1,2}$/),
    });
    expect(show).toMatchObject({ lineno: lineOf('return draw(model)') });
    expect(callback).toMatchObject({ lineno: lineOf('throw new RangeError'), mangled_name: '?' });
  });

  it('without the minified file keeps the name of the call that entered the frame (renderCart is `draw`)', async () => {
    expect((await upload({ release: 'names-2', url: '~/assets/app.js', map: shop.map })).statusCode).toBe(201);
    const frames = await resolve('names-2');
    // The outermost frame has no caller, and the map names no call at `items.map(`: their minified names stay.
    expect(frames.map((f) => f.function)).toEqual(['globalThis.run', 'show', 'draw', '?']);
  });

  it('reads the stored functions back in a service that has not seen the upload', async () => {
    expect((await upload({ release: 'names-3', url: '~/assets/app.js', map: shop.map, source: shop.js })).statusCode).toBe(201);
    const other = await startService({}, s.storage);
    try {
      const frames = await other.services.sourceMaps.resolver.resolveFrames(s.projectId, 'names-3', framesOf(shop.js, APP_URL));
      expect(frames.map((f) => f.function)).toEqual(['globalThis.run', 'show', 'renderCart', '<anonymous>']);
    } finally {
      await other.close({ keepData: true });
    }
  });

  it('refuses a minified file that is not JavaScript (400 invalid_source) or past SOURCEMAP_MAX_SOURCE_BYTES (413), and stores nothing', async () => {
    const bad = await upload({ release: 'names-bad', url: '~/assets/app.js', map: shop.map, source: 'function (' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      type: 'validation_error',
      code: 'invalid_source',
      detail: 'The minified file is not JavaScript the service reads: Unexpected token (1:9).',
      attr: 'source',
    });
    const limited = await startService({ sourcemapMaxSourceBytes: 1024 });
    try {
      const big = await upload({ release: 'names-bad', url: '~/assets/app.js', map: shop.map, source: `${shop.js}\n${' '.repeat(1024)}` }, limited);
      expect(big.statusCode).toBe(413);
      expect(big.json()).toMatchObject({ type: 'invalid_request', code: 'source_too_large', attr: 'source' });
      expect(big.json().detail).toMatch(/^The minified file is \d+ bytes, over the limit of 1024 \(SOURCEMAP_MAX_SOURCE_BYTES\)\.$/);
    } finally {
      await limited.close();
    }
    const listed = (await s.app.inject({ url: `${base(s)}?release=names-bad`, headers: s.headers })).json();
    expect(listed.count).toBe(0);
  });
});

describe('reading the functions of a minified file', () => {
  /** The name parts (as written) of the function enclosing the first place `marker` is written in `code`. */
  function enclosing(code: string, marker: string): string[] | undefined {
    const read = readFunctionScopes(code);
    if (!('packed' in read)) throw new Error(read.invalid);
    const before = code.slice(0, code.indexOf(marker)).split('\n');
    return new FunctionScopes(read.packed).enclosing(before.length - 1, before.at(-1)!.length)?.map((p) => p.text);
  }

  it('names a function by its own name, or the variable, property, assignment or class member it is written as', () => {
    const cases: [string, string, string[] | undefined][] = [
      ['function a(){ HERE() }', 'HERE', ['a']],
      ['var b = function(){ HERE() }', 'HERE', ['b']],
      ['let c = () => HERE()', 'HERE', ['c']],
      ['x.y.z = function(){ HERE() }', 'HERE', ['x', 'y', 'z']],
      ['this.handler = () => { HERE() }', 'HERE', ['handler']],
      ['o = { load() { HERE() }, "two-words": () => HERE2() }', 'HERE(', ['load']],
      ['o = { load() { HERE() }, "two-words": () => HERE2() }', 'HERE2', ['two-words']],
      ['class Cart { render() { HERE() } static #size = () => HERE2() }', 'HERE(', ['Cart', 'render']],
      ['class Cart { render() { HERE() } static #size = () => HERE2() }', 'HERE2', ['Cart', '#size']],
      ['var V = class { get total() { HERE() } }', 'HERE', ['V', 'total']],
      ['function f(g = () => HERE()) {}', 'HERE', ['g']],
      ['items.map(function (i) { HERE() })', 'HERE', []],
      ['items.map((i) => { HERE() })', 'HERE', []],
      ['o = { [key]() { HERE() } }', 'HERE', []],
      ['HERE(); function later() {}', 'HERE', undefined],
    ];
    for (const [code, marker, parts] of cases) expect(enclosing(code, marker), code).toEqual(parts);
  });

  it('finds the innermost function, over lines, and the one around a nested function once past it', () => {
    const code = ['function outer() {', '  const inner = () => {', '    IN();', '  };', '  AFTER();', '}', 'export const last = async () => { LAST() };'].join(
      '\n',
    );
    expect(enclosing(code, 'IN')).toEqual(['inner']);
    expect(enclosing(code, 'AFTER')).toEqual(['outer']);
    expect(enclosing(code, 'LAST')).toEqual(['last']);
  });

  it('reads scripts that are not modules, and says where a file does not parse', () => {
    expect(enclosing('with (o) { var f = function () { HERE() } }', 'HERE')).toEqual(['f']);
    expect(readFunctionScopes('var a = ;')).toEqual({ invalid: 'Unexpected token (1:8)', tooLarge: false });
  });
});
