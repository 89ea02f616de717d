import { randomUUID } from 'node:crypto';
import { decodedMappings, FlattenMap, traceSegment, TraceMap, type SourceMapInput } from '@jridgewell/trace-mapping';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/database';
import { ValidationError } from '../../errors';
import { LARGE_BODY_BYTES } from '../../http/sdk-body';
import { parseJsonInSlices } from '../../http/sliced-json';
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

const invalidMap = (detail: string) => new ValidationError(`Not a valid source map (v3): ${detail}.`, 'map', 'invalid_source_map');
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';
const isIndex = (value: number | undefined, length: number) => value !== undefined && Number.isInteger(value) && value >= 0 && value < length;
const isPosition = (value: number | undefined) => value !== undefined && Number.isInteger(value) && value >= 0;

/** Checks the fields of a source map v3 (plain or with `sections`) before the library reads it. */
function checkFields(map: unknown) {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) throw invalidMap('not a JSON object');
  const m = map as Record<string, unknown>;
  if (m.version !== 3) throw invalidMap('"version" is not 3');
  if (m.sections !== undefined) {
    if (!Array.isArray(m.sections)) throw invalidMap('"sections" is not a list');
    for (const section of m.sections) checkFields((section as { map?: unknown } | null)?.map);
    return;
  }
  if (typeof m.mappings !== 'string') throw invalidMap('"mappings" is not a string');
  if (!Array.isArray(m.sources) || !m.sources.every(isStringOrNull)) throw invalidMap('"sources" is not a list of strings');
  if (m.names !== undefined && !(Array.isArray(m.names) && m.names.every((n) => typeof n === 'string'))) throw invalidMap('"names" is not a list of strings');
  if (m.sourcesContent !== undefined && !(Array.isArray(m.sourcesContent) && m.sourcesContent.every(isStringOrNull))) {
    throw invalidMap('"sourcesContent" is not a list of strings');
  }
  if (m.sourceRoot !== undefined && m.sourceRoot !== null && typeof m.sourceRoot !== 'string') throw invalidMap('"sourceRoot" is not a string');
}

/** Decodes every mapping, refusing any that points outside `sources` or `names` (what a corrupt `mappings` string yields). */
function checkMappings(map: TraceMap) {
  const sources = map.sources.length;
  const names = map.names.length;
  for (const line of decodedMappings(map)) {
    for (const s of line) {
      const ok =
        isPosition(s[0]) &&
        (s.length === 1 || (s.length >= 4 && isIndex(s[1], sources) && isPosition(s[2]) && isPosition(s[3]) && (s.length === 4 || isIndex(s[4], names))));
      if (!ok) throw invalidMap('"mappings" is corrupt');
    }
  }
}

/**
 * Parses and checks a source map's JSON text: ValidationError (attr `map`) for text that is not JSON or not a source
 * map v3. A large text is parsed in slices, so that the event loop turns meanwhile.
 */
export async function parseSourceMap(text: string): Promise<TraceMap> {
  let json: unknown;
  try {
    json = text.length > LARGE_BODY_BYTES ? await parseJsonInSlices(Buffer.from(text)) : JSON.parse(text);
  } catch {
    throw invalidMap('not JSON');
  }
  checkFields(json);
  let map: TraceMap;
  try {
    const input = json as SourceMapInput;
    map = (json as { sections?: unknown }).sections ? new FlattenMap(input) : new TraceMap(input);
    checkMappings(map);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw invalidMap('it cannot be read');
  }
  return map;
}

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

/** A map in the cache: parsed, with its sources' lines split on first use; or why it could not be read. */
type Loaded = { map: TraceMap; lines: (string[] | null | undefined)[]; bytes: number } | { failure: string; bytes: number };

/** Where a frame's position lies in a map: the segment `[column, source, line, column, name?]`. */
type Location = { loaded: Extract<Loaded, { map: TraceMap }>; segment: readonly number[] } | { failure: string } | undefined;

/**
 * Maps minified stack frames to their original source through the project's uploaded source maps. Parsed maps are
 * kept in an LRU bounded by `cacheBytes` (counted as the maps' text size); which map a frame's file uses is kept a
 * minute at most, and forgotten at once when the project's maps change (in every instance on PostgreSQL).
 */
export class SourceMapResolver {
  private readonly maps: LRUCache<string, Loaded>;
  private readonly lookups = new LRUCache<string, { id: string | null }>({ max: LOOKUP_MAX, ttl: LOOKUP_TTL_MS });
  /** Loads and lookups under way, so that concurrent events wait for one query, one parse. */
  private readonly pending = new Map<string, Promise<unknown>>();
  /** Bumped when a project's maps change: lookups of an older generation are no longer found. */
  private readonly generations = new Map<number, number>();
  private readonly instance = randomUUID();

