// npm run bench -- ingest: POST /batch/ (100 events a request, 32 connections) against a started service,
// on SQLite and on PostgreSQL, next to the ceiling of inserting the same rows straight into the same
// database. Every acknowledged event must be stored.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import os from 'node:os';
import path from 'node:path';
import { machine, PG_URL, postgresReachable, record, sendAmount, startServiceOn } from './lib.mjs';

const COMMAND = 'npm run bench -- ingest';
const EVENTS = 100;
const CONNECTIONS = 32;
const SECONDS = 10;
const RAW_SECONDS = 5;
const TEMPLATES = 64;
const DISTINCT_IDS = 10_000;
const NAMES = ['$pageview', '$autocapture', 'signed_up', 'purchase', 'clicked_button', '$pageleave'];

/**
 * Request bodies as posthog-node sends them. Each body is one of TEMPLATES templates (distinct ids drawn
 * from 10k users; one event in ten carries `$set`); `@@@@@@@@` in every uuid becomes the request number.
 */
function bodies(token) {
  const prefix = randomBytes(8).toString('hex');
  const templates = Array.from({ length: TEMPLATES }, (_, t) => {
    const batch = Array.from({ length: EVENTS }, (_, i) => {
      const user = Math.floor(Math.random() * DISTINCT_IDS);
      return {
        uuid: `${prefix.slice(0, 8)}-${prefix.slice(8, 12)}-7${prefix.slice(13, 16)}-8${t.toString(16).padStart(3, '0')}-@@@@@@@@${i.toString(16).padStart(4, '0')}`,
        event: NAMES[(t + i) % NAMES.length],
        distinct_id: `user-${user}`,
        properties: {
          $lib: 'posthog-node',
          $lib_version: '5.8.0',
          $current_url: `https://app.example.com/page/${i % 17}`,
          $session_id: `019a${prefix.slice(0, 4)}-${t}`,
          plan: ['free', 'pro', 'team'][user % 3],
          amount: (user % 97) * 1.5,
          $groups: { company: `company-${user % 50}` },
          ...(i % 10 === 0 ? { $set: { email: `user-${user}@example.com`, plan: ['free', 'pro', 'team'][user % 3] } } : {}),
        },
        timestamp: new Date().toISOString(),
      };
    });
    return JSON.stringify({ api_key: token, batch, sent_at: new Date().toISOString() });
  });
  let n = 0;
  return () => {
    const number = n++;
    return templates[number % TEMPLATES].replaceAll('@@@@@@@@', number.toString(16).padStart(8, '0'));
  };
}

/** Sends exactly `amount` requests (so none is in flight at the end) and counts the answers. */
async function send(url, next, amount) {
  const result = await sendAmount({
    url,
    connections: CONNECTIONS,
    amount,
    requests: [{ method: 'POST', path: '/batch/', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: next() }) }],
  });
  const ok = result.statusCodeStats?.['200']?.count ?? 0;
  return { ok, seconds: result.duration, p50: result.latency.p50, p99: result.latency.p99, failed: amount - ok, errors: result.errors + result.timeouts };
}

/** Rows like the service stores them, for the raw insert ceiling. */
function rawRows(next, projectId) {
  return () => {
    const { batch } = JSON.parse(next());
    const now = new Date().toISOString();
    return batch.map((e) => [projectId, e.uuid.replace('-7', '-6'), e.event, e.distinct_id, JSON.stringify(e.properties), e.timestamp, now]);
  };
}

const placeholders = (rows, dollar) =>
  rows.map((_, r) => `(${Array.from({ length: 7 }, (_, c) => (dollar ? `$${r * 7 + c + 1}` : '?')).join(', ')})`).join(', ');
const INSERT = 'INSERT INTO events (project_id, uuid, event, distinct_id, properties, timestamp, created_at) VALUES ';

/** A tight loop of transactions of `perTransaction` 100-row INSERTs, for `seconds`, straight through better-sqlite3. */
function rawSqlite(file, nextRows, seconds, perTransaction) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare(INSERT + placeholders(Array.from({ length: EVENTS }), false));
  const commit = db.transaction((batches) => {
    for (const rows of batches) insert.run(rows.flat());
  });
  let events = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    commit(Array.from({ length: perTransaction }, nextRows));
    events += EVENTS * perTransaction;
  }
  const elapsed = (performance.now() - start) / 1000;
  db.close();
  return events / elapsed;
}

