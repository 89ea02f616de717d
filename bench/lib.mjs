// Shared pieces of the benchmarks: start the service in its own process, find ports, run autocannon.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildService, spawnService } from '@service/test-support';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';

export { freePort, record } from '@service/test-support';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Stops at once, with what to install, when a command a benchmark runs is missing (`wrk`, `/usr/bin/time`: Debian's packages). */
export function requireCommands(...commands) {
  const missing = commands.filter((command) => {
    try {
      execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (!missing.length) return;
  const packages = missing.map((command) => path.basename(command)).join(' ');
  console.error(`This benchmark runs ${missing.join(' and ')}: install ${missing.length > 1 ? 'them' : 'it'} first (Debian: apt-get install -y ${packages}).`);
  process.exit(1);
}

let built;
/** The service as it is installed and run: its build (see `buildService`), made from the sources once per benchmark run. */
export const serviceBuild = () => (built ??= buildService());

/** Starts `service start` (its build) in a child process on a fresh database, without rate limits; resolves once it listens. */
export async function startService(env = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-bench-'));
  const service = await spawnService(
    {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
      API_RATE_LIMIT_PER_MINUTE: '100000000',
      ...env,
    },
    undefined,
    serviceBuild(),
  );
  return {
    ...service,
    dataDir,
    async stop() {
      await service.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The PostgreSQL benchmarks use (BENCH_DATABASE_URL), each run in a fresh schema. */
export const PG_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export async function postgresReachable() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** `startService` (with more of its environment in `env`) on SQLite, or on a fresh PostgreSQL schema (`schema`) that `stop()` drops. */
export async function startServiceOn(dialect, env = {}) {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const service = await startService({
    ...env,
    ...(dialect === 'postgres' ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } : { DATABASE_URL: '', DATABASE_SCHEMA: '' }),
  });
  return {
    ...service,
    schema,
    async stop() {
      await service.stop();
      if (dialect !== 'postgres') return;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

/**
 * autocannon sending exactly `options.amount` requests, its `duration` the sending's own. autocannon notices the last
 * answer only when it next takes a sample (once a second by default) and counts the wait in the duration: a round of
 * 3.1 s measured as 4 s. Sampled every 10 ms, the duration is right to within that (its per-sample request counts,
 * `requests`, are then per 10 ms: the callers use only counts and latencies).
 */
export const sendAmount = (options) => autocannon({ ...options, sampleInt: 10 });

/** Runs autocannon and returns the figures we report. */
export async function load(options) {
  const result = await autocannon({ connections: 32, duration: 10, ...options });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    total: result.requests.total,
  };
}

export const machine = () =>
  `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

/** Runs each count query (`$1` the project id) on a started service's database, read directly: what was stored. */
export async function countRows(dialect, service, queries) {
  const out = {};
  if (dialect === 'sqlite') {
    const db = new Database(path.join(service.dataDir, 'service.db'), { readonly: true });
    for (const [key, text] of Object.entries(queries)) out[key] = db.prepare(text.replace('$1', '?')).get(service.projectId).n;
    db.close();
    return out;
  }
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${service.schema}` });
  await client.connect();
  for (const [key, text] of Object.entries(queries)) out[key] = Number((await client.query(text, [service.projectId])).rows[0].n);
  await client.end();
  return out;
}
