import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { NotFoundError, TooLargeError, ValidationError } from '../../errors';
import { isUuid, uuidv7 } from '../../uuid';
import { decodeInWorker, scopesInWorker } from './pool';
import type { SourceMapResolver } from './resolve';
import { sourceMapStore, type SourceMapInfo } from './store';

export interface SourceMapUpload {
  release: string;
  /** The minified file's URL, or `~/path` for that path on any origin. */
  url: string;
  /** The source map's JSON text. */
  map: string;
  /** The minified file: its functions name the frames (`function-scopes.ts`). */
  source?: string;
}

/** The largest minified file an upload may send (SOURCEMAP_MAX_SOURCE_BYTES): its syntax tree takes some 30 bytes a byte in the worker. */
export interface SourceMapUploadLimits {
  maxSourceBytes: number;
}

/** An absolute URL (`https://…`, `app:///…`), or `~/` and a path. */
function checkUrl(url: string) {
  const valid = url.startsWith('~/') ? url.length > 2 : URL.canParse(url) && !url.startsWith('~');
  if (!valid) throw new ValidationError('Give the minified file\'s absolute URL, or "~/" and its path for any origin.', 'url', 'invalid_url');
}

const toInfo = ({ id, release, url, created_at, size }: SourceMapInfo) => ({ id, release, url, created_at, size });

/**
 * Source maps of a project's releases: uploaded (replacing the map of the same release and URL), listed and
 * deleted; every change tells the resolver, which maps the stack frames of captured exceptions.
 */
export class SourceMapService {
  constructor(
    private readonly db: Kysely<Database>,
    readonly resolver: SourceMapResolver,
    private readonly limits: SourceMapUploadLimits,
  ) {}

  /**
   * Stores a map after checking, in the worker thread, that it is a source map v3 (400 `invalid_source_map` otherwise)
   * within SOURCEMAP_MAX_SEGMENTS and SOURCEMAP_MAX_LINES (413 `source_map_too_large` otherwise), and with its minified
   * file when sent: that file's functions are read there too (400 `invalid_source` when it does not parse as
   * JavaScript; 413 `source_too_large` past SOURCEMAP_MAX_SOURCE_BYTES) and stored with the map. The decoded map and
   * the functions go into the resolver's cache.
   */
  async upload(projectId: number, input: SourceMapUpload) {
    checkUrl(input.url);
    const source = input.source ?? null;
    const sourceBytes = source === null ? 0 : Buffer.byteLength(source);
    if (sourceBytes > this.limits.maxSourceBytes) {
      throw new TooLargeError(
        'source_too_large',
        `The minified file is ${sourceBytes} bytes, over the limit of ${this.limits.maxSourceBytes} (SOURCEMAP_MAX_SOURCE_BYTES).`,
        'source',
      );
    }
    const decoding = await decodeInWorker(input.map, this.resolver.limits);
    if ('invalid' in decoding) {
      throw decoding.tooLarge
        ? new TooLargeError('source_map_too_large', `The source map is too large: ${decoding.invalid}.`, 'map')
        : new ValidationError(`Not a valid source map (v3): ${decoding.invalid}.`, 'map', 'invalid_source_map');
    }
    const reading = source === null ? undefined : await scopesInWorker(source);
    if (reading && 'invalid' in reading) {
      throw reading.tooLarge
        ? new TooLargeError('source_too_large', `The minified file is too large: ${reading.invalid}.`, 'source')
        : new ValidationError(`The minified file is not JavaScript the service reads: ${reading.invalid}.`, 'source', 'invalid_source');
    }
    const scopes = reading?.scopes;
    const id = uuidv7();
    await sourceMapStore.writeParts(this.db, projectId, id, 'map', input.map);
    if (source !== null) await sourceMapStore.writeParts(this.db, projectId, id, 'source', source);
    const row = {
      id,
      project_id: projectId,
      release: input.release,
      url: input.url,
      map: '',
      source: null,
      scopes: scopes ? Buffer.from(scopes.buffer) : null,
      size: Buffer.byteLength(input.map) + sourceBytes,
      created_at: new Date().toISOString(),
    };
    await sourceMapStore.replace(this.db, row);
    this.resolver.changed(projectId, { id: row.id, map: decoding.map, scopes });
    return toInfo(row);
  }

  /** A page of the project's maps, newest first, optionally of one release. */
  async list(projectId: number, opts: { release?: string; limit: number; offset: number }) {
    const { count, rows } = await sourceMapStore.page(this.db, projectId, opts);
    return { count, results: rows.map(toInfo) };
  }

  async delete(projectId: number, id: string) {
    if (!isUuid(id) || !(await sourceMapStore.delete(this.db, projectId, id))) throw new NotFoundError();
    this.resolver.changed(projectId);
  }
}
