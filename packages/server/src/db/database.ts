import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type Compilable,
  type DatabaseConnection,
  type LogEvent,
  type Migration,
} from 'kysely';
import pg from 'pg';
import { siblings } from '../cluster';
import { ConfigError, DEFAULT_DATABASE_TIMEOUT_MS, type Config } from '../config';
import type { Database } from './schema';
import { checkpointInWorker } from './checkpointer';
import { DiskSpace, isDiskFull } from './disk-space';
import { initial } from './migrations/0001-initial';
import { personsAndEvents } from './migrations/0002-persons-events';
import { earlyAccessPayload } from './migrations/0003-early-access-payload';
import { earlyAccessEnrollments } from './migrations/0004-early-access-enrollments';
import { webhooks } from './migrations/0005-webhooks';
import { accounts } from './migrations/0006-accounts';
import { activityLog } from './migrations/0007-activity-log';
import { experiments } from './migrations/0008-experiments';
import { experimentIndexes } from './migrations/0009-experiment-indexes';
import { errorTracking } from './migrations/0010-error-tracking';
import { sourceMaps } from './migrations/0011-source-maps';
import { lz4Compression } from './migrations/0012-lz4-compression';
import { exceptionStacks } from './migrations/0013-exception-stacks';
import { eventRowsWithoutForeignKeys } from './migrations/0014-event-rows-without-foreign-keys';
import { sourceMapScopes } from './migrations/0015-source-map-scopes';
import { passwordResets } from './migrations/0016-password-resets';
import { surveys } from './migrations/0017-surveys';
import { sourceMapParts } from './migrations/0018-source-map-parts';
import { sessionReplay } from './migrations/0019-session-replay';
import { llm } from './migrations/0020-llm';
import { llmPrompts } from './migrations/0021-llm-prompts';
import { llmPayloads } from './migrations/0022-llm-payloads';
import { cohorts } from './migrations/0023-cohorts';
import { scheduledChanges } from './migrations/0024-scheduled-changes';

export type Dialect = 'sqlite' | 'postgres';

// int8 (bigserial ids, count(*)) as numbers, as SQLite gives them; ids stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Where the data is, as it may be printed (`databaseLocation`). */
  location: string;
  /** True when this open created the service's tables: the database was empty. */
  created: boolean;
  /**
   * A read built once by Kysely and run many times with new parameters (in the order the query binds
   * them), for hot paths: on SQLite a prepared statement on a read-only connection (committed data only,
   * never queued behind a write transaction); on PostgreSQL a named prepared statement.
   */
  preparedRead<R>(query: Compilable<R>): (...params: unknown[]) => Promise<R[]>;
  /**
   * Sends `payload` to every other process listening on `channel`: PostgreSQL NOTIFY; on SQLite the other workers of
   * this `service start` (WORKERS), through the primary. Other processes on the same SQLite file do not hear it.
   */
  publish(channel: string, payload: string): Promise<void>;
  /** Calls `onMessage` for each payload on `channel`, and `onGap` once listening again after a lost connection (messages may have been missed). */
  subscribe(channel: string, onMessage: (payload: string) => void, onGap: () => void): void;
  /** True when the database answers a trivial query within the database timeout (for `/_health`). */
  ping(): Promise<boolean>;
  /** Whether writes fail for lack of disk space (for `/_health` and the log). */
  disk: DiskSpace;
  close(): Promise<void>;
}

/** The SQLite file in a data folder. */
export const sqliteFile = (dataDir: string) => path.join(dataDir, 'service.db');

/**
 * Where the configured database is, for people to read, never with a password: `SQLite at /path/service.db`, or
 * `PostgreSQL at host:port/database` (with the schema when one is set).
 */
export function databaseLocation(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): string {
  if (!config.databaseUrl) return `SQLite at ${sqliteFile(config.dataDir)}`;
  const schema = config.databaseSchema ? ` (schema ${config.databaseSchema})` : '';
  try {
    const url = new URL(config.databaseUrl);
    const host = url.searchParams.get('host') ?? (url.hostname || 'localhost');
    return `PostgreSQL at ${host}:${url.searchParams.get('port') ?? (url.port || 5432)}/${decodeURIComponent(url.pathname.slice(1))}${schema}`;
  } catch {
    return `PostgreSQL at DATABASE_URL${schema}`;
  }
}

