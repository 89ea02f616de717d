import { isAbsolute, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { types } from 'node:util';

/** A stack frame in PostHog's `$exception` wire format (what posthog-node sends). */
export interface StackFrame {
  platform: 'node:javascript';
  /** Relative to the working directory for files under it; `node:…` internals and other locations as V8 names them. */
  filename: string;
  abs_path: string;
  function: string;
  lineno?: number;
  colno?: number;
  module?: string;
  /** False for `node_modules/`, Node's internals and locations that are not files (`native`, `<anonymous>`). */
  in_app: boolean;
  pre_context?: string[];
  context_line?: string;
  post_context?: string[];
}

export interface Mechanism {
  type: string;
  handled: boolean;
  synthetic: boolean;
  exception_id: number;
  source?: 'cause';
  parent_id?: number;
}

/** One entry of `$exception_list`. */
export interface ExceptionEntry {
  type: string;
  value: string;
  mechanism: Mechanism;
  stacktrace?: { type: 'raw'; frames: StackFrame[] };
}

/** How an exception was captured: `generic` (captureException), `onuncaughtexception`, `onunhandledrejection`. */
export interface CaptureMechanism {
  type: 'generic' | 'onuncaughtexception' | 'onunhandledrejection';
  handled: boolean;
}

/** Causes followed after the thrown error, as posthog-js and posthog-node do. */
const MAX_CAUSES = 4;
/** Frames kept per exception, those nearest the throw site (as the PostHog SDKs). */
const MAX_FRAMES = 50;
/** Longer stack lines are not frames; skipping them keeps parsing linear. */
const MAX_LINE = 1024;
const UNKNOWN_FUNCTION = '?';

/**
 * The `$exception_list` of a value thrown or rejected, in posthog-node's wire format: the error first, then its
 * `cause` chain (at most {@link MAX_CAUSES} deep, each `mechanism.type: 'chained'`). A value that is not an Error
 * gets `mechanism.synthetic: true` and, when given, the stack of `syntheticStack` (the capture call site).
 * Never throws: an error whose properties throw when read is described as far as it can be.
 */
export function exceptionList(error: unknown, mechanism: CaptureMechanism, syntheticStack?: string, cwd = process.cwd()): ExceptionEntry[] {
  const list: ExceptionEntry[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (list.length <= MAX_CAUSES && !seen.has(current)) {
    seen.add(current);
    const id = list.length;
    const { type, value, stack, synthetic, cause } = describe(current);
    const frames = parseStack(stack ?? (synthetic && id === 0 ? syntheticStack : undefined), cwd);
    list.push({
      type,
      value,
      mechanism:
        id === 0
          ? { type: mechanism.type, handled: mechanism.handled, synthetic, exception_id: 0 }
          : { type: 'chained', source: 'cause', handled: true, synthetic, exception_id: id, parent_id: id - 1 },
      ...(frames.length ? { stacktrace: { type: 'raw' as const, frames } } : {}),
    });
    if (cause === undefined || cause === null) break;
    current = cause;
  }
  return list;
}

interface Described {
  type: string;
  value: string;
  stack: string | undefined;
  synthetic: boolean;
  cause: unknown;
}

/** Type, message, stack and cause of anything thrown, read without letting a getter's exception escape. */
function describe(thrown: unknown): Described {
  const read = (key: string): unknown => {
    try {
      return (thrown as Record<string, unknown>)[key];
    } catch {
      return undefined;
    }
  };
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  if (types.isNativeError(thrown) || thrown instanceof Error) {
    let type = text(read('name'));
    if (!type) {
      try {
        type = (thrown as Error).constructor.name;
      } catch {
        // a Proxy or an odd prototype: keep the default
      }
    }
    return { type: type || 'Error', value: text(read('message')) ?? '', stack: text(read('stack')), synthetic: false, cause: read('cause') };
  }
  if (thrown !== null && typeof thrown === 'object') {
    const name = text(read('name'));
    const message = text(read('message'));
    let value = message;
    if (value === undefined) {
      let keys: string[] = [];
      try {
        keys = Object.keys(thrown).sort();
      } catch {
        // unreadable keys: none listed
      }
      value = `Object captured as exception with keys: ${keys.slice(0, 10).join(', ') || '[object has no keys]'}`;
    }
    return { type: name || 'Error', value, stack: text(read('stack')), synthetic: true, cause: read('cause') };
  }
  if (typeof thrown === 'string') return { type: 'Error', value: thrown, stack: undefined, synthetic: true, cause: undefined };
  let shown: string;
  try {
    shown = String(thrown);
  } catch {
    shown = typeof thrown;
  }
  return { type: 'Error', value: `Primitive value captured as exception: ${shown}`, stack: undefined, synthetic: true, cause: undefined };
}

/**
 * Frames of a V8 stack (`error.stack`), oldest first with the throw site last, at most {@link MAX_FRAMES} (those
 * nearest the throw site). Reads `at fn (file:line:col)`, `at file:line:col`, `async` and `new` frames, method
 * aliases (`[as x]`), `file://` URLs, `eval at` frames (placed at the eval call), `node:` internals and
 * `native` / `<anonymous>` / `index n` locations. Lines that are not frames (the message) are skipped.
 */
export function parseStack(stack: string | undefined, cwd = process.cwd()): StackFrame[] {
  if (!stack) return [];
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n')) {
    if (line.length > MAX_LINE) continue;
    const frame = parseLine(line, cwd);
    if (frame && frames.push(frame) >= MAX_FRAMES) break;
  }
  return frames.reverse();
}

const AT = /^\s*at (?:async (?!\())?(.*)$/;
/** `fn (location)`: the shortest name before ` (`, so `eval (eval at f (file:1:2), <anonymous>:1:3)` splits after `eval`. */
const CALL = /^(.+?) \((.*)\)$/;
const POSITION = /^(.*?):(\d+)(?::(\d+))?$/;
const EVAL_SITE = /\((\S.*?):(\d+):(\d+)\)/;

function parseLine(line: string, cwd: string): StackFrame | undefined {
  const at = AT.exec(line);
  if (!at) return undefined;
  let name: string | undefined;
  let location = at[1]!;
  const call = CALL.exec(location);
  if (call) [, name, location] = call as unknown as [string, string, string];
  let path = location;
  let lineno: number | undefined;
  let colno: number | undefined;
  const evalSite = location.startsWith('eval at ') ? EVAL_SITE.exec(location) : null;
  const position = evalSite ? [location, evalSite[1], evalSite[2], evalSite[3]] : POSITION.exec(location);
  if (position) {
    path = position[1]!;
    lineno = Number(position[2]) || undefined;
    colno = position[3] ? Number(position[3]) || undefined : undefined;
  } else if (/^index \d+$/.test(location)) {
    path = 'node:internal/promise'; // `Promise.all (index 0)`: V8 names the input promise, not a file
  }
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      // not a valid file URL: keep it as V8 wrote it
    }
  }
  return {
    platform: 'node:javascript',
    filename: isAbsolute(path) ? toPosix(relative(cwd, path)) : path,
    abs_path: path,
    function: functionName(name),
    ...(lineno !== undefined ? { lineno } : {}),
    ...(colno !== undefined ? { colno } : {}),
    module: moduleOf(path, cwd),
    in_app: isInApp(path),
  };
}

