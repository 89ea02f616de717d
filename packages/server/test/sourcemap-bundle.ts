import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';

/** A stack frame as posthog-js sends it (`$exception_list[].stacktrace.frames[]`). */
export interface WireFrame {
  filename: string;
  function: string;
  lineno: number;
  colno: number;
  in_app: boolean;
  platform: string;
}

/**
 * The app's source: a cart whose total throws on a negative price, through a helper from node_modules. With `rounding`,
 * a later release that also rounds the sum: one more function, and the minifier names every function otherwise.
 */
export const cartSource = (padding = 0, rounding = false) =>
  [
    ...Array.from({ length: padding }, (_, i) => `// release notes line ${i + 1}`),
    "import { each } from 'tiny-each';",
    '',
    ...(rounding ? ['function round(n: number): number {', '  return Math.round(n * 100) / 100;', '}', ''] : []),
    'interface Item {',
    '  price: number;',
    '}',
    '',
    'export function computeTotal(items: Item[]): number {',
    '  let total = 0;',
    '  each(items, (item: Item) => {',
    '    if (item.price < 0) {',
    "      throw new RangeError('negative price ' + item.price);",
    '    }',
    '    total += item.price;',
    '  });',
    '  return total;',
    '}',
    '',
    'export function checkout(cart: { items: Item[] }) {',
    `  const sum = ${rounding ? 'round(computeTotal(cart.items))' : 'computeTotal(cart.items)'};`,
    '  return { sum };',
    '}',
    '',
  ].join('\n');

/** The 1-based line of `text` in the cart's source (with `padding` lines before it). */
export const cartLine = (text: string, padding = 0) => cartSource(padding).split('\n').indexOf(text) + 1;

const mainSource = [
  "import { checkout } from './cart';",
  '',
  '(globalThis as any).run = function run() {',
  '  return checkout({ items: [{ price: 1 }, { price: -2 }] });',
  '};',
  '',
].join('\n');

const librarySource = ['export function each(items, fn) {', '  for (const item of items) fn(item);', '}', ''].join('\n');

export interface Bundle {
  /** The project folder (src/, node_modules/, dist/). */
  root: string;
  /** The build output: `dist/`, with `assets/app.js` and `assets/app.js.map`. */
  dist: string;
  js: string;
  map: string;
  remove(): void;
}

/** Builds the app with esbuild, minified, with an external source map (and its sources' content). */
export function buildBundle(padding = 0, rounding = false): Promise<Bundle> {
  return bundleOf({
    'src/cart.ts': cartSource(padding, rounding),
    'src/main.ts': mainSource,
    'node_modules/tiny-each/index.js': librarySource,
    'node_modules/tiny-each/package.json': JSON.stringify({ name: 'tiny-each', main: 'index.js' }),
  });
}

/**
 * A shop whose views are looked up by name and called through a variable (`const draw = views[name]; draw(model)`):
 * `renderCart` throws in the callback it maps the cart's items with.
 */
export const viewsSource = [
  'interface Item {',
  '  price: number;',
  '}',
  '',
  'export function renderCart(cart: { items: Item[] }): string {',
  '  const rows = cart.items.map((item) => {',
  "    if (item.price < 0) throw new RangeError('negative price ' + item.price);",
  '    return `<li>${item.price}</li>`;',
  '  });',
  "  return `<ul>${rows.join('')}</ul>`;",
  '}',
  '',
  'const views: Record<string, (model: any) => string> = { cart: renderCart };',
  '',
  'export function show(name: string, model: unknown): string {',
  '  const draw = views[name]!;',
  '  return draw(model);',
  '}',
  '',
  '(globalThis as any).run = function run() {',
  "  return show('cart', { items: [{ price: 1 }, { price: -2 }] });",
  '};',
  '',
].join('\n');

/** The shop of `viewsSource`, built as `buildBundle` builds the cart. */
export const buildViewsBundle = () => bundleOf({ 'src/main.ts': viewsSource });

/** Writes the files into a new project folder and builds its `src/main.ts`. */
async function bundleOf(files: Record<string, string>): Promise<Bundle> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sourcemap-bundle-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const dist = path.join(root, 'dist');
  await build({
    absWorkingDir: root,
    entryPoints: ['src/main.ts'],
    bundle: true,
    minify: true,
    format: 'iife',
    sourcemap: 'external',
    outfile: path.join(dist, 'assets', 'app.js'),
    logLevel: 'silent',
  });
  const read = (file: string) => fs.readFileSync(path.join(dist, 'assets', file), 'utf8');
  return { root, dist, js: read('app.js'), map: read('app.js.map'), remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/**
 * Runs the bundle as if loaded from `url` and returns the frames of the error it throws, oldest first (the throw
 * site last), as posthog-js reports them.
 */
export function framesOf(js: string, url: string): WireFrame[] {
  const context = vm.createContext({});
  vm.runInContext(js, context, { filename: url });
  let stack = '';
  try {
    vm.runInContext('run()', context, { filename: 'https://example.com/inline.js' });
  } catch (error) {
    stack = (error as Error).stack ?? '';
  }
  const frames: WireFrame[] = [];
  for (const line of stack.split('\n')) {
    const match = /^\s+at (?:(.+?) \()?(.+):(\d+):(\d+)\)?$/.exec(line);
    if (!match || match[2] !== url) continue;
    frames.push({ filename: url, function: match[1] ?? '?', lineno: Number(match[3]), colno: Number(match[4]), in_app: true, platform: 'web:javascript' });
  }
  if (!frames.length) throw new Error(`no frames of ${url} in ${stack}`);
  return frames.reverse();
}
