import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Kysely, type Selectable } from 'kysely';
import { countThenPage } from '../../db/page';
import type { Dialect } from '../../db/database';
import type { Database, Executor, SourceMapTable } from '../../db/schema';

export type SourceMapRow = Selectable<SourceMapTable>;
/** A source map without its text: what lists and lookups read. */
export type SourceMapInfo = Pick<SourceMapRow, 'id' | 'release' | 'url' | 'created_at' | 'size'>;

const INFO = ['id', 'release', 'url', 'created_at', 'size'] as const;

/** The bytes of one part: SQLite writes and reads a value on the event loop, some 10 ms a megabyte here. */
const PART_BYTES = 1024 * 1024;
/** How long parts no row names are kept: an upload writes its parts before its row. */
const ORPHAN_MS = 60 * 60 * 1000;

/** What a map's parts hold: the map's JSON or the minified file. */
export type PartKind = 'map' | 'source';

/** SQL for uploaded source maps; every query is scoped to a project. */
export const sourceMapStore = {
  /**
   * Stores `text` as the parts of map `mapId`, a statement a part with a turn of the event loop between, so that no
   * write holds the event loop for long. Written before the map's row (`replace`): nothing reads them until it names them.
   */
  async writeParts(db: Kysely<Database>, projectId: number, mapId: string, kind: PartKind, text: string): Promise<void> {
    const bytes = Buffer.from(text);
    const created_at = new Date().toISOString();
    for (let seq = 0; seq * PART_BYTES < bytes.length; seq++) {
      if (seq > 0) await nextTurn();
      const part = bytes.subarray(seq * PART_BYTES, (seq + 1) * PART_BYTES);
      await db.insertInto('source_map_parts').values({ project_id: projectId, map_id: mapId, kind, seq, bytes: part, created_at }).execute();
    }
  },

  /**
   * Stores `row` (its text already in its parts), in one statement replacing the map of the same release and URL
   * (concurrent uploads cannot both insert); then deletes the replaced map's parts, and any the project has had for
   * over an hour that no row names (an upload cut short, or the loser of two at once).
   */
  async replace(db: Kysely<Database>, row: SourceMapRow): Promise<void> {
    const { id, map, source, scopes, size, created_at } = row;
    const replaced = await db
      .selectFrom('source_maps')
      .select('id')
      .where('project_id', '=', row.project_id)
      .where('release', '=', row.release)
      .where('url', '=', row.url)
      .executeTakeFirst();
    await db
      .insertInto('source_maps')
      .values(row)
      .onConflict((conflict) => conflict.columns(['project_id', 'release', 'url']).doUpdateSet({ id, map, source, scopes, size, created_at }))
      .execute();
    if (replaced) await db.deleteFrom('source_map_parts').where('map_id', '=', replaced.id).execute();
    const before = new Date(Date.now() - ORPHAN_MS).toISOString();
    await db
      .deleteFrom('source_map_parts')
      .where('project_id', '=', row.project_id)
      .where('created_at', '<', before)
      .where('map_id', 'not in', db.selectFrom('source_maps').select('id').where('project_id', '=', row.project_id))
      .execute();
  },

  /** A project's maps, newest first, optionally of one release. */
  page(db: Executor, projectId: number, opts: { release?: string; limit: number; offset: number }) {
    let query = db.selectFrom('source_maps').where('project_id', '=', projectId);
    if (opts.release !== undefined) query = query.where('release', '=', opts.release);
    return countThenPage(query, opts.limit, opts.offset, (page) => page.select(INFO).orderBy('created_at', 'desc').orderBy('id', 'desc').execute());
  },

  async delete(db: Kysely<Database>, projectId: number, id: string): Promise<boolean> {
    return db.transaction().execute(async (tx) => {
      const result = await tx.deleteFrom('source_maps').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
      await tx.deleteFrom('source_map_parts').where('project_id', '=', projectId).where('map_id', '=', id).execute();
      return Number(result.numDeletedRows) > 0;
    });
  },

  /**
   * The map for a frame's file among `urls` (its candidate spellings): the one of `release` when there is one, else
   * the newest upload; its id and stored size.
   */
  find(db: Executor, projectId: number, urls: string[], release: string | undefined): Promise<Pick<SourceMapRow, 'id' | 'size'> | undefined> {
    return db
      .selectFrom('source_maps')
      .select(['id', 'size'])
      .where('project_id', '=', projectId)
      .where('url', 'in', urls)
      .orderBy(sql`case when ${sql.ref('release')} = ${release ?? null} then 0 else 1 end`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /**
   * The map's JSON text as UTF-8 bytes (what the decoding worker takes, moved to it rather than copied, and never made a
   * string on the event loop) and its minified file's packed functions (null without the file). Its parts are read a
   * statement each, with turns of the event loop between; a map stored before parts were (migration 0018) is read
   * from its row.
   */
  async load(db: Kysely<Database>, dialect: Dialect, projectId: number, id: string): Promise<{ map: Uint8Array; scopes: Uint8Array | null } | undefined> {
    const bytes = dialect === 'postgres' ? sql<Uint8Array>`convert_to(map, 'UTF8')` : sql<Uint8Array>`cast(map as blob)`;
    const row = await db
      .selectFrom('source_maps')
      .select([bytes.as('map'), 'scopes'])
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || row.map.length > 0) return row;
    const parts: Uint8Array[] = [];
    for (let seq = 0; ; seq++) {
      if (seq > 0) await nextTurn();
      const part = await db
        .selectFrom('source_map_parts')
        .select('bytes')
        .where('map_id', '=', id)
        .where('kind', '=', 'map')
        .where('seq', '=', seq)
        .executeTakeFirst();
      if (!part) break;
      parts.push(part.bytes);
    }
    // No part: the map was replaced or deleted between the two reads.
    return parts.length ? { map: Buffer.concat(parts), scopes: row.scopes } : undefined;
  },
};
