import os from 'node:os';
import path from 'node:path';

/** Typed configuration, read from the environment once at start. Nothing else reads process.env. */
export interface Config {
  port: number;
  host: string;
  /** Folder of the SQLite file when no DATABASE_URL is set. */
  dataDir: string;
  /** PostgreSQL connection string; SQLite is used when empty. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (tests use a fresh one per run). */
  databaseSchema: string | undefined;
  /**
   * How long a request waits for the database (a new PostgreSQL connection, a SQLite file another process
   * has locked) before it answers 503; also the bound on `/_health`'s check. Milliseconds.
   */
  databaseTimeoutMs: number;
  logLevel: string;
  /** Largest accepted request body on the REST API, in bytes. */
  bodyLimit: number;
  /** Requests a minute per personal API key on /api routes. */
  apiRateLimitPerMinute: number;
  /** Largest SDK request body (/flags), compressed or not, in bytes. */
  sdkBodyLimit: number;
  /** Requests a minute per project token on public SDK routes. */
  publicRateLimitPerMinute: number;
  /** Failed authentications (401) a minute per client address; past it every request from the address gets 429. */
  authFailureLimitPerMinute: number;
  /** Largest body on `/batch/`, compressed or not, in bytes (the other capture paths take sdkBodyLimit). */
  captureBatchBodyLimit: number;
  /** Events accepted but not yet committed above which capture answers 503 with Retry-After. */
  ingestMaxPendingEvents: number;
  /** SDK bodies over 1 MB (read or inflated) decoded at once; more wait a second for a turn, then get 503. */
  sdkMaxConcurrentLargeBodies: number;
  /** Largest event, serialized (properties JSON, name and distinct id, UTF-8), in bytes; larger ones are refused. */
  eventMaxBytes: number;
  /** Trust X-Forwarded-* headers (set behind a reverse proxy). */
  trustProxy: boolean;
  /** Mark the session cookie Secure on every response (else only on https requests: TLS, or X-Forwarded-Proto with trustProxy). */
  cookieSecure: boolean;
  /** Time a client has to send a request's headers, in milliseconds; then 408 and the connection is closed. */
  headersTimeoutMs: number;
  /** Time a client has to send a whole request (headers and body), in milliseconds; then 408 and the connection is closed. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many milliseconds. */
  keepAliveTimeoutMs: number;
  /** A connection with no traffic for this many milliseconds while a request is open is closed. */
  connectionTimeoutMs: number;
  /** Webhooks may target loopback and private addresses (tests, a receiver on the same network). */
  webhookAllowPrivate: boolean;
  /** How often the webhook outbox is looked at for due deliveries, in milliseconds. */
  webhookPollMs: number;
  /** The wait after a webhook delivery's first failed attempt, in milliseconds; it doubles with each attempt, up to an hour. */
  webhookRetryBaseMs: number;
  /** Largest source map upload body (after gzip is inflated), in bytes. */
  sourcemapMaxBytes: number;
  /** Largest minified file uploaded beside its source map, in bytes. */
  sourcemapMaxSourceBytes: number;
  /** Decoded source maps kept in memory, counted by the memory they take, in bytes; the least recently used past it are dropped. */
  sourcemapCacheBytes: number;
  /** Segments a source map's `mappings` may have; past it an upload gets 413. */
  sourcemapMaxSegments: number;
  /** Lines a source map may have, of its generated file and its sources' content together; past it an upload gets 413. */
  sourcemapMaxLines: number;
  /** Bytes of stored source maps one project's exceptions may load a second when the maps are not in the cache. */
  sourcemapLoadBytesPerSecond: number;
  /** Processes serving requests (`WORKERS`; `auto`: one per core); more than one runs a primary that forks them with `node:cluster`. */
  workers: number;
  /** Projects whose compiled flags are kept in memory; the least recently used past it are dropped. */
  flagCacheProjects: number;
  /** Open `/flags/stream` streams a project may have on each process; past it a new one gets 429. */
  streamMaxConnectionsPerToken: number;
  /** Where session replay blocks are written as files; unset: in the database (`replay_blobs`). */
  replayStorageDir: string | undefined;
  /** Days a recorded session is kept after it ended; the retention job deletes older ones. */
  replayRetentionDays: number;
  /** Largest `/s/` (session replay) body, compressed or not, in bytes. */
  replayBodyLimit: number;
  /**
   * Whether this process runs the jobs that must run once per SQLite database (the webhook deliveries, the WAL
   * checkpointer). Not a setting: `service start` with several workers clears it in all but one (`SERVICE_WORKER_JOBS=0`).
   */
  runsJobs: boolean;
}

/** `DATABASE_TIMEOUT_MS` when unset. */
export const DEFAULT_DATABASE_TIMEOUT_MS = 5000;

/** `SOURCEMAP_MAX_BYTES` when unset: the maps of large bundles are several MB. */
export const DEFAULT_SOURCEMAP_MAX_BYTES = 20 * 1024 * 1024;
/** `SOURCEMAP_MAX_SOURCE_BYTES` when unset: reading a file's functions takes some 30 bytes of the worker's memory a byte. */
export const DEFAULT_SOURCEMAP_MAX_SOURCE_BYTES = 8 * 1024 * 1024;
/** `SOURCEMAP_CACHE_BYTES` when unset: a decoded map takes 20 bytes a segment, 4 a line, and its strings' UTF-8. */
export const DEFAULT_SOURCEMAP_CACHE_BYTES = 128 * 1024 * 1024;
/** `SOURCEMAP_MAX_SEGMENTS` when unset: `mappings` take some 7 bytes a segment (posthog-js's, babel's parser's), so a map of SOURCEMAP_MAX_BYTES holds about this many. */
export const DEFAULT_SOURCEMAP_MAX_SEGMENTS = 3_000_000;
/** `SOURCEMAP_MAX_LINES` when unset. */
export const DEFAULT_SOURCEMAP_MAX_LINES = 2_000_000;
/** `SOURCEMAP_LOAD_BYTES_PER_SECOND` when unset. */
export const DEFAULT_SOURCEMAP_LOAD_BYTES_PER_SECOND = 16 * 1024 * 1024;

