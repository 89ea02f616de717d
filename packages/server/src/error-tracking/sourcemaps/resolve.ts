import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database';
import { OverloadedError } from '../../errors';
import type { SourceMapLimits } from './decode';
import { FunctionScopes } from './function-scopes';
import type { Mapping, PackedMap } from './packed-map';
import { decodeInWorker, workerBusy, type Decoding } from './pool';
import { sourceMapStore } from './store';

/** The fields of a stack frame (`$exception_list[].stacktrace.frames[]`) that resolving reads and writes. */
export interface StackFrame {
  filename?: string;
  abs_path?: string;
  function?: string;
  lineno?: number;
  colno?: number;
  in_app?: boolean;
  pre_context?: string[];
  context_line?: string;
  post_context?: string[];
  resolved?: boolean;
  mangled_name?: string;
  raw?: { filename?: string; lineno?: number; colno?: number };
  resolve_failure?: string;
}

/** Lines of source context on each side of a resolved frame's line. */
const CONTEXT_LINES = 3;
/** A resolved frame's strings (a line of source context, a file or function name) are cut to this many characters, as stored frames' are. */
const MAX_STRING = 1024;
/** Frame file names longer than this are not looked up. */
const MAX_FILENAME = 2048;
/**
 * How long a frame's file → map lookup is kept. Uploads and deletes invalidate lookups at once in this instance and,
 * on PostgreSQL, in the others through NOTIFY; this bounds a lost notification.
 */
const LOOKUP_TTL_MS = 60_000;
const LOOKUP_MAX = 10_000;
const CHANNEL = 'service_sourcemaps';
/** A project's budget of map loads holds this many seconds of SOURCEMAP_LOAD_BYTES_PER_SECOND (a release's maps at once). */
const BURST_SECONDS = 4;

const FAILURES = {
  database: 'the source map could not be read from the database',
  invalid: 'the source map is not valid',
  decoding: 'the source map could not be decoded',
  busy: 'the service was too busy decoding source maps',
  overBudget: "the project's source maps were being loaded faster than SOURCEMAP_LOAD_BYTES_PER_SECOND allows",
};

/** A source path as people read it: without the leading `./` and `../` of a path relative to the map. */
const displayPath = (source: string) => source.replace(/^(?:\.\.?\/)+/, '');

/** The URLs a map may have been uploaded under for a frame's file: as it is, without query and fragment, and `~/path`. */
function candidateUrls(filename: string): string[] | undefined {
  let url: URL;
  try {
    url = new URL(filename);
  } catch {
    return undefined;
  }
  if (!url.pathname.startsWith('/')) return undefined;
  const bare = `${url.protocol}//${url.host}${url.pathname}`;
  return [...new Set([filename, bare, `~${url.pathname}`])];
}

/** A decoded map and, when its minified file was uploaded, that file's functions. */
export interface ReadMap {
  map: PackedMap;
  scopes?: FunctionScopes | undefined;
}

/** A map in the cache, or why it could not be used. */
type Loaded = ReadMap | { failure: string };

/** Where a frame's position (0-based, generated) lies in a map. */
type Location = { read: ReadMap; mapping: Mapping; line: number; column: number } | { failure: string } | undefined;

/** The name of a frame in an anonymous function (a callback passed as an argument). */
const ANONYMOUS = '<anonymous>';

/** Packed functions as stored, in a buffer of their own (counted exactly in the cache); undefined when they do not read as such. */
function storedScopes(bytes: Uint8Array | null): FunctionScopes | undefined {
  if (!bytes) return undefined;
  try {
    return new FunctionScopes(new Uint8Array(bytes).buffer);
  } catch {
    return undefined;
  }
}

/**
 * How much one project's cache misses may load and decode: a bucket of bytes (maps' stored sizes) refilled at
 * `perSecond` and holding BURST_SECONDS of it. A load starts while the bucket is not empty and takes its map's size,
 * which may leave it below empty: the next waits for the refill.
 */
class LoadBudget {
  private readonly buckets = new Map<number, { bytes: number; at: number }>();

  constructor(private readonly perSecond: number) {}

