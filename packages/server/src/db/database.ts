import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Compilable, type Migration } from 'kysely';
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
  /**
   * A read built once by Kysely and run many times with new parameters (in the order the query binds
   * them), for hot paths: on SQLite a prepared statement on a read-only connection (committed data only,
   * never queued behind a write transaction); on PostgreSQL a named prepared statement.
   */
  preparedRead<R>(query: Compilable<R>): (...params: unknown[]) => Promise<R[]>;
  /** Sends `payload` to every process listening on `channel` (PostgreSQL NOTIFY; nothing on SQLite, one process). */
  publish(channel: string, payload: string): Promise<void>;
  /** Calls `onMessage` for each payload on `channel`, and `onGap` after a lost connection, when messages may have been missed. */
  subscribe(channel: string, onMessage: (payload: string) => void, onGap: () => void): void;
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
  let listener: Listener | undefined;
  let pool: pg.Pool | undefined;
  let file: string | undefined;
  if (config.databaseUrl) {
    dialect = 'postgres';
    const schema = config.databaseSchema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid DATABASE_SCHEMA "${schema}"`);
    pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    listener = new Listener(config.databaseUrl);
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(config.dataDir, { recursive: true });
    file = path.join(config.dataDir, 'service.db');
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  }
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: async () => migrations(dialect) },
    // Keep Kysely's bookkeeping tables in the configured schema, not wherever a same-named table exists.
    ...(config.databaseUrl && config.databaseSchema ? { migrationTableSchema: config.databaseSchema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await kysely.destroy();
    throw error;
  }
  const reader = file ? new SQLite(file, { readonly: true }) : undefined;
  let statements = 0;
  return {
    kysely,
    dialect,
    preparedRead<R>(query: Compilable<R>) {
      const text = query.compile().sql;
      if (reader) {
        const statement = reader.prepare(text);
        return async (...params) => statement.all(...params) as R[];
      }
      const name = `prepared_${++statements}`;
      return async (...values) => (await pool!.query({ name, text, values })).rows as R[];
    },
    publish: async (channel, payload) => {
      if (dialect === 'postgres') await sql`select pg_notify(${channel}, ${payload})`.execute(kysely);
    },
    subscribe: (channel, onMessage, onGap) => listener?.subscribe(channel, onMessage, onGap),
    close: async () => {
      reader?.close();
      await listener?.close();
      await kysely.destroy();
    },
  };
}

/** One PostgreSQL connection for LISTEN, reconnected with back-off when it drops. */
class Listener {
  private client: pg.Client | undefined;
  private readonly channels = new Map<string, { onMessage: (payload: string) => void; onGap: () => void }>();
  private closed = false;
  private retryMs = 100;

  constructor(private readonly url: string) {}

  subscribe(channel: string, onMessage: (payload: string) => void, onGap: () => void) {
    this.channels.set(channel, { onMessage, onGap });
    if (this.client) void this.client.query(`LISTEN "${channel}"`).catch(() => undefined);
    else void this.connect();
  }

  private async connect() {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    client.on('notification', (message) => this.channels.get(message.channel)?.onMessage(message.payload ?? ''));
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN "${channel}"`);
      this.retryMs = 100;
    } catch {
      this.reconnect(client);
    }
  }

  private reconnect(client: pg.Client) {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    for (const { onGap } of this.channels.values()) onGap();
    setTimeout(() => void this.connect(), this.retryMs).unref();
    this.retryMs = Math.min(this.retryMs * 2, 5000);
  }

  async close() {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/**
 * Kysely prepares every query afresh; better-sqlite3 statements are reusable, and preparing is a good part
 * of a hot query's cost. Keeps prepared statements by SQL text (bounded: multi-row inserts vary in text).
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= 1000) statements.clear();
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** True when `error` is a unique-constraint violation (optionally on the named column or index). */
export function isUniqueViolation(error: unknown, name?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  const unique = e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
  if (!unique || !name) return unique;
  return Boolean(e.constraint?.includes(name) || e.message?.includes(name));
}
