import { sql } from 'kysely';
import type { Dialect } from './database';
import type { Executor } from './schema';

/** Lock id (first half) of a project's ingestion on PostgreSQL; the second half is the project's id. */
export const INGEST_LOCK = 4_004_001;

/**
 * Holds the project's ingest lock until the transaction ends: one instance at a time stores the project's events, and
 * changes that must not interleave with them (an issue merge) wait their turn. SQLite has one writer at a time anyway.
 */
export async function lockIngest(tx: Executor, dialect: Dialect, projectId: number): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${INGEST_LOCK}, ${projectId})`.execute(tx);
}
