import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required, serialId } from './columns';

/**
 * Changes to a flag made at a set time: each row one change (a ramp is several rows), applied once by the job that
 * claims it (`status` goes from `pending` to `applied`, `failed` or `cancelled`).
 */
export const scheduledChanges = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('scheduled_changes')
      .$call(serialId(dialect, 'serial'))
      .$call(projectId)
      .addColumn('flag_id', 'integer', (c) => c.notNull().references('feature_flags.id').onDelete('cascade'))
      // JSON: {active?, rollout_percentage?, variants?}.
      .$call(required({ payload: 'text', scheduled_at: 'text', status: 'text' }))
      // Ramps: the rows created together share it.
      .addColumn('ramp_id', 'text')
      .addColumn('failure_reason', 'text')
      .addColumn('created_by_user_id', 'integer')
      .addColumn('created_by_key_id', 'text')
      .$call(required({ created_by_label: 'text', created_at: 'text' }))
      .addColumn('executed_at', 'text')
      .execute();
    // What the job looks for: due pending changes.
    await db.schema.createIndex('scheduled_changes_due').on('scheduled_changes').columns(['status', 'scheduled_at']).execute();
    await db.schema.createIndex('scheduled_changes_flag').on('scheduled_changes').columns(['flag_id', 'scheduled_at']).execute();
  },
});