  take(projectId: number, bytes: number): boolean {
    const now = performance.now();
    const full = this.perSecond * BURST_SECONDS;
    const bucket = this.buckets.get(projectId) ?? { bytes: full, at: now };
    bucket.bytes = Math.min(full, bucket.bytes + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(projectId, bucket);
    if (bucket.bytes <= 0) return false;
    bucket.bytes -= bytes;
    return true;
  }
}

export interface SourceMapResolverOptions {
  /** Bytes of decoded maps kept in memory (SOURCEMAP_CACHE_BYTES). */
  cacheBytes: number;
  /** Bytes of stored maps one project's cache misses may load a second (SOURCEMAP_LOAD_BYTES_PER_SECOND). */
  loadBytesPerSecond: number;
  limits: SourceMapLimits;
}

/**
 * Maps minified stack frames to their original source through the project's uploaded source maps. A map is decoded
 * in the worker thread (pool.ts) and kept, with its minified file's functions as stored at upload, in an LRU bounded by
 * `cacheBytes`, counted by what they take in memory; a map larger than that is decoded for the frames that need it, and not kept. What a project's maps missing
 * from the cache may load is bounded by `loadBytesPerSecond`: past it their frames stay as they came, with
 * `resolve_failure`, until the budget refills. Which map a frame's file uses is kept a minute at most, and forgotten at
 * once when the project's maps change (in every instance on PostgreSQL).
 */
export class SourceMapResolver {
  private readonly maps: LRUCache<string, Loaded>;
  private readonly lookups = new LRUCache<string, { found: { id: string; size: number } | null }>({ max: LOOKUP_MAX, ttl: LOOKUP_TTL_MS });
  /** Loads and lookups under way, so that concurrent events wait for one query, one decoding. */
  private readonly pending = new Map<string, Promise<unknown>>();
  /** Bumped when a project's maps change: lookups of an older generation are no longer found. */
  private readonly generations = new Map<number, number>();
  private readonly instance = randomUUID();
  private readonly budget: LoadBudget;
  readonly limits: SourceMapLimits;

  constructor(
    private readonly db: Pick<Db, 'kysely' | 'dialect' | 'publish' | 'subscribe'>,
    options: SourceMapResolverOptions,
  ) {
    this.maps = new LRUCache<string, Loaded>({
      maxSize: options.cacheBytes,
      sizeCalculation: (entry) => ('failure' in entry ? 1 : entry.map.bytes + (entry.scopes?.bytes ?? 0)),
    });
    this.budget = new LoadBudget(options.loadBytesPerSecond);
    this.limits = options.limits;
    db.subscribe(
      CHANNEL,
      (payload) => {
        const [from, projectId] = payload.split(':');
        if (from !== this.instance) this.forget(Number(projectId));
      },
      () => this.lookups.clear(),
    );
  }

  /** Call once an upload or delete of the project's maps has committed; `uploaded`: the map just stored, decoded, and its file's functions. */
  changed(projectId: number, uploaded?: { id: string } & ReadMap) {
    if (uploaded) this.maps.set(uploaded.id, { map: uploaded.map, scopes: uploaded.scopes });
    this.forget(projectId);
    void this.db.publish(CHANNEL, `${this.instance}:${projectId}`).catch(() => undefined);
  }

  private forget(projectId: number) {
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
  }

  /**
   * The frames (oldest first, the throw site last, as in `$exception_list`) with those that have an uploaded map
   * resolved: original file, line, column, source context, and as function name the original name of the function
   * that encloses the frame's position when the minified file was uploaded with the map (`<anonymous>` for a function
   * without a name), else the name the map gives at the call in the calling frame (the frame before), else the
   * minified one. Frames without a map, or whose position the map does
   * not cover, come back as they were; a map that cannot be used (not valid, or over the project's budget of loads)
   * leaves its frames as they were, with `resolve_failure`. Never throws. `release`: the event's `$release`; a map of
   * that release is preferred, else the newest upload for the file.
   */
  async resolveFrames<F extends StackFrame>(projectId: number, release: string | undefined, frames: readonly F[]): Promise<F[]> {
    try {
      const locations = await Promise.all(frames.map((frame) => this.locate(projectId, release, frame)));
      return frames.map((frame, i) => resolved(frame, locations[i], locations[i - 1]));
    } catch {
      return [...frames];
    }
  }

  private async locate(projectId: number, release: string | undefined, frame: StackFrame): Promise<Location> {
    if (frame.resolved === true || typeof frame.lineno !== 'number' || typeof frame.colno !== 'number' || frame.lineno < 1) return undefined;
    const filename = typeof frame.filename === 'string' && frame.filename ? frame.filename : frame.abs_path;
    if (typeof filename !== 'string' || filename.length > MAX_FILENAME) return undefined;
    let loaded: Loaded | undefined;
    try {
      const found = await this.lookup(projectId, release, filename);
      loaded = found === null ? undefined : await this.load(projectId, found);
    } catch {
      return { failure: FAILURES.database };
    }
    if (!loaded) return undefined;
    if ('failure' in loaded) return loaded;
    const line = frame.lineno - 1;
    const column = Math.max(0, frame.colno - 1);
    const mapping = loaded.map.mappingAt(line, column);
    return mapping ? { read: loaded, mapping, line, column } : undefined;
  }

