import type { Dialect } from '../db/database';
import type { Executor } from '../db/schema';
import { configJson, DEFAULT_SETTINGS, type ReplaySettings } from './settings';

export const settingsStore = {
  async get(db: Executor, projectId: number) {
    return db.selectFrom('replay_settings').select(['enabled', 'config']).where('project_id', '=', projectId).executeTakeFirst();
  },

  /**
   * The project's row, made with the defaults if it has none, and locked on PostgreSQL until the transaction ends, so
   * two concurrent changes apply one after the other (SQLite's write transactions already do).
   */
  async lock(db: Executor, dialect: Dialect, projectId: number) {
    const now = new Date().toISOString();
    await db
      .insertInto('replay_settings')
      .values({ project_id: projectId, enabled: 0, config: configJson(DEFAULT_SETTINGS), updated_at: now })
      .onConflict((oc) => oc.column('project_id').doNothing())
      .execute();
    return db
      .selectFrom('replay_settings')
      .select(['enabled', 'config'])
      .where('project_id', '=', projectId)
      .$if(dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
  },

  async save(db: Executor, projectId: number, settings: ReplaySettings) {
    await db
      .updateTable('replay_settings')
      .set({ enabled: settings.enabled ? 1 : 0, config: configJson(settings), updated_at: new Date().toISOString() })
      .where('project_id', '=', projectId)
      .execute();
  },
};
