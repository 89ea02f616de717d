import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required } from './columns';

/**
 * A source map's text and its minified file, stored as parts of up to a megabyte rather than in the map's row: SQLite
 * writes a value on the event loop, and a 20 MB map written as one held it for a quarter of a second and more. Parts
 * are written one statement at a time, with turns of the event loop between, before the row that names them; a
 * row's `map` is then empty and its `source` null (rows stored before keep their text there). Parts name their map
 * without a foreign key, since they are written first; parts no row names are swept after an hour.
 */
export const sourceMapParts = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('source_map_parts')
      .$call(projectId)
      // `map`: the source map's JSON; `source`: the minified file. UTF-8 bytes, cut anywhere.
      .$call(required({ map_id: 'text', kind: 'text', seq: 'integer' }))
      .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .$call(required({ created_at: 'text' }))
      .addPrimaryKeyConstraint('source_map_parts_pk', ['map_id', 'kind', 'seq'])
      .execute();
    await db.schema.createIndex('source_map_parts_project').on('source_map_parts').columns(['project_id', 'created_at']).execute();
    if (dialect !== 'postgres') return;
    // As 0012 does for the maps' text: lz4 where the server has it.
    const { rows } = await sql<{ lz4: boolean }>`
      select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
    if (rows[0]?.lz4) await sql`alter table source_map_parts alter column bytes set compression lz4`.execute(db);
  },
});
