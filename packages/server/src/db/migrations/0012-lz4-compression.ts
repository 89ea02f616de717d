import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';

/** The columns whose values are often past PostgreSQL's 2 KB TOAST threshold: events' properties (an exception's are some 3 KB), source maps. */
const LARGE_TEXT: [table: string, column: string][] = [
  ['events', 'properties'],
  ['source_maps', 'map'],
  ['source_maps', 'source'],
];

/**
 * PostgreSQL compresses a value past some 2 KB before storing it, with pglz unless told otherwise; lz4 (PostgreSQL 14
 * and later, when built with it, as the common packages are) takes less of the database's CPU to compress and read
 * back: for rows of `$exception` events, some fifth less of the database's CPU per insert (bench/RESULTS.md). Values
 * stored before keep their compression until rewritten; both read back alike. Nothing to do on SQLite, or on a server
 * without lz4.
 */
export const lz4Compression = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    const { rows } = await sql<{ lz4: boolean }>`
      select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
    if (!rows[0]?.lz4) return;
    for (const [table, column] of LARGE_TEXT) await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set compression lz4`.execute(db);
  },
});
