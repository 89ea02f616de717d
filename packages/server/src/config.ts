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
  logLevel: string;
  /** Largest accepted request body on the REST API, in bytes. */
  bodyLimit: number;
  /** Requests a minute per personal API key on /api routes. */
  apiRateLimitPerMinute: number;
  /** Largest SDK request body (/flags), compressed or not, in bytes. */
  sdkBodyLimit: number;
  /** Requests a minute per project token on public SDK routes. */
  publicRateLimitPerMinute: number;
  /** Largest body on `/batch/`, compressed or not, in bytes (the other capture paths take sdkBodyLimit). */
  captureBatchBodyLimit: number;
  /** Events accepted but not yet committed above which capture answers 503 with Retry-After. */
  ingestMaxPendingEvents: number;
  /** Trust X-Forwarded-* headers (set behind a reverse proxy). */
  trustProxy: boolean;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: int(env, 'PORT', 8000),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || '.service-data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimit: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    apiRateLimitPerMinute: int(env, 'API_RATE_LIMIT_PER_MINUTE', 480, 1),
    sdkBodyLimit: int(env, 'SDK_BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024),
    publicRateLimitPerMinute: int(env, 'PUBLIC_RATE_LIMIT_PER_MINUTE', 60_000, 1),
    captureBatchBodyLimit: int(env, 'CAPTURE_BATCH_BODY_LIMIT_BYTES', 20 * 1024 * 1024, 1024),
    ingestMaxPendingEvents: int(env, 'INGEST_MAX_PENDING_EVENTS', 100_000, 1),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
  };
}