/** Versioned migrations, applied in key order. */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': initial(dialect),
    '0002-persons-events': personsAndEvents(dialect),
    '0003-early-access-payload': earlyAccessPayload(dialect),
    '0004-early-access-enrollments': earlyAccessEnrollments(dialect),
    '0005-webhooks': webhooks(dialect),
    '0006-accounts': accounts(dialect),
    '0007-activity-log': activityLog(dialect),
    '0008-experiments': experiments(dialect),
    '0009-experiment-indexes': experimentIndexes(),
    '0010-error-tracking': errorTracking(dialect),
    '0011-source-maps': sourceMaps(dialect),
    '0012-lz4-compression': lz4Compression(dialect),
    '0013-exception-stacks': exceptionStacks,
    '0014-event-rows-without-foreign-keys': eventRowsWithoutForeignKeys(dialect),
    '0015-source-map-scopes': sourceMapScopes(dialect),
    '0016-password-resets': passwordResets(),
    '0017-surveys': surveys(dialect),
    '0018-source-map-parts': sourceMapParts(dialect),
    '0019-session-replay': sessionReplay(dialect),
    '0020-llm': llm(dialect),
    '0021-llm-prompts': llmPrompts(dialect),
    '0022-llm-payloads': llmPayloads(dialect),
    '0023-cohorts': cohorts(dialect),
    '0024-scheduled-changes': scheduledChanges(dialect),
  };
}

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else a SQLite file) and migrates it.
 * A lost PostgreSQL connection never ends the process: queries on it fail (see `isUnavailable`) and the
 * pool and the LISTEN connection connect anew.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'> & Partial<Pick<Config, 'databaseTimeoutMs' | 'runsJobs' | 'workers'>>,
): Promise<Db> {
  const timeoutMs = config.databaseTimeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  let kysely: Kysely<Database>;
  let dialect: Dialect;
  let listener: Listener | undefined;
  let pool: pg.Pool | undefined;
  let file: string | undefined;
  let checkpointer: { stop(): Promise<void> } | undefined;
  const disk = new DiskSpace();
  const log = watchDisk(disk);
  if (config.databaseUrl) {
    dialect = 'postgres';
    const schema = config.databaseSchema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new ConfigError(`DATABASE_SCHEMA must be lower-case letters, digits and _, got "${schema}"`);
    const connection: pg.ClientConfig = {
      connectionString: config.databaseUrl,
      // Names the service's sessions in pg_stat_activity unless the URL (or PGAPPNAME) names them.
      fallback_application_name: 'service',
      // Fail fast (503) instead of hanging while the database is down; notice a vanished peer.
      connectionTimeoutMillis: timeoutMs,
      keepAlive: true,
    };
    // Ten connections for the service, shared out among its workers (WORKERS=auto on many cores stays within max_connections).
    const max = Math.max(2, Math.ceil(10 / (config.workers ?? 1)));
    pool = new pg.Pool({ ...connection, max, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
    // A connection lost while idle (terminated backend, restart, failover): the pool drops it and connects anew.
    pool.on('error', () => undefined);
    // ... and while in use: its query fails, and the pool drops it when it comes back.
    pool.on('connect', (client) => client.on('error', () => undefined));
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    listener = new Listener(connection);
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(config.dataDir, { recursive: true });
    file = sqliteFile(config.dataDir);
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${timeoutMs}`);
    // One process checkpoints the WAL for all (the others only commit: no checkpoint inside their commits either).
    if (config.runsJobs === false) sqlite.pragma('wal_autocheckpoint = 0');
    else checkpointer = checkpointInWorker(sqlite, file);
    kysely = new Kysely<Database>({ dialect: new ImmediateSqliteDialect(sqlite, timeoutMs), log });
  }
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: async () => migrations(dialect) },
    // Keep Kysely's bookkeeping tables in the configured schema, not wherever a same-named table exists.
    ...(config.databaseUrl && config.databaseSchema ? { migrationTableSchema: config.databaseSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await checkpointer?.stop();
    await kysely.destroy();
    throw error;
  }
  const reader = file ? new SQLite(file, { readonly: true }) : undefined;
  const snapshot = reader ? new TurnSnapshot(reader) : undefined;
  reader?.pragma(`busy_timeout = ${timeoutMs}`);
  const probe = reader?.prepare('select 1 from sqlite_master limit 1');
  let statements = 0;
  return {
    kysely,
    dialect,
    location: databaseLocation(config),
    created: Boolean(results?.some((r) => r.migrationName === '0001-initial' && r.status === 'Success')),
    preparedRead<R>(query: Compilable<R>) {
      const text = query.compile().sql;
      if (reader) {
        const statement = reader.prepare(text);
        return async (...params) => {
          snapshot!.enter();
          return statement.all(...params) as R[];
        };
      }
      const name = `prepared_${++statements}`;
      return async (...values) => (await pool!.query({ name, text, values })).rows as R[];
    },
    publish: async (channel, payload) => {
      if (dialect === 'postgres') await sql`select pg_notify(${channel}, ${payload})`.execute(kysely);
      else await siblings?.publish(channel, payload);
    },
    subscribe: (channel, onMessage, onGap) => (listener ? listener.subscribe(channel, onMessage, onGap) : siblings?.subscribe(channel, onMessage)),
    ping: () => answersWithin(timeoutMs, async () => (probe ? probe.all() : await pool!.query('select 1'))),
    disk,
    close: async () => {
      reader?.close();
      await listener?.close();
      await checkpointer?.stop();
      await kysely.destroy();
    },
  };
}

/** Kysely's log hook, which sees every query's outcome: a write refused for lack of space marks the disk full, a commit marks it free. */
const watchDisk = (disk: DiskSpace) => (event: LogEvent) => {
  if (event.level === 'error') {
    if (isDiskFull(event.error)) disk.refused();
  } else if (event.query.sql === 'commit') disk.committed();
};

/** True when `check` resolves within `ms`; false when it fails or takes longer. */
async function answersWithin(ms: number, check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([check().then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One PostgreSQL connection for LISTEN, reconnected with back-off when it drops. Once listening again,
 * each channel's `onGap` runs: what was notified while the connection was down is lost.
 */
class Listener {
  private client: pg.Client | undefined;
  private readonly channels = new Map<string, { onMessage: (payload: string) => void; onGap: () => void }>();
  private closed = false;
  private retryMs = 100;
  /** A connection was lost since the channels were last listened to. */
  private lost = false;

  constructor(private readonly connection: pg.ClientConfig) {}

  subscribe(channel: string, onMessage: (payload: string) => void, onGap: () => void) {
    this.channels.set(channel, { onMessage, onGap });
    if (this.client) void this.client.query(`LISTEN "${channel}"`).catch(() => undefined);
    else void this.connect();
  }

  private async connect() {
    if (this.closed) return;
    const client = new pg.Client(this.connection);
    this.client = client;
    client.on('notification', (message) => this.channels.get(message.channel)?.onMessage(message.payload ?? ''));
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN "${channel}"`);
      this.retryMs = 100;
      if (this.lost) {
        this.lost = false;
        for (const { onGap } of this.channels.values()) onGap();
      }
    } catch {
      this.reconnect(client);
    }
  }

  private reconnect(client: pg.Client) {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.lost = true;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
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
 * The read-only connection's reads during one turn of the event loop share one read transaction: SQLite takes and
 * drops its WAL locks (system calls, some microseconds each) once per turn rather than once per read, which counts
 * on `/flags`. A turn's snapshot holds what was committed when it began: it ends when the turn does (`setImmediate`),
 * and before any read that follows a write on this process's connection (`writes`), so a request always reads what
 * was committed before it arrived, and a caller what it has itself just written.
 */
class TurnSnapshot {
  private open = false;
  /** `writes` when the snapshot began. */
  private writesSeen = 0;
  private readonly begin: SQLite.Statement;
  private readonly commit: SQLite.Statement;

  constructor(private readonly reader: SQLite.Database) {
    this.begin = reader.prepare('begin');
    this.commit = reader.prepare('commit');
  }

  /** Makes sure a snapshot taken after the last write of this process is open. */
  enter() {
    if (this.open) {
      if (this.writesSeen === writes.count) return;
      this.end();
    }
    this.begin.run();
    this.open = true;
    this.writesSeen = writes.count;
    setImmediate(this.end);
  }

  private readonly end = () => {
    if (!this.open) return;
    this.open = false;
    // Closed meanwhile (the service stopping): its transaction went with it.
    if (this.reader.open) this.commit.run();
  };
}

/** Statements that change data run on this process's read-write connection (counted, not what they changed). */
const writes = { count: 0 };

/**
 * Kysely's SQLite dialect with transactions begun IMMEDIATE: a transaction takes the write lock at `begin`, waiting
 * up to busy_timeout while another process (the command line, say) writes. A deferred one that read before writing
 * would fail at its first write, without waiting, when another process had committed meanwhile. Workers of one
 * `service start` first wait for their turn through the primary (`siblings.writeTurn`): in order, and without
 * holding the event loop, where SQLite's busy wait sleeps on it.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly timeoutMs: number,
  ) {
    super({ database: sqlite });
  }

  override createDriver() {
    const { sqlite, timeoutMs } = this;
    return new (class extends SqliteDriver {
      /** Ends this worker's turn; one transaction at a time runs on the connection. */
      private endTurn: (() => void) | undefined;

      override async beginTransaction(connection: DatabaseConnection) {
        const endTurn = await siblings?.writeTurn(timeoutMs);
        try {
          await connection.executeQuery(CompiledQuery.raw('begin immediate'));
        } catch (error) {
          endTurn?.();
          throw error;
        }
        this.endTurn = endTurn;
      }

      override async commitTransaction(connection: DatabaseConnection) {
        await super.commitTransaction(connection);
        // A failed commit is rolled back next, which ends the turn.
        this.turnEnded();
      }

      override async rollbackTransaction(connection: DatabaseConnection) {
        try {
          // SQLite rolls a transaction back itself on some errors (a full disk, an I/O error): a ROLLBACK then fails
          // ("cannot rollback - no transaction is active"), and Kysely would throw that instead of the error behind it.
          if (sqlite.inTransaction) await super.rollbackTransaction(connection);
        } finally {
          this.turnEnded();
        }
      }

      private turnEnded() {
        this.endTurn?.();
        this.endTurn = undefined;
      }
    })({ database: withStatementCache(sqlite) });
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
      // Kysely prepares each statement it runs here: one that writes (or commits) ends the readers' turn snapshot.
      if (!statement.reader) writes.count++;
      return statement;
    },
  };
}

