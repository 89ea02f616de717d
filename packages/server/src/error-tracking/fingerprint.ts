import { createHash } from 'node:crypto';
import { hasOwnFile, type ExceptionEntry, type Frame } from './exception';

/** Longest client fingerprint kept as sent; a longer one is replaced by its sha256 (hex, 64 characters). */
const MAX_CLIENT_FINGERPRINT = 64;
/** In-app frames, from the throw site down, that identify where an exception comes from. */
const FRAMES_IN_FINGERPRINT = 5;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The fingerprint that groups exceptions into issues.
 *
 * 1. The client's `$exception_fingerprint` wins: a string of at most 64 characters as sent, a longer one (or another
 *    JSON value) as the sha256 hex of it.
 * 2. Else sha256 hex of, for each exception of `$exception_list` (the thrown one, then its causes):
 *    - its `type`;
 *    - its top 5 in-app frames, throw site first (no in-app frame: the throw site alone), each as
 *      `source + function`, never line or column (every build moves them):
 *      - source: a source-mapped frame's original path; else the file's path without origin, query or fragment, with
 *        build hashes taken out (`/assets/index-3f9a1c.js` → `/assets/index.js`, `main.a1b2c3d4.chunk.js` →
 *        `main.chunk.js`, Vite's `index-DiwrgTda.js` → `index.js`, a hash-named folder → `<hash>`);
 *      - function: the name alone, as browsers decorate it differently: Chrome's `HTMLButtonElement.onClick`,
 *        `Object.computeTotal`, `async load`, `new Cart` and Firefox's `onClick`, `outer/inner` all become the last
 *        name (`onClick`, `computeTotal`, `load`, `Cart`, `inner`); anonymous functions (`?`, `<anonymous>`,
 *        Firefox's `outer/<`) are `?`, and so is a source-mapped frame's minified name the map did not replace.
 *    - its message, normalized: URLs, emails, UUIDs, hex of 8 or more, and numbers become `<url>`, `<email>`,
 *      `<uuid>`, `<hex>`, `<num>` (`Order 1234 failed` groups with `Order 987 failed`); except the message of the
 *      engine's own errors (`TypeError`, `ReferenceError`, `RangeError`, `SyntaxError`, `URIError`, `EvalError`,
 *      `InternalError`) when they have a stack: browsers word the same one differently (Chrome's "Cannot read
 *      properties of undefined (reading 'price')" is Firefox's "x is undefined"), and the stack says where it is.
 * 3. The component stack that `ServiceErrorBoundary` (and posthog-js's boundary) adds as an entry named
 *    `React ErrorBoundary …` is left out: its frames are React's names for components, which minifiers rename.
 *
 * A frame is in-app unless the SDK said otherwise (by default: not `node_modules`, `node:` internals: see
 * `inAppByDefault`); a frame without a file of its own (`<anonymous>`, native code) never counts, whatever the SDK
 * said. Without source maps a minified build's renamed functions make new issues; with them, the original names and
 * files keep one issue across builds.
 */
export function fingerprintOf(clientFingerprint: unknown, list: readonly ExceptionEntry[]): { fingerprint: string; proposed: string } {
  const own = list.filter((e) => !e.type.startsWith(COMPONENT_STACK));
  const proposed = sha256(JSON.stringify((own.length ? own : list).map(exceptionParts)));
  return { fingerprint: clientFingerprintOf(clientFingerprint) ?? proposed, proposed };
}

/** The client's override as stored, or undefined when there is none. */
export function clientFingerprintOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s.length <= MAX_CLIENT_FINGERPRINT ? s : sha256(s);
}

/** The type of the `$exception_list` entry a React error boundary adds for the component stack. */
const COMPONENT_STACK = 'React ErrorBoundary ';
/** Errors the JavaScript engine throws, each browser in its own words. */
const ENGINE_ERRORS = new Set(['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError', 'URIError', 'EvalError', 'InternalError']);

function exceptionParts(exception: ExceptionEntry): string[] {
  const frames = exception.stacktrace?.frames ?? [];
  if (!frames.length) return [exception.type, normalizeMessage(exception.value)];
  const message = ENGINE_ERRORS.has(exception.type) ? [] : [normalizeMessage(exception.value)];
  return [exception.type, ...message, ...fingerprintFrames(frames).map((f) => `${sourceOf(f)}|${functionOf(f)}`)];
}

/** The frames a fingerprint uses: the top in-app ones, throw site first, else the throw site. */
export function fingerprintFrames(frames: readonly Frame[]): Frame[] {
  const picked: Frame[] = [];
  for (let i = frames.length - 1; i >= 0 && picked.length < FRAMES_IN_FINGERPRINT; i--) {
    const frame = frames[i]!;
    // Built-ins (`Array.map (<anonymous>)`) count in no case: Chrome lists them, Firefox does not.
    if (frame.in_app && hasOwnFile(frame.filename ?? frame.abs_path)) picked.push(frame);
  }
  return picked.length ? picked : frames.slice(-1);
}

/** A function's own name without the decorations one browser adds and another does not; `?` when anonymous. */
export function functionName(name: string): string {
  let n = name
    .trim()
    .replace(/^(async|new|get|set)\s+/, '')
    .replace(/\s*\[as [^\]]*\]$/, '');
  // Firefox: `outer/<` is an anonymous function inside `outer`; `outer/inner<` and `outer</inner` name `inner`.
  if (/(^|\/)<*$/.test(n) || n === '<anonymous>' || n === '') return '?';
  n = n.replace(/<+$/, '');
  n = n.slice(Math.max(n.lastIndexOf('/'), n.lastIndexOf('.')) + 1);
  if (n === '<anonymous>' || n === 'anonymous') return '?';
  return n.replace(/^<+/, '') || '?';
}

/**
 * Looks like a build's hash, not a name: hex with a digit (6+ characters), or both cases and a digit (16+: Next.js
 * build ids). A folder named `Checkout` or `service-node-v2-api` is a name.
 */
const isHash = (part: string) => /^(?=.*\d)[0-9a-f]{6,}$/i.test(part) || /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9_-]{16,}$/.test(part);
/** In a file name, after a dash or a dot, also Rollup's and Vite's mixed-case 8 (`index-DiwrgTda.js`). */
const isFileHash = (part: string) => isHash(part) || /^(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9_-]{8}$/.test(part);

