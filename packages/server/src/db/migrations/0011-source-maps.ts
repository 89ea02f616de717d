import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required } from './columns';

/**
 * Source maps uploaded per release, for the minified file at `url` (an absolute URL, or `~/path` for
 * any origin). One per (project, release, url): a new upload replaces the row under a new id, so a parsed map
 * cached by id is never stale. `map` is the map's JSON text, `source` the minified file when it was sent.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export const sourceMaps = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('source_maps')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call(projectId)
      .$call(required({ release: 'text', url: 'text', map: 'text' }))
      .addColumn('source', 'text')
      .$call(required({ size: 'integer', created_at: 'text' }))
      .execute();
    // One map per release and URL; also the list of a release's maps.
    await db.schema.createIndex('source_maps_release_url').on('source_maps').columns(['project_id', 'release', 'url']).unique().execute();
    // The lookup of a frame's file: a project's maps of a URL, newest first.
    await db.schema.createIndex('source_maps_url').on('source_maps').columns(['project_id', 'url', 'created_at']).execute();
  },
});