/** The same through one pg connection: BEGIN, `perTransaction` 100-row INSERTs, COMMIT. */
async function rawPostgres(schema, nextRows, seconds, perTransaction) {
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  const text = INSERT + placeholders(Array.from({ length: EVENTS }), true);
  let events = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    await client.query('BEGIN');
    for (let i = 0; i < perTransaction; i++) await client.query({ name: 'raw-insert', text, values: nextRows().flat() });
    await client.query('COMMIT');
    events += EVENTS * perTransaction;
  }
  const elapsed = (performance.now() - start) / 1000;
  await client.end();
  return events / elapsed;
}

async function countEvents(dialect, service, schema) {
  if (dialect === 'sqlite') {
    const db = new Database(path.join(service.dataDir, 'service.db'), { readonly: true });
    const { n } = db.prepare('SELECT count(*) AS n FROM events WHERE project_id = ?').get(service.projectId);
    db.close();
    return n;
  }
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const { rows } = await client.query(`SELECT count(*)::int AS n FROM ${schema}.events WHERE project_id = $1`, [service.projectId]);
  await client.end();
  return rows[0].n;
}

async function run(dialect) {
  const service = await startServiceOn(dialect);
  const { schema } = service;
  try {
    const next = bodies(service.token);
    const warm = await send(service.url, next, 500);
    const rate = (warm.ok * EVENTS) / warm.seconds;
    const amount = Math.max(200, Math.round((rate / EVENTS) * SECONDS));
    const main = await send(service.url, next, amount);
    const stored = await countEvents(dialect, service, schema);
    const acknowledged = (warm.ok + main.ok) * EVENTS;
    const rows = rawRows(next, service.projectId);
    const ceiling = (perTransaction) =>
      dialect === 'sqlite'
        ? rawSqlite(path.join(service.dataDir, 'service.db'), rows, RAW_SECONDS, perTransaction)
        : rawPostgres(schema, rows, RAW_SECONDS, perTransaction);
    const raw = await ceiling(1);
    const rawGrouped = await ceiling(CONNECTIONS);
    const eventsPerSecond = (main.ok * EVENTS) / main.seconds;
    const result = { dialect, eventsPerSecond, raw, rawGrouped, share: eventsPerSecond / raw, acknowledged, stored, ...main, requests: amount };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await service.stop();
  }
}

export async function main() {
  const load = os.loadavg()[0].toFixed(1);
  const results = [await run('sqlite')];
  if (await postgresReachable()) results.push(await run('postgres'));
  else console.warn(`PostgreSQL not reachable at ${PG_URL}; set BENCH_DATABASE_URL to include it.`);
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const rows = results.map(
    (r) =>
      `| ${r.dialect} | ${fmt(r.eventsPerSecond)} | ${fmt(r.raw)} | **${Math.round(r.share * 100)} %** | ${fmt(r.rawGrouped)} (${Math.round((r.eventsPerSecond / r.rawGrouped) * 100)} %) | ${r.p50} | ${r.p99} | ${r.failed} | ${fmt(r.acknowledged)} | ${fmt(r.stored)} ${r.stored === r.acknowledged ? '✓' : '✗'} |`,
  );
  record(
    'Ingest (issue 4)',
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).
Service in its own process (\`service start\`, SQLite in WAL with synchronous=FULL, or PostgreSQL); autocannon in the bench
process sends \`POST /batch/\` with 100 events a request (posthog-node's shape: uuid, timestamp, 7 properties, one event in ten
with \`$set\`, distinct ids drawn from 10k users) over ${CONNECTIONS} connections: ${EVENTS * 500} events of warm-up, then as many
requests as the warm-up rate gives in about ${SECONDS} s. A 200 comes only after the transaction holding the events has committed
(group commit: concurrent requests share a transaction; persons and groups are applied in it).
Ceiling, right after, for ${RAW_SECONDS} s each: the same rows inserted straight into the same database in a tight loop
(better-sqlite3 with the service's pragmas; one pg connection), one 100-row \`INSERT\` per transaction (the size of a request:
the ceiling of the target), and ${CONNECTIONS} of them per transaction (the most group commit can gather from ${CONNECTIONS} connections).

| database | events/s through HTTP | ceiling: raw, 100 rows/transaction | share | raw, ${CONNECTIONS * EVENTS} rows/transaction (share) | p50 ms | p99 ms | non-200 | acknowledged events | stored events |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

"stored" counts the project's rows in \`events\` after the run; ✓ when it equals 200-answers × 100 (nothing was in flight at the end).
Above 100 % is possible: each raw transaction pays its own commit (an fsync on SQLite), which group commit shares.
The machine is shared; figures move with its load.`,
  );
  if (results.some((r) => r.stored !== r.acknowledged || r.failed)) process.exitCode = 1;
}
