import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { required, serialId } from './columns';

/**
 * The activity log: one row per change to a flag, early access feature, webhook, project, personal API key,
 * member or invite: who (a user, a personal API key, or the command line), when, and the changed fields. Organization
 * things (keys, members, invites) have no project. Users and keys are not referenced: the log outlives them.
 */
export const activityLog = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('activity_log')
      .$call(serialId(dialect, 'bigserial'))
      .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
      .$call(required({ scope: 'text', item_id: 'text', activity: 'text' }))
      .addColumn('user_id', 'integer')
      .addColumn('api_key_id', 'text')
      // Who, as they were called then: the user's name, the key's label, or "command line".
      .$call(required({ actor_name: 'text', detail: 'text', created_at: 'text' }))
      .execute();
    // A project's log, of one kind of item, of one item: newest first.
    await db.schema.createIndex('activity_log_item').on('activity_log').columns(['project_id', 'scope', 'item_id', 'created_at']).execute();
    await db.schema.createIndex('activity_log_project_time').on('activity_log').columns(['project_id', 'created_at']).execute();
  },
});