/** V8's function name, `?` when it has none (as the PostHog SDKs). */
function functionName(name: string | undefined): string {
  if (!name || name === '<anonymous>') return UNKNOWN_FUNCTION;
  return name.endsWith('.<anonymous>') ? `${name.slice(0, -'<anonymous>'.length)}${UNKNOWN_FUNCTION}` : name;
}

/**
 * Whether a frame is the app's own code: a file (absolute path, or a URL a bundler wrote), not under
 * `node_modules/`. Node's internals (`node:…`), `native` and `<anonymous>` locations are not.
 */
export function isInApp(path: string): boolean {
  if (/[\\/]node_modules[\\/]/.test(path)) return false;
  return isAbsolute(path) || (/^[a-z][a-z0-9+.-]+:\/\//i.test(path) && !path.startsWith('node:'));
}

/**
 * posthog-node's `module` of a frame: `package.sub:file` under `node_modules`, `dir.sub:file` under the working
 * directory, else the file's name (without `.js` / `.mjs` / `.cjs`). Node's internals keep their `node:` name.
 */
function moduleOf(path: string, cwd: string): string | undefined {
  if (!isAbsolute(path)) return path.startsWith('node:') ? path : undefined;
  const posixPath = toPosix(path);
  const { dir, name, ext } = posix.parse(posixPath);
  const file = ['.js', '.mjs', '.cjs'].includes(ext) ? name : `${name}${ext}`;
  const inModules = dir.lastIndexOf('/node_modules/');
  if (inModules >= 0 || dir.endsWith('/node_modules')) {
    const packageDir = inModules >= 0 ? dir.slice(inModules + '/node_modules/'.length) : '';
    return packageDir ? `${packageDir.replace(/\//g, '.')}:${file}` : file;
  }
  const base = toPosix(cwd);
  if (dir === base) return file;
  if (dir.startsWith(`${base}/`)) return `${dir.slice(base.length + 1).replace(/\//g, '.')}:${file}`;
  return file;
}

const toPosix = (p: string) => (sep === '\\' ? p.replace(/\\/g, '/') : p);
