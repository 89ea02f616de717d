import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { ExceptionEntry, StackFrame } from './stack';

/** Lines of source before and after a frame's line. */
const CONTEXT_LINES = 5;
/** Files kept in memory (least recently used dropped first), read failures included. */
const MAX_CACHED_FILES = 25;
/** Larger files (bundles) get no context: reading them for every capture would cost too much. */
const MAX_FILE_BYTES = 1024 * 1024;
/** Lines are kept up to this length; a frame's own line is cut around its column. */
const MAX_LINE_CHARS = 200;
/** Frames past these positions are in generated code, where source lines help nobody. */
const MAX_LINENO = 10_000;
const MAX_COLNO = 1_000;

/** Path → the file's lines, or null when it could not be read. At most {@link MAX_CACHED_FILES} × {@link MAX_FILE_BYTES}. */
const files = new Map<string, string[] | null>();

/**
 * Adds `pre_context`, `context_line` and `post_context` (±{@link CONTEXT_LINES} lines) to the frames of files that
 * can be read: absolute paths of regular files up to {@link MAX_FILE_BYTES}, not minified, not Node's internals.
 * Files are read once and cached (bounded); a file that cannot be read is remembered and skipped. Never rejects.
 */
export async function addSourceContext(list: ExceptionEntry[]): Promise<void> {
  const frames = list.flatMap((e) => e.stacktrace?.frames ?? []).filter(wantsContext);
  const paths = [...new Set(frames.map((f) => f.abs_path))];
  const lines = new Map(await Promise.all(paths.map(async (path) => [path, await fileLines(path)] as const)));
  for (const frame of frames) {
    const source = lines.get(frame.abs_path);
    const at = frame.lineno! - 1;
    if (!source || at >= source.length) continue;
    frame.pre_context = source.slice(Math.max(0, at - CONTEXT_LINES), at).map((l) => cut(l, 0));
    frame.context_line = cut(source[at]!, frame.colno ?? 0);
    frame.post_context = source.slice(at + 1, at + 1 + CONTEXT_LINES).map((l) => cut(l, 0));
  }
}

function wantsContext(frame: StackFrame): boolean {
  const { abs_path: path, lineno, colno } = frame;
  return isAbsolute(path) && !/\.min\.[cm]?js$/.test(path) && lineno !== undefined && lineno <= MAX_LINENO && (colno === undefined || colno <= MAX_COLNO);
}

async function fileLines(path: string): Promise<string[] | null> {
  const cached = files.get(path);
  if (cached !== undefined) {
    files.delete(path); // re-inserted below: now the most recently used
    files.set(path, cached);
    return cached;
  }
  const lines = await readLines(path);
  files.set(path, lines);
  if (files.size > MAX_CACHED_FILES) files.delete(files.keys().next().value!);
  return lines;
}

/** The file's lines, or null. Opened non-blocking and checked through the same handle, so a FIFO never hangs a capture. */
async function readLines(path: string): Promise<string[] | null> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return null;
    const text = await handle.readFile('utf8');
    return text.split(/\r?\n/);
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** A line cut to {@link MAX_LINE_CHARS}, keeping the part around `colno` (1-based), with `…` where it was cut. */
function cut(line: string, colno: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const start = Math.max(0, Math.min(colno - MAX_LINE_CHARS / 2, line.length - MAX_LINE_CHARS));
  const end = start + MAX_LINE_CHARS;
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}
