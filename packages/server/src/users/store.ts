import { sql, type Insertable, type Selectable } from 'kysely';
import type { Executor, InviteTable, PasswordResetTable, UserTable } from '../db/schema';

export type UserRow = Selectable<UserTable>;
export type InviteRow = Selectable<InviteTable>;
export type PasswordResetRow = Selectable<PasswordResetTable>;

/** The one organization's id. */
export const ORGANIZATION_ID = 1;

/** SQL for the organization, users, sessions, invites, password reset links and failed logins. */
export const userStore = {
  organization(db: Executor) {
    return db.selectFrom('organizations').selectAll().where('id', '=', ORGANIZATION_ID).executeTakeFirst();
  },

  /** Creates the organization unless it exists. */
  async ensureOrganization(db: Executor, name: string, at: string): Promise<void> {
    await db
      .insertInto('organizations')
      .values({ id: ORGANIZATION_ID, name, created_at: at })
      .onConflict((c) => c.column('id').doNothing())
      .execute();
  },

  /**
   * Takes the organization's row lock until the transaction ends (a no-op update): changes that must see every
   * user (the first account, the last owner) run one at a time, on PostgreSQL as on SQLite.
   */
  async lockOrganization(db: Executor): Promise<void> {
    await db
      .updateTable('organizations')
      .set({ name: sql`name` })
      .where('id', '=', ORGANIZATION_ID)
      .execute();
  },

  async countUsers(db: Executor): Promise<number> {
    const { count } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  },

  async countOwners(db: Executor): Promise<number> {
    const { count } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(count);
  },

  async insertUser(db: Executor, row: Insertable<UserTable>): Promise<UserRow> {
    return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
  },

  user(db: Executor, id: number): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },

  userByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  },

  /** Every user, oldest first. */
  users(db: Executor): Promise<UserRow[]> {
    return db.selectFrom('users').selectAll().orderBy('id').execute();
  },

  async setRole(db: Executor, id: number, role: string): Promise<void> {
    await db.updateTable('users').set({ role }).where('id', '=', id).execute();
  },

  async setPasswordHash(db: Executor, id: number, passwordHash: string): Promise<void> {
    await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  },

  /** Deletes the user; their sessions go with them (cascade), invites they made keep no creator. */
  async deleteUser(db: Executor, id: number): Promise<void> {
    await db.deleteFrom('sessions').where('user_id', '=', id).execute();
    await db.deleteFrom('users').where('id', '=', id).execute();
  },

  async insertSession(db: Executor, row: { id: string; user_id: number; created_at: string; last_seen_at: string }): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },

  /** The session with this (hashed) id and its user. */
  sessionWithUser(db: Executor, id: string) {
    return db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.id as session_id', 'sessions.last_seen_at'])
      .where('sessions.id', '=', id)
      .executeTakeFirst();
  },

  async touchSession(db: Executor, id: string, at: string): Promise<void> {
    await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
  },

  async deleteSession(db: Executor, id: string): Promise<void> {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
  },

  /** Ends the user's sessions but the one with the (hashed) id `keep`; how many ended. */
  async deleteSessionsOf(db: Executor, userId: number, keep?: string): Promise<number> {
    const result = await db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .$if(keep !== undefined, (q) => q.where('id', '!=', keep!))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Forgets sessions idle since before `before`. */
  async deleteIdleSessions(db: Executor, before: string): Promise<void> {
    await db.deleteFrom('sessions').where('last_seen_at', '<', before).execute();
  },

  async insertInvite(db: Executor, row: Insertable<InviteTable>): Promise<void> {
    await db.insertInto('invites').values(row).execute();
  },

  invite(db: Executor, id: string): Promise<InviteRow | undefined> {
    return db.selectFrom('invites').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Invites not accepted and not expired at `now`, newest first. */
  pendingInvites(db: Executor, now: string): Promise<InviteRow[]> {
    return db
      .selectFrom('invites')
      .selectAll()
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  },

  /** The invite of a token, if it is still pending at `now`. */
  pendingInviteByHash(db: Executor, tokenHash: string, now: string): Promise<InviteRow | undefined> {
    return db
      .selectFrom('invites')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  },

  /** Uses up a pending invite; false when it was used (or expired) meanwhile. */
  async acceptInvite(db: Executor, id: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('invites')
      .set({ accepted_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** Deletes a pending invite; false when there is none with this id. */
  async deleteInvite(db: Executor, id: string): Promise<boolean> {
    const result = await db.deleteFrom('invites').where('id', '=', id).where('accepted_at', 'is', null).executeTakeFirst();
    return result.numDeletedRows > 0n;
  },

  async insertPasswordReset(db: Executor, row: Insertable<PasswordResetTable>): Promise<void> {
    await db.insertInto('password_resets').values(row).execute();
  },

  /** Voids the user's unused reset links. */
  async deleteUnusedPasswordResets(db: Executor, userId: number): Promise<void> {
    await db.deleteFrom('password_resets').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  },

  /** The reset link of a token, if it is unused and unexpired at `now`. */
  pendingPasswordResetByHash(db: Executor, tokenHash: string, now: string): Promise<PasswordResetRow | undefined> {
    return db
      .selectFrom('password_resets')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  },

  /** Uses up a pending reset link; false when it was used (or expired) meanwhile. */
  async usePasswordReset(db: Executor, id: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** Failed logins under a key since `since`: how many, and when the newest was. */
  async failures(db: Executor, key: string, since: string): Promise<{ count: number; newest: string | null }> {
    const row = await db
      .selectFrom('login_failures')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('at').as('newest')])
      .where('key', '=', key)
      .where('at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), newest: row.newest };
  },

  /** Records a failed login under a key, and forgets failures from before `expired`. */
  async addFailure(db: Executor, key: string, at: string, expired: string): Promise<void> {
    await db.deleteFrom('login_failures').where('at', '<=', expired).execute();
    await db.insertInto('login_failures').values({ key, at }).execute();
  },

  async clearFailures(db: Executor, key: string): Promise<void> {
    await db.deleteFrom('login_failures').where('key', '=', key).execute();
  },
};
