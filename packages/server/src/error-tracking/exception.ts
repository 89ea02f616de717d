import { isObject } from '../json';

/** The event the SDKs send for an exception. */
export const EXCEPTION_EVENT = '$exception';

/** A stack frame as stored (PostHog's wire format, plus what source maps add). */
export interface Frame {
  filename?: string;
  abs_path?: string;
  function: string;
  lineno?: number;
  colno?: number;
  in_app: boolean;
  platform?: string;
  module?: string;
  context_line?: string;
  pre_context?: string[];
  post_context?: string[];
  chunk_id?: string;
  /** Set by source maps (`sourcemaps/resolve.ts`): filename, function, line and column are the original ones. */
  resolved?: boolean;
  mangled_name?: string;
  raw?: { filename?: string; lineno?: number; colno?: number };
  resolve_failure?: string;
}

export interface Stacktrace {
  type: 'raw' | 'resolved';
  frames: Frame[];
  /** Frames left out of the middle of a longer stack. */
  frames_omitted?: number;
}

/** One exception of `$exception_list`: the thrown error first, then its causes. */
export interface ExceptionEntry {
  type: string;
  value: string;
  mechanism?: Record<string, unknown>;
  module?: string;
  stacktrace?: Stacktrace;
}

/** Longest type kept, in characters. */
const MAX_TYPE = 200;
/** Longest message kept, in characters (then `…`): a message of a megabyte is cut, not refused. */
export const MAX_VALUE = 8 * 1024;
/** Longest string of a frame, in characters. */
const MAX_FRAME_STRING = 1024;
/** Lines of source context kept on either side of a frame's line. */
const MAX_CONTEXT_LINES = 10;
/** A longer stack keeps its first and last STACK_KEEP frames: where it started, and where it threw. */
const MAX_FRAMES = 100;
const STACK_KEEP = 50;
/** Exceptions kept of a list (the thrown one and its causes). */
const MAX_EXCEPTIONS = 10;

const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);
const text = (v: unknown, max = MAX_FRAME_STRING) => (typeof v === 'string' ? cut(v, max) : undefined);
const lines = (v: unknown[]) => v.slice(-MAX_CONTEXT_LINES).map((l) => (typeof l === 'string' ? cut(l, MAX_FRAME_STRING) : ''));

/**
 * Whether a frame is the app's own code when the SDK did not say: not a dependency (`node_modules`), not Node's
 * internals (`node:`), not code without a file (`<anonymous>`, `native`, Safari's masked extension URLs).
 */
export function inAppByDefault(filename: string | undefined): boolean {
  return hasOwnFile(filename) && !/node_modules|^node:|^webkit-masked-url:|^internal\//.test(filename!);
}

/** False for a frame of code without a file of its own (built-ins, eval): one browser lists them, another not. */
export const hasOwnFile = (filename: string | undefined) =>
  filename !== undefined && filename !== '' && filename !== '<anonymous>' && filename !== 'native' && filename !== '[native code]';

/** A frame of the client's, keeping only the known fields, of the right types, within their sizes; undefined when not an object. */
function sanitizeFrame(raw: unknown): Frame | undefined {
  if (!isObject(raw)) return undefined;
  const filename = text(raw.filename);
  const frame: Frame = { function: text(raw.function) || '?', in_app: typeof raw.in_app === 'boolean' ? raw.in_app : inAppByDefault(filename) };
  // Field by field (not a loop over a table): this runs for every frame of every exception ingested.
  if (filename !== undefined) frame.filename = filename;
  if (typeof raw.abs_path === 'string') frame.abs_path = cut(raw.abs_path, MAX_FRAME_STRING);
  if (typeof raw.lineno === 'number' && Number.isFinite(raw.lineno)) frame.lineno = raw.lineno;
  if (typeof raw.colno === 'number' && Number.isFinite(raw.colno)) frame.colno = raw.colno;
  if (typeof raw.platform === 'string') frame.platform = cut(raw.platform, 64);
  if (typeof raw.module === 'string') frame.module = cut(raw.module, MAX_FRAME_STRING);
  if (typeof raw.context_line === 'string') frame.context_line = cut(raw.context_line, MAX_FRAME_STRING);
  if (Array.isArray(raw.pre_context)) frame.pre_context = lines(raw.pre_context);
  if (Array.isArray(raw.post_context)) frame.post_context = lines(raw.post_context);
  if (typeof raw.chunk_id === 'string') frame.chunk_id = cut(raw.chunk_id, 128);
  return frame;
}

function sanitizeStacktrace(raw: unknown): Stacktrace | undefined {
  // posthog-js sends {type, frames}; some senders a bare list of frames.
  const list = Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.frames) ? raw.frames : undefined;
  if (!list) return undefined;
  const keep = list.length > MAX_FRAMES ? [...list.slice(0, STACK_KEEP), ...list.slice(-STACK_KEEP)] : list;
  const frames = keep.map(sanitizeFrame).filter((f): f is Frame => f !== undefined);
  const stacktrace: Stacktrace = { type: 'raw', frames };
  if (list.length > MAX_FRAMES) stacktrace.frames_omitted = list.length - 2 * STACK_KEEP;
  return stacktrace;
}

function sanitizeEntry(raw: Record<string, unknown>): ExceptionEntry {
  const value = typeof raw.value === 'string' ? raw.value : raw.value === undefined || raw.value === null ? '' : JSON.stringify(raw.value);
  const entry: ExceptionEntry = {
    type: text(raw.type, MAX_TYPE) || 'Error',
    value: value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE)}…` : value,
  };
  if (isObject(raw.mechanism)) entry.mechanism = raw.mechanism;
  const module = text(raw.module);
  if (module !== undefined) entry.module = module;
  const stacktrace = sanitizeStacktrace(raw.stacktrace);
  if (stacktrace) entry.stacktrace = stacktrace;
  return entry;
}

/**
 * The exception list of an `$exception` event's properties, always a list of well-formed entries: one that is not
 * a list (or is empty) is built from `$exception_type` / `$exception_message` (older SDKs), else is one `Error`, and
 * `invalid` says so. Whatever a client sends, an exception is stored and grouped; nothing here throws.
 */
export function sanitizeExceptionList(properties: Record<string, unknown>): { list: ExceptionEntry[]; invalid: boolean } {
  const raw = properties.$exception_list;
  const entries = Array.isArray(raw) ? raw.filter(isObject).slice(0, MAX_EXCEPTIONS) : [];
  if (entries.length) return { list: entries.map(sanitizeEntry), invalid: false };
  const legacy = sanitizeEntry({ type: properties.$exception_type, value: properties.$exception_message ?? '' });
  return { list: [legacy], invalid: true };
}