/** `REPLAY_RETENTION_DAYS` when unset. */
export const DEFAULT_REPLAY_RETENTION_DAYS = 30;
/** `REPLAY_BODY_LIMIT_BYTES` when unset: PostHog's `/s` limit. */
export const DEFAULT_REPLAY_BODY_LIMIT = 25 * 1024 * 1024;

/** `FLAG_CACHE_PROJECTS` when unset: 1,000 projects of 50 flags (some 180 KB each) fit with room to spare. */
export const DEFAULT_FLAG_CACHE_PROJECTS = 2000;

/** `STREAM_MAX_CONNECTIONS_PER_TOKEN` when unset: a stream takes a few KB of the process's memory. */
export const DEFAULT_STREAM_MAX_CONNECTIONS_PER_TOKEN = 1000;

export class ConfigError extends Error {}

/** `WORKERS`: a positive integer, or `auto` for one per core. */
function workers(env: NodeJS.ProcessEnv): number {
  const raw = env.WORKERS;
  if (raw === 'auto') return os.availableParallelism();
  if (raw && !/^[1-9]\d*$/.test(raw)) throw new ConfigError(`WORKERS must be a positive integer or auto, got "${raw}"`);
  return int(env, 'WORKERS', 1, 1);
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const headersTimeoutMs = int(env, 'HEADERS_TIMEOUT_MS', 10_000, 1);
  const requestTimeoutMs = int(env, 'REQUEST_TIMEOUT_MS', 30_000, 1);
  if (headersTimeoutMs > requestTimeoutMs) throw new ConfigError(`HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  return {
    port: int(env, 'PORT', 8000),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || '.service-data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    databaseTimeoutMs: int(env, 'DATABASE_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUT_MS, 1),
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimit: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    apiRateLimitPerMinute: int(env, 'API_RATE_LIMIT_PER_MINUTE', 480, 1),
    sdkBodyLimit: int(env, 'SDK_BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024),
    publicRateLimitPerMinute: int(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE', 60_000, 1),
    authFailureLimitPerMinute: int(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE', 60, 1),
    captureBatchBodyLimit: int(env, 'CAPTURE_BATCH_BODY_LIMIT_BYTES', 20 * 1024 * 1024, 1024),
    ingestMaxPendingEvents: int(env, 'INGEST_MAX_PENDING_EVENTS', 100_000, 1),
    sdkMaxConcurrentLargeBodies: int(env, 'SDK_MAX_CONCURRENT_LARGE_BODIES', 4, 1),
    eventMaxBytes: int(env, 'EVENT_MAX_BYTES', 1024 * 1024, 1024),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    cookieSecure: env.COOKIE_SECURE === 'true' || env.COOKIE_SECURE === '1',
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1),
    connectionTimeoutMs: int(env, 'CONNECTION_TIMEOUT_MS', 60_000, 1),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true' || env.WEBHOOK_ALLOW_PRIVATE === '1',
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 1000, 10),
    webhookRetryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 30_000, 1),
    sourcemapMaxBytes: int(env, 'SOURCEMAP_MAX_BYTES', DEFAULT_SOURCEMAP_MAX_BYTES, 1024),
    sourcemapMaxSourceBytes: int(env, 'SOURCEMAP_MAX_SOURCE_BYTES', DEFAULT_SOURCEMAP_MAX_SOURCE_BYTES, 1024),
    sourcemapCacheBytes: int(env, 'SOURCEMAP_CACHE_BYTES', DEFAULT_SOURCEMAP_CACHE_BYTES, 1024 * 1024),
    sourcemapMaxSegments: int(env, 'SOURCEMAP_MAX_SEGMENTS', DEFAULT_SOURCEMAP_MAX_SEGMENTS, 1),
    sourcemapMaxLines: int(env, 'SOURCEMAP_MAX_LINES', DEFAULT_SOURCEMAP_MAX_LINES, 1),
    sourcemapLoadBytesPerSecond: int(env, 'SOURCEMAP_LOAD_BYTES_PER_SECOND', DEFAULT_SOURCEMAP_LOAD_BYTES_PER_SECOND, 1024),
    workers: workers(env),
    flagCacheProjects: int(env, 'FLAG_CACHE_PROJECTS', DEFAULT_FLAG_CACHE_PROJECTS, 1),
    streamMaxConnectionsPerToken: int(env, 'STREAM_MAX_CONNECTIONS_PER_TOKEN', DEFAULT_STREAM_MAX_CONNECTIONS_PER_TOKEN, 1),
    replayStorageDir: env.REPLAY_STORAGE_DIR ? path.resolve(env.REPLAY_STORAGE_DIR) : undefined,
    replayRetentionDays: int(env, 'REPLAY_RETENTION_DAYS', DEFAULT_REPLAY_RETENTION_DAYS, 1),
    replayBodyLimit: int(env, 'REPLAY_BODY_LIMIT_BYTES', DEFAULT_REPLAY_BODY_LIMIT, 1024),
    runsJobs: env.SERVICE_WORKER_JOBS !== '0',
  };
}
