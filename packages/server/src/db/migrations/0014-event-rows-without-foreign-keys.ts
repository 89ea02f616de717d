import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';

/** The foreign keys PostgreSQL checked for every event stored: the event's project, and an exception's rows. */
const CHECKED_PER_EVENT: [table: string, constraint: string][] = [
  ['events', 'events_project_id_fkey'],
  ['exception_stacks', 'exception_stacks_project_id_fkey'],
  ['error_tracking_occurrences', 'error_tracking_occurrences_project_id_fkey'],
  ['error_tracking_occurrences', 'error_tracking_occurrences_issue_id_fkey'],
  ['error_tracking_issue_people', 'error_tracking_issue_people_issue_id_fkey'],
];

/**
 * PostgreSQL checks a foreign key with a lookup and a lock of the referenced row for every row inserted: for every event
 * its project, and for an exception its project and issue again. Those checks were a seventh of the database's CPU per
 * plain event and a fifth per exception (bench/RESULTS.md), and they guard nothing the code does not: ingestion writes
 * these rows for a project whose token it has just resolved and for the issues it has just found or made, both under
 * the project's ingest lock; projects are never deleted; a merge moves an issue's rows before deleting it, under the
 * same lock. Other tables keep theirs. SQLite checks a key with a lookup alone (the same benchmark with its checks
 * off: within the spread), and can drop one only by copying its table: it keeps them.
 */
export const eventRowsWithoutForeignKeys = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    for (const [table, constraint] of CHECKED_PER_EVENT) {
      await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.ref(constraint)}`.execute(db);
    }
  },
});
