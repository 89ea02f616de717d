import { sql, type Selectable } from 'kysely';
import { countThenPage } from '../../db/page';
import type { Dialect } from '../../db/database';
import type { Executor, SourceMapTable } from '../../db/schema';

export type SourceMapRow = Selectable<SourceMapTable>;
/** A source map without its text: what lists and lookups read. */
export type SourceMapInfo = Pick<SourceMapRow, 'id' | 'release' | 'url' | 'created_at' | 'size'>;

const INFO = ['id', 'release', 'url', 'created_at', 'size'] as const;

/** SQL for uploaded source maps; every query is scoped to a project. */
export const sourceMapStore = {
  /** Stores `row`, in one statement replacing the map of the same release and URL (concurrent uploads cannot both insert). */
  async replace(db: Executor, row: SourceMapRow): Promise<void> {
    const { id, map, source, scopes, size, created_at } = row;
    await db
      .insertInto('source_maps')
      .values(row)
      .onConflict((conflict) => conflict.columns(['project_id', 'release', 'url']).doUpdateSet({ id, map, source, scopes, size, created_at }))
      .execute();
  },

  /** A project's maps, newest first, optionally of one release. */
  page(db: Executor, projectId: number, opts: { release?: string; limit: number; offset: number }) {
    let query = db.selectFrom('source_maps').where('project_id', '=', projectId);
    if (opts.release !== undefined) query = query.where('release', '=', opts.release);
    return countThenPage(query, opts.limit, opts.offset, (page) => page.select(INFO).orderBy('created_at', 'desc').orderBy('id', 'desc').execute());
  },

  async delete(db: Executor, projectId: number, id: string): Promise<boolean> {
    const result = await db.deleteFrom('source_maps').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
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
   * string on the event loop) and its minified file's packed functions (null without the file).
   */
  load(db: Executor, dialect: Dialect, projectId: number, id: string): Promise<{ map: Uint8Array; scopes: Uint8Array | null } | undefined> {
    const bytes = dialect === 'postgres' ? sql<Uint8Array>`convert_to(map, 'UTF8')` : sql<Uint8Array>`cast(map as blob)`;
    return db
      .selectFrom('source_maps')
      .select([bytes.as('map'), 'scopes'])
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
};