/** Node's and PostgreSQL's codes for a database that is down, restarting, refusing or unreachable. */
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
]);
/** pg's messages for a connection that is gone or could not be made in time. */
const lostConnection = /^Connection terminated|timeout exceeded when trying to connect|is not queryable/;
/** SQLite's (extended) codes for a file that is full, locked by another process, failing, read-only or missing. */
const sqliteUnavailable = /^SQLITE_(FULL|BUSY|LOCKED|IOERR|READONLY|CANTOPEN)/;

/**
 * True when `error` means the database cannot be reached or written right now, whatever the request:
 * PostgreSQL down, restarting, failing over, unreachable (connection exceptions, class 08) or out of a resource
 * (class 53: disk, memory, connections), or a SQLite file that is full, locked, failing or read-only. The one place
 * that decides a 503 over a 500.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  return (
    unavailableCodes.has(code) ||
    code.startsWith('08') ||
    code.startsWith('53') ||
    sqliteUnavailable.test(code) ||
    isDiskFull(error) ||
    (typeof e?.message === 'string' && lostConnection.test(e.message))
  );
}

/** True when `error` is a unique-constraint violation (optionally on the named column or index). */
export function isUniqueViolation(error: unknown, name?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  const unique = e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
  if (!unique || !name) return unique;
  return Boolean(e.constraint?.includes(name) || e.message?.includes(name));
}
