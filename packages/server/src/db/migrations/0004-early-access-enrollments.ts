import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required } from './columns';

/**
 * Enrollment records: the latest opt-in or opt-out of each person (by distinct id) or group in each early access
 * feature, written by ingestion from `$feature_enrollment_update` events.
 */
export const earlyAccessEnrollments = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    void dialect;
    await db.schema
      .createTable('early_access_enrollments')
      .$call(projectId)
      .addColumn('feature_id', 'text', (c) => c.notNull().references('early_access_features.id').onDelete('cascade'))
      // '' for a person; the group type's name for a group.
      .addColumn('group_type', 'text', (c) => c.notNull())
      // The distinct id of a person, or the key of a group.
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('distinct_id', 'text')
      .addColumn('person_uuid', 'text')
      .addColumn('group_key', 'text')
      .$call(required({ enrolled: 'integer', stage: 'text', updated_at: 'text' }))
      .addPrimaryKeyConstraint('early_access_enrollments_pk', ['feature_id', 'group_type', 'key'])
      .execute();
    await db.schema.createIndex('early_access_enrollments_feature_time').on('early_access_enrollments').columns(['feature_id', 'updated_at']).execute();
  },
});