/** A file name without its build hash: `index-3f9a1c.js` → `index.js`, `main.a1b2c3d4.chunk.js` → `main.chunk.js`. */
export function withoutBuildHash(name: string): string {
  const parts = name.split('.');
  const kept = parts.filter((part, i) => i === 0 || !isFileHash(part));
  const dash = kept[0]!.lastIndexOf('-');
  if (dash > 0 && isFileHash(kept[0]!.slice(dash + 1))) kept[0] = kept[0]!.slice(0, dash);
  return kept.join('.');
}

/** The path of a file as a fingerprint sees it: no origin, query, fragment, `:line:col`, or build hashes. */
export function sourcePath(filename: string): string {
  let path = filename.replace(/[?#].*$/, '').replace(/(:\d+){1,2}$/, '');
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (origin) path = path.slice(origin[0].length);
  const segments = path.split('/');
  const last = segments.length - 1;
  return segments.map((s, i) => (i === last ? withoutBuildHash(s) : isHash(s) ? '<hash>' : s)).join('/');
}

/**
 * `fn` remembering its answers: file and function names repeat across a project's exceptions, and each is worked
 * out by several regular expressions. Forgets everything past MEMO_SIZE names (cheaper than an LRU, good enough).
 */
function memo(fn: (s: string) => string): (s: string) => string {
  const known = new Map<string, string>();
  return (s) => {
    let answer = known.get(s);
    if (answer === undefined) {
      if (known.size >= MEMO_SIZE) known.clear();
      known.set(s, (answer = fn(s)));
    }
    return answer;
  };
}
const MEMO_SIZE = 10_000;
const sourcePathOf = memo(sourcePath);
const functionNameOf = memo(functionName);

/**
 * A frame's function as a fingerprint sees it. A source-mapped frame whose original name the map could not give (a
 * map uploaded without its minified file names a frame by the call in the frame before it, and the outermost has none)
 * still has the minifier's name, which the next build changes: it counts as `?`.
 */
function functionOf(frame: Frame): string {
  return frame.resolved && frame.function === frame.mangled_name ? '?' : functionNameOf(frame.function);
}

function sourceOf(frame: Frame): string {
  const filename = frame.filename ?? frame.abs_path ?? frame.module ?? '';
  return frame.resolved ? filename.replace(/[?#].*$/, '') : sourcePathOf(filename);
}

/** A message with what varies between occurrences of one error replaced by placeholders. */
export function normalizeMessage(message: string): string {
  return message
    .slice(0, 1024)
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`)]+/gi, '<url>')
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '<email>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
    .replace(/\b(0x)?(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, '<hex>')
    .replace(/\d+(\.\d+)?/g, '<num>');
}
