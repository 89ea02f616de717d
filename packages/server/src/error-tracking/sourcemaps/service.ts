import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { NotFoundError, TooLargeError, ValidationError } from '../../errors';
import { isUuid, uuidv7 } from '../../uuid';
import { decodeInWorker } from './pool';
import type { SourceMapResolver } from './resolve';
import { sourceMapStore, type SourceMapInfo } from './store';

export interface SourceMapUpload {
  release: string;
  /** The minified file's URL, or `~/path` for that path on any origin. */
  url: string;
  /** The source map's JSON text. */
  map: string;
  /** The minified file (kept with the map). */
  source?: string;
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
  ) {}

  /**
   * Stores a map after checking, in the worker thread, that it is a source map v3 (400 `invalid_source_map` otherwise)
   * within SOURCEMAP_MAX_SEGMENTS and SOURCEMAP_MAX_LINES (413 `source_map_too_large` otherwise); the decoded map goes
   * into the resolver's cache.
   */
  async upload(projectId: number, input: SourceMapUpload) {
    checkUrl(input.url);
    const decoding = await decodeInWorker(input.map, this.resolver.limits);
    if ('invalid' in decoding) {
      throw decoding.tooLarge
        ? new TooLargeError('source_map_too_large', `The source map is too large: ${decoding.invalid}.`, 'map')
        : new ValidationError(`Not a valid source map (v3): ${decoding.invalid}.`, 'map', 'invalid_source_map');
    }
    const source = input.source ?? null;
    const row = {
      id: uuidv7(),
      project_id: projectId,
      release: input.release,
      url: input.url,
      map: input.map,
      source,
      size: Buffer.byteLength(input.map) + (source === null ? 0 : Buffer.byteLength(source)),
      created_at: new Date().toISOString(),
    };
    await sourceMapStore.replace(this.db, row);
    this.resolver.changed(projectId, { id: row.id, map: decoding.map });
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
