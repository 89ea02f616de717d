import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required, serialId } from './columns';

/**
 * Cohorts: saved groups of people that flags target. A static cohort lists its distinct ids in `cohort_members`; a
 * dynamic one has filters (person properties, other cohorts, and behavioral leaves: "did event E at least N times in
 * the last D days"), whose event counts ingestion keeps per person and UTC day in `cohort_event_counts`.
 */
export const cohorts = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('cohorts')
      .$call(serialId(dialect, 'serial'))
      .$call(projectId)
      .$call(required({ name: 'text', description: 'text', is_static: 'integer', filters: 'text', deleted: 'integer' }))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .$call(required({ created_at: 'text', updated_at: 'text' }))
      .execute();
    await db.schema.createIndex('cohorts_project').on('cohorts').columns(['project_id', 'deleted']).execute();

    // No foreign keys on the rows of members and counts (as on event rows, migration 0014): on PostgreSQL the check
    // costs a lookup a row, a large part of an upload of a million ids; cohorts are only soft-deleted, and the code
    // writes these rows only for a cohort it has just read.
    await db.schema
      .createTable('cohort_members')
      .$call(required({ cohort_id: 'integer', project_id: 'integer', distinct_id: 'text' }))
      .addPrimaryKeyConstraint('cohort_members_pk', ['cohort_id', 'distinct_id'])
      .execute();
    // `/flags`: the cohorts one distinct id is in.
    await db.schema.createIndex('cohort_members_person').on('cohort_members').columns(['project_id', 'distinct_id']).execute();

    await db.schema
      .createTable('cohort_event_counts')
      .$call(required({ cohort_id: 'integer' }))
      // `leaf`: the behavioral leaf's place among the cohort's behavioral leaves; `day`: days since 1970-01-01 (UTC).
      .$call(required({ leaf: 'integer', project_id: 'integer', distinct_id: 'text', day: 'integer', count: 'integer' }))
      .addPrimaryKeyConstraint('cohort_event_counts_pk', ['cohort_id', 'leaf', 'distinct_id', 'day'])
      .execute();
    await db.schema.createIndex('cohort_event_counts_person').on('cohort_event_counts').columns(['project_id', 'distinct_id']).execute();
    await db.schema.createIndex('cohort_event_counts_day').on('cohort_event_counts').columns(['day']).execute();
  },
});
