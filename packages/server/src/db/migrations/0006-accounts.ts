import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { required, serialId } from './columns';

/**
 * Accounts: the organization (one row), its users with their role, server-side sessions (hashed ids),
 * single-use invites (hashed tokens), failed logins (for the login throttle), and the user a personal API key
 * belongs to (null for keys made by the command line).
 */
export const accounts = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('organizations')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .$call(required({ name: 'text', created_at: 'text' }))
      .execute();
    await db.schema
      .createTable('users')
      .$call(serialId(dialect, 'serial'))
      .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
      // Lower case: one account per address whatever its case.
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .$call(required({ name: 'text', password_hash: 'text', role: 'text', created_at: 'text' }))
      .execute();
    await db.schema
      .createTable('sessions')
      // sha256 hex of the cookie's value; the value itself is never stored.
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .$call(required({ created_at: 'text', last_seen_at: 'text' }))
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema
      .createTable('invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // sha256 hex of the token in the invite link.
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .$call(required({ created_at: 'text', expires_at: 'text' }))
      .addColumn('accepted_at', 'text')
      .execute();
    await db.schema
      .createTable('login_failures')
      .$call(serialId(dialect, 'bigserial'))
      // `email:<address>` or `ip:<client address>`.
      .$call(required({ key: 'text', at: 'text' }))
      .execute();
    await db.schema.createIndex('login_failures_key_at').on('login_failures').columns(['key', 'at']).execute();
    await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();
    await db.schema.alterTable('api_keys').addColumn('user_id', 'integer').execute();
    await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
  },
});
