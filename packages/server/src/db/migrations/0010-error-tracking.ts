import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required, serialId } from './columns';

/**
 * Error tracking: issues (an id, name, description, status and the counts the list sorts by), the
 * fingerprints that map to each (a merge moves them), one occurrence per stored `$exception` event (its issue, who,
 * when; the event itself stays in `events`), and the people (distinct ids) an issue affected, with their counts.
 */
export const errorTracking = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('error_tracking_issues')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call(projectId)
      .$call(required({ name: 'text', description: 'text', status: 'text', first_seen: 'text', last_seen: 'text' }))
      .$call(required({ occurrences: 'bigint', people: 'bigint' }))
      .addColumn('regressed_at', 'text')
      .$call(required({ created_at: 'text', updated_at: 'text' }))
      .execute();
    // The list, by each of its orders (status filtered or not).
    for (const order of ['last_seen', 'occurrences', 'people'] as const) {
      await db.schema.createIndex(`error_tracking_issues_${order}`).on('error_tracking_issues').columns(['project_id', order]).execute();
      await db.schema.createIndex(`error_tracking_issues_status_${order}`).on('error_tracking_issues').columns(['project_id', 'status', order]).execute();
    }
    await db.schema
      .createTable('error_tracking_fingerprints')
      .$call(projectId)
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('issue_id', 'text', (c) => c.notNull().references('error_tracking_issues.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('error_tracking_fingerprints_pk', ['project_id', 'fingerprint'])
      .execute();
    await db.schema.createIndex('error_tracking_fingerprints_issue').on('error_tracking_fingerprints').column('issue_id').execute();
    await db.schema
      .createTable('error_tracking_occurrences')
      .$call(serialId(dialect, 'bigserial'))
      .$call(projectId)
      .addColumn('issue_id', 'text', (c) => c.notNull().references('error_tracking_issues.id').onDelete('cascade'))
      .$call(required({ event_uuid: 'text', distinct_id: 'text', timestamp: 'text' }))
      .execute();
    // An issue's events newest first, and its volume over a time range.
    await db.schema.createIndex('error_tracking_occurrences_issue_time').on('error_tracking_occurrences').columns(['issue_id', 'timestamp']).execute();
    await db.schema
      .createTable('error_tracking_issue_people')
      .addColumn('issue_id', 'text', (c) => c.notNull().references('error_tracking_issues.id').onDelete('cascade'))
      .$call(required({ distinct_id: 'text', occurrences: 'bigint', last_seen: 'text' }))
      .addPrimaryKeyConstraint('error_tracking_issue_people_pk', ['issue_id', 'distinct_id'])
      .execute();
    // No index on occurrences: every exception updates it (PostgreSQL updates such rows in place, HOT, only while no
    // index covers the changed columns); an issue's people are sorted from its primary key range when listed.
  },
});