  constructor(
    private readonly db: Pick<Db, 'kysely' | 'publish' | 'subscribe'>,
    options: { cacheBytes: number },
  ) {
    this.maps = new LRUCache<string, Loaded>({ maxSize: options.cacheBytes, sizeCalculation: (entry) => Math.max(1, entry.bytes) });
    db.subscribe(
      CHANNEL,
      (payload) => {
        const [from, projectId] = payload.split(':');
        if (from !== this.instance) this.forget(Number(projectId));
      },
      () => this.lookups.clear(),
    );
  }

  /** Call once an upload or delete of the project's maps has committed. */
  changed(projectId: number) {
    this.forget(projectId);
    void this.db.publish(CHANNEL, `${this.instance}:${projectId}`).catch(() => undefined);
  }

  private forget(projectId: number) {
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
  }

  /**
   * The frames (oldest first, the throw site last, as in `$exception_list`) with those that have an uploaded map
   * resolved: original file, line, column, source context, and as function name the name the map gives at the call in
   * the calling frame (the frame before), else the minified one. Frames without a map, or whose position the map does
   * not cover, come back as they were; a map that cannot be read leaves its frames as they were, with
   * `resolve_failure`. Never throws. `release`: the event's `$release`; a map of that release is preferred, else the
   * newest upload for the file.
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
    let id: string | null;
    let loaded: Loaded | undefined;
    try {
      id = await this.lookup(projectId, release, filename);
      loaded = id === null ? undefined : await this.load(projectId, id);
    } catch {
      return { failure: 'the source map could not be read from the database' };
    }
    if (!loaded) return undefined;
    if ('failure' in loaded) return { failure: loaded.failure };
    const segment = traceSegment(loaded.map, frame.lineno - 1, Math.max(0, frame.colno - 1));
    return segment && segment.length >= 4 ? { loaded, segment } : undefined;
  }

  /** The id of the map for a frame's file, or null when there is none. */
  private async lookup(projectId: number, release: string | undefined, filename: string): Promise<string | null> {
    const key = `${projectId}\n${this.generations.get(projectId) ?? 0}\n${release ?? ''}\n${filename}`;
    const cached = this.lookups.get(key);
    if (cached) return cached.id;
    return this.once(`lookup\n${key}`, async () => {
      const urls = candidateUrls(filename);
      const id = urls ? ((await sourceMapStore.find(this.db.kysely, projectId, urls, release))?.id ?? null) : null;
      this.lookups.set(key, { id });
      return id;
    });
  }

  private async load(projectId: number, id: string): Promise<Loaded | undefined> {
    const cached = this.maps.get(id);
    if (cached) return cached;
    return this.once(`map\n${id}`, async () => {
      const text = await sourceMapStore.text(this.db.kysely, projectId, id);
      if (text === undefined) return undefined; // deleted meanwhile
      let loaded: Loaded;
      try {
        const map = await parseSourceMap(text);
        loaded = { map, lines: [], bytes: text.length };
      } catch {
        loaded = { failure: 'the source map is not valid', bytes: 1 };
      }
      this.maps.set(id, loaded);
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

/** The lines of a source's content, split once per cached map. */
function sourceLines(loaded: Extract<Loaded, { map: TraceMap }>, source: number): string[] | null {
  let lines = loaded.lines[source];
  if (lines === undefined) {
    const content = loaded.map.sourcesContent?.[source];
    lines = typeof content === 'string' ? content.split(/\r\n|\r|\n/) : null;
    loaded.lines[source] = lines;
  }
  return lines;
}

const cut = (text: string) => (text.length > MAX_STRING ? text.slice(0, MAX_STRING) : text);

function resolved<F extends StackFrame>(frame: F, location: Location, caller: Location): F {
  if (!location) return frame;
  if ('failure' in location) return { ...frame, resolve_failure: location.failure };
  const { loaded, segment } = location;
  const [, sourceIndex, line, column] = segment as [number, number, number, number];
  const source = displayPath(loaded.map.resolvedSources[sourceIndex] ?? loaded.map.sources[sourceIndex] ?? '');
  if (!source) return frame; // a mapping to a source without a name tells nothing
  const mangled = typeof frame.function === 'string' ? frame.function : '?';
  // The frame's own position names what is called or thrown there; the call that entered its function is in the caller.
  const name = caller && 'segment' in caller && caller.segment.length === 5 ? caller.loaded.map.names[caller.segment[4]!] : undefined;
  const { pre_context: _pre, context_line: _line, post_context: _post, ...rest } = frame;
  const lines = sourceLines(loaded, sourceIndex);
  const context =
    lines && line < lines.length
      ? {
          pre_context: lines.slice(Math.max(0, line - CONTEXT_LINES), line).map(cut),
          context_line: cut(lines[line]!),
          post_context: lines.slice(line + 1, line + 1 + CONTEXT_LINES).map(cut),
        }
      : {};
  return {
    ...(rest as F),
    resolved: true,
    filename: cut(source),
    function: name ? cut(name) : mangled,
    lineno: line + 1,
    colno: column + 1,
    in_app: !/node_modules/.test(source),
    mangled_name: mangled,
    raw: { filename: frame.filename || frame.abs_path, lineno: frame.lineno, colno: frame.colno },
    ...context,
  };
}
