import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { OverloadedError } from '../../errors';
import type { Refusal, SourceMapLimits } from './decode';
import { FunctionScopes } from './function-scopes';
import { PackedMap } from './packed-map';
import type { parseBody } from './worker';

/**
 * Source maps are decoded, their upload bodies parsed and their minified files' functions read, in a worker thread
 * (worker.ts), never on the event loop: a 20 MB map takes a core for a good part of a second, a 4 MB minified file some
 * seconds. One thread a process (the other cores serve requests and the
 * database), started on first use and ended once idle for IDLE_MS; it keeps nothing between tasks. At most MAX_QUEUE
 * tasks wait: past them callers hear that the service is busy. The thread runs at a lower priority (NICE), so that on a
 * busy machine the event loop gets a core before it does. Its heap is bounded: what a map of SOURCEMAP_MAX_BYTES parses
 * to, several times over, and the syntax tree of a minified file of SOURCEMAP_MAX_SOURCE_BYTES (some 30 bytes a byte).
 */
const IDLE_MS = 30_000;
const MAX_QUEUE = 8;
const HEAP_MB = 384;
const NICE = 10;

/**
 * The worker's module. The build has it beside the bundle (tsup.config.ts). From the sources (`npm start`, the tests)
 * esbuild bundles worker.ts on first use into node_modules/.cache, named by its content: a worker thread does not get
 * the parent's TypeScript loader, and one registered from a worker (tsx) serves the whole process on Node 20, holding up
 * the event loop's own imports while it compiles.
 */
async function workerFile(): Promise<string> {
  if (!import.meta.url.endsWith('.ts')) return new URL('./sourcemap-worker.js', import.meta.url).href;
  const { build } = await import('esbuild');
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(new URL('./worker.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    outfile: 'sourcemap-worker.mjs',
    logLevel: 'silent',
  });
  const code = outputFiles[0]!.contents;
  const file = fileURLToPath(
    new URL(`../../../node_modules/.cache/sourcemap-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`, import.meta.url),
  );
  if (!existsSync(file)) {
    // Written whole under another name first: processes starting together may write it at once.
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}`;
    await writeFile(partial, code);
    await rename(partial, file);
  }
  return pathToFileURL(file).href;
}

let pool: Promise<Piscina> | undefined;
/** Tasks running or waiting. */
let tasks = 0;

/** Whether a task asked for now would find the queue full. */
export const workerBusy = () => tasks > MAX_QUEUE;

async function run<T>(name: string, task: unknown, transferList?: ArrayBuffer[]): Promise<T> {
  pool ??= workerFile().then(
    (filename) =>
      new Piscina({
        filename,
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: IDLE_MS,
        maxQueue: MAX_QUEUE,
        niceIncrement: NICE,
        resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
      }),
  );
  if (workerBusy()) throw new OverloadedError('The service is busy decoding source maps. Retry in a moment.');
  tasks++;
  try {
    return (await (await pool).run(task, { name, transferList })) as T;
  } finally {
    tasks--;
  }
}

/** A decoded map, or why its text is not a map the service takes (`tooLarge` also when it takes more than the worker's memory). */
export type Decoding = { map: PackedMap } | Refusal;

/** Moves `bytes` to the worker when they own their buffer (they can no longer be read here), else copies them. */
const moved = (bytes: Uint8Array) =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : undefined;

/** Parses, checks and decodes a source map (its JSON text, or that text's UTF-8 bytes) in the worker. Throws OverloadedError when too many wait. */
export async function decodeInWorker(map: string | Uint8Array, limits: SourceMapLimits): Promise<Decoding> {
  let result: ArrayBuffer | Refusal;
  try {
    result = await run('decode', { map, limits }, typeof map === 'string' ? undefined : moved(map));
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') return { invalid: 'it takes more memory to read than a map may', tooLarge: true };
    throw error;
  }
  return result instanceof ArrayBuffer ? { map: new PackedMap(result) } : result;
}

/** A minified file's functions, or why its text is not a file the service reads (`tooLarge` also when it takes more than the worker's memory). */
export type ScopeReading = { scopes: FunctionScopes } | Refusal;

/** Reads the functions of a minified file (its text) in the worker. Throws OverloadedError when too many wait. */
export async function scopesInWorker(source: string): Promise<ScopeReading> {
  let result: ArrayBuffer | Refusal;
  try {
    result = await run('scopes', source);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') return { invalid: 'it takes more memory to read than a file may', tooLarge: true };
    throw error;
  }
  return result instanceof ArrayBuffer ? { scopes: new FunctionScopes(result) } : result;
}

/** Parses a JSON body (UTF-8) in the worker. */
export function parseBodyInWorker(bytes: Buffer): Promise<ReturnType<typeof parseBody>> {
  return run('parseBody', bytes, moved(bytes));
}
