import type { Insertable, Selectable } from 'kysely';
import type { ApiKeyTable, Executor } from '../db/schema';

export type ApiKeyRow = Selectable<ApiKeyTable>;
export type KeyWithUserRow = ApiKeyRow & { user_email: string | null; user_name: string | null };

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

  /**
   * Live keys, newest first, with the email and name of their user (null for the command line's): every key, or those of
   * one user (`userId`; null: the command line's), or the one with `id`.
   */
  live(db: Executor, filter: { userId?: number | null; id?: string } = {}): Promise<KeyWithUserRow[]> {
    let query = db
      .selectFrom('api_keys as k')
      .leftJoin('users as u', 'u.id', 'k.user_id')
      .selectAll('k')
      .select(['u.email as user_email', 'u.name as user_name'])
      .where('k.revoked_at', 'is', null);
    if (filter.userId !== undefined) query = query.where('k.user_id', filter.userId === null ? 'is' : '=', filter.userId);
    if (filter.id !== undefined) query = query.where('k.id', '=', filter.id);
    return query.orderBy('k.created_at', 'desc').orderBy('k.id').execute();
  },

  get(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
    return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async revokeAllOf(db: Executor, userId: number, at: string): Promise<void> {
    await db.updateTable('api_keys').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  },

  /** The key (live or revoked) whose secret hashes to `hash`, with the role of its user (null without one, or when the user is gone). */
  byHash(db: Executor, hash: string): Promise<(ApiKeyRow & { role: string | null }) | undefined> {
    return db
      .selectFrom('api_keys')
      .leftJoin('users', 'users.id', 'api_keys.user_id')
      .selectAll('api_keys')
      .select('users.role')
      .where('secure_value', '=', hash)
      .executeTakeFirst();
  },

  async touch(db: Executor, id: string, at: string): Promise<void> {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  },
};
