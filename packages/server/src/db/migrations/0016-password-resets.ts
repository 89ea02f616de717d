import type { Kysely } from 'kysely';
import { required } from './columns';

/**
 * Password reset links an admin makes for a member: single use, expiring, stored as the sha256 of their token (as
 * invites are). A member's links go with the member.
 */
export const passwordResets = () => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('password_resets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // sha256 hex of the token in the link.
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .$call(required({ created_at: 'text', expires_at: 'text' }))
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
  },
});