  /** The map for a frame's file (its id and stored size), or null when there is none. */
  private async lookup(projectId: number, release: string | undefined, filename: string): Promise<{ id: string; size: number } | null> {
    const key = `${projectId}\n${this.generations.get(projectId) ?? 0}\n${release ?? ''}\n${filename}`;
    const cached = this.lookups.get(key);
    if (cached) return cached.found;
    return this.once(`lookup\n${key}`, async () => {
      const urls = candidateUrls(filename);
      const found = urls ? ((await sourceMapStore.find(this.db.kysely, projectId, urls, release)) ?? null) : null;
      this.lookups.set(key, { found });
      return found;
    });
  }

  /** The decoded map, from the cache or loaded and decoded now; a failure that depends on the moment is not kept. */
  private async load(projectId: number, found: { id: string; size: number }): Promise<Loaded | undefined> {
    const cached = this.maps.get(found.id);
    if (cached) return cached;
    return this.once(`map\n${found.id}`, async () => {
      if (workerBusy()) return { failure: FAILURES.busy };
      if (!this.budget.take(projectId, found.size)) return { failure: FAILURES.overBudget };
      const row = await sourceMapStore.load(this.db.kysely, this.db.dialect, projectId, found.id);
      if (row === undefined) return undefined; // deleted meanwhile
      let decoding: Decoding;
      try {
        decoding = await decodeInWorker(row.map, this.limits);
      } catch (error) {
        return { failure: error instanceof OverloadedError ? FAILURES.busy : FAILURES.decoding };
      }
      const loaded: Loaded =
        'map' in decoding
          ? { map: decoding.map, scopes: storedScopes(row.scopes) }
          : { failure: decoding.tooLarge ? `the source map is too large: ${decoding.invalid}` : FAILURES.invalid };
      this.maps.set(found.id, loaded);
      return loaded;
    });
  }

  private once<T>(key: string, run: () => Promise<T>): Promise<T> {
    let promise = this.pending.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = run().finally(() => this.pending.delete(key));
      this.pending.set(key, promise);
    }
    return promise;
  }
}

const cut = (text: string) => (text.length > MAX_STRING ? text.slice(0, MAX_STRING) : text);

/** Lines `from` to `to` (excluded) of a source's content. */
const contentLines = (map: PackedMap, source: number, from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from) }, (_, i) => map.contentLine(source, from + i, MAX_STRING));

/**
 * The original name of the function that encloses a position (see function-scopes.ts), each part of it as the map names
 * it there, else as the minified file writes it (a name the minifier kept); undefined without the minified file's
 * functions, or at the top of the file.
 */
function enclosingName({ read, line, column }: { read: ReadMap; line: number; column: number }): string | undefined {
  const parts = read.scopes?.enclosing(line, column);
  if (!parts) return undefined;
  return parts.length ? parts.map((p) => read.map.nameAt(p.line, p.column) ?? p.text).join('.') : ANONYMOUS;
}

function resolved<F extends StackFrame>(frame: F, location: Location, caller: Location): F {
  if (!location) return frame;
  if ('failure' in location) return { ...frame, resolve_failure: location.failure };
  const { map } = location.read;
  const { mapping } = location;
  const source = displayPath(map.source(mapping.source));
  if (!source) return frame; // a mapping to a source without a name tells nothing
  const mangled = typeof frame.function === 'string' ? frame.function : '?';
  // The frame's own position names what is called or thrown there, not its function: that is the function enclosing
  // it, else the name of the call that entered it, in the caller.
  const name = enclosingName(location) ?? (caller && 'mapping' in caller ? caller.read.map.name(caller.mapping.name) : undefined);
  const { pre_context: _pre, context_line: _line, post_context: _post, ...rest } = frame;
  const lines = map.contentLines(mapping.source);
  const line = mapping.line;
  const context =
    lines !== undefined && line < lines
      ? {
          pre_context: contentLines(map, mapping.source, Math.max(0, line - CONTEXT_LINES), line),
          context_line: map.contentLine(mapping.source, line, MAX_STRING),
          post_context: contentLines(map, mapping.source, line + 1, Math.min(lines, line + 1 + CONTEXT_LINES)),
        }
      : {};
  return {
    ...(rest as F),
    resolved: true,
    filename: cut(source),
    function: name ? cut(name) : mangled,
    lineno: line + 1,
    colno: mapping.column + 1,
    in_app: !/node_modules/.test(source),
    mangled_name: mangled,
    raw: { filename: frame.filename || frame.abs_path, lineno: frame.lineno, colno: frame.colno },
    ...context,
  };
}
