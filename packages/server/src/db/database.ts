import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Database } from './schema';
import { initial } from './migrations/0001-initial';
import { personsAndEvents } from './migrations/0002-persons-events';

export type Dialect = 'sqlite' | 'postgres';

// int8 (bigserial ids, count(*)) as numbers, as SQLite gives them; ids stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Versioned migrations, applied in key order. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return { '0001-initial': initial(dialect), '0002-persons-events': personsAndEvents(dialect) };
}

/** Opens the configured database (PostgreSQL when DATABASE_URL is set, else a SQLite file) and migrates it. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Promise<Db> {
  let kysely: Kysely<Database>;
  let dialect: Dialect;
  if (config.databaseUrl) {
    dialect = 'postgres';
    const schema = config.databaseSchema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid DATABASE_SCHEMA "${schema}"`);
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(config.dataDir, { recursive: true });
    const sqlite = new SQLite(path.join(config.dataDir, 'service.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const migrator = new Migrator({ db: kysely, provider: { getMigrations: async () => migrations(dialect) } });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await kysely.destroy();
    throw error;
  }
  return { kysely, dialect, close: () => kysely.destroy() };
}

/** True when `error` is a unique-constraint violation (optionally on the named column or index). */
export function isUniqueViolation(error: unknown, name?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  const unique = e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
  if (!unique || !name) return unique;
  return Boolean(e.constraint?.includes(name) || e.message?.includes(name));
}
