import type { Insertable, Selectable } from 'kysely';
import type { ApiKeyTable, Executor } from '../db/schema';

export type ApiKeyRow = Selectable<ApiKeyTable>;

/** SQL for API keys. */
export const apiKeyStore = {
  async insert(db: Executor, row: Insertable<ApiKeyTable>): Promise<void> {
    await db.insertInto('api_keys').values(row).execute();
  },

  /** Every key, oldest first. */
  all(db: Executor): Promise<ApiKeyRow[]> {
    return db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
  },

  /** Sets `revoked_at` on the key with this id unless it is revoked already; false when no row changed. */
  async revoke(db: Executor, id: string, at: string): Promise<boolean> {
    const result = await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** The key (live or revoked) whose secret hashes to `hash`. */
  byHash(db: Executor, hash: string): Promise<ApiKeyRow | undefined> {
    return db.selectFrom('api_keys').selectAll().where('secure_value', '=', hash).executeTakeFirst();
  },

  async touch(db: Executor, id: string, at: string): Promise<void> {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  },
};
