// npm run bench -- sourcemaps: source maps against a started service (its build), on SQLite and on PostgreSQL (issue 29).
// 1. Ingest: the exceptions benchmark's `$exception` bodies (100 events a request, 32 connections) in a project whose
//    maps resolve every frame, against the same bodies in a project without maps, in alternating rounds.
// 2. Upload: a 20 MB map through the REST API, three times: the time to its 201, and the slowest `/_health` answer
//    meanwhile (asked every 20 ms).
// 3. Misses: exceptions sent with the project token, each request's frames in one of five 12 MB maps in turn, with
//    SOURCEMAP_CACHE_BYTES at 12 MB (the five maps' text is five times the cache, and each decodes to more than it):
//    every exception misses the cache. The slowest `/_health` answer and the service's peak resident memory meanwhile.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { encode } from '@jridgewell/sourcemap-codec';
import { bodies } from './exceptions.mjs';
import { machine, PG_URL, postgresReachable, record, sendAmount, startServiceOn } from './lib.mjs';

const COMMAND = 'npm run bench -- sourcemaps';
const EVENTS = 100;
const CONNECTIONS = 32;
const ROUNDS = 3;
const ROUND_REQUESTS = 300;
const UPLOADS = 3;
const MISS_SECONDS = 20;
const MISS_CONNECTIONS = 8;
const MISS_MAPS = 5;
const CACHE_BYTES = 12_000_000;
const ORIGIN = 'https://shop.example.com/assets';
/** The files the exceptions benchmark's frames name (bench/exceptions.mjs `frames`). */
const FILES = ['index-3f9a1c7e.js', 'api-3f9a1c7e.js', 'utils-3f9a1c7e.js', 'vendor-a81b4e2d.js'];

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** One request; resolves with the status and the body. */
function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, agent, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A bundle's map: 3 generated lines mapped every 8 columns into 40 sources of 1,000 lines each (some 2.3 MB). */
function bundleMap() {
  const sources = Array.from({ length: 40 }, (_, i) => `src/module-${i}.ts`);
  const content = (i) => Array.from({ length: 1000 }, (_, l) => `  export const value${i}_${l} = compute(${l}, 'module ${i}');`).join('\n');
  const line = Array.from({ length: 600 }, (_, i) => [8 * i, i % 40, (7 * i) % 1000, 2, i]);
  return JSON.stringify({
    version: 3,
    sources,
    names: line.map((_, i) => `name${i}`),
    mappings: encode([line, line, line]),
    sourcesContent: sources.map((_, i) => content(i)),
  });
}

/** A map of about `bytes` bytes with `contentLines` lines of source: one generated line, a segment a column, each on the next line. */
function largeMap(bytes, contentLines, seed = 0) {
  const content = Array.from({ length: contentLines }, (_, i) => `  const line${i} = ${i + seed};`).join('\n');
  const segments = Math.floor((bytes - content.length) / 5);
  return JSON.stringify({ version: 3, sources: ['src/big.ts'], names: ['big'], mappings: `AAAAA${',CACA'.repeat(segments - 1)}`, sourcesContent: [content] });
}

async function upload(service, projectId, url, map, release = 'bench') {
  const started = performance.now();
  const res = await request(`${service.url}/api/projects/${projectId}/error_tracking/sourcemaps/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ release, url, map }),
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.body.slice(0, 300)}`);
  return performance.now() - started;
}

/** Asks `/_health` every `everyMs` until `done` settles; the answers' times in ms, slowest first. */
async function healthTimes(url, done, everyMs = 20) {
  let finished = false;
  void done.finally(() => (finished = true));
  const times = [];
  while (!finished) {
    const started = performance.now();
    await request(`${url}/_health`);
    times.push(performance.now() - started);
    await sleep(everyMs);
  }
  return times.sort((a, b) => b - a);
}

async function newProject(service, name) {
  const res = await request(`${service.url}/api/projects/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 201) throw new Error(`project answered ${res.status}: ${res.body}`);
  return JSON.parse(res.body);
}

/** Exceptions through /batch/ with and without maps, in alternating rounds: events/s and p99 latency of each. */
async function ingest(service) {
  const mapped = await newProject(service, 'with maps');
  for (const file of FILES) await upload(service, mapped.id, `~/assets/${file}`, bundleMap());
  const kinds = { without: bodies(service.token, 'exceptions'), with: bodies(mapped.api_token, 'exceptions') };
  const totals = { without: { events: 0, seconds: 0, p99: [], failed: {} }, with: { events: 0, seconds: 0, p99: [], failed: {} } };
  const send = (next, amount) =>
    sendAmount({
      url: service.url,
      connections: CONNECTIONS,
      amount,
      requests: [{ method: 'POST', path: '/batch/', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: next() }) }],
    });
  for (const next of Object.values(kinds)) await send(next, 100);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [kind, next] of Object.entries(kinds)) {
      const result = await send(next, ROUND_REQUESTS);
      const ok = result.statusCodeStats?.['200']?.count ?? 0;
      const failed = totals[kind].failed;
      for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) if (status !== '200') failed[status] = (failed[status] ?? 0) + count;
      if (result.timeouts) failed.timeout = (failed.timeout ?? 0) + result.timeouts;
      totals[kind].events += ok * EVENTS;
      totals[kind].seconds += result.duration;
      totals[kind].p99.push(result.latency.p99);
    }
  }
  const rate = (kind) => totals[kind].events / totals[kind].seconds;
  return {
    without: rate('without'),
    with: rate('with'),
    p99: { without: Math.max(...totals.without.p99), with: Math.max(...totals.with.p99) },
    failed: { without: totals.without.failed, with: totals.with.failed },
  };
}

/** Uploads of a 20 MB map: time to 201 and the slowest /_health answer meanwhile, each. */
async function uploads(service) {
  const map = largeMap(20_000_000, 360_000);
  const results = [];
  for (let i = 0; i < UPLOADS; i++) {
    const done = upload(service, service.projectId, `~/assets/upload-${i}.js`, map);
    const health = await healthTimes(service.url, done);
    results.push({ ms: await done, health: health[0] });
  }
  return { bytes: map.length, results };
}

/** Exceptions cycling through five 12 MB maps that miss the cache: /_health and resident memory meanwhile. */
async function misses(service) {
  for (let k = 0; k < MISS_MAPS; k++) await upload(service, service.projectId, `~/assets/big-${k}.js`, largeMap(12_000_000, 100_000, k));
  await sleep(2000);
  const idle = rssMb(service.child.pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(service.child.pid))), 50);
  let n = 0;
  const body = () => {
    const k = n++ % MISS_MAPS;
    const frames = [1, 2, 3].map((f) => ({ filename: `${ORIGIN}/big-${k}.js`, function: `f${f}`, lineno: 1, colno: 1000 * f + n, in_app: true }));
    const batch = Array.from({ length: 10 }, (_, i) => ({
      event: '$exception',
      distinct_id: `user-${i}`,
      properties: { $exception_list: [{ type: 'Error', value: `miss ${k}`, stacktrace: { type: 'raw', frames } }] },
    }));
    return JSON.stringify({ api_key: service.token, batch });
  };
  // autocannon's instance is a thenable, not a promise.
  const sending = Promise.resolve(
    sendAmount({
      url: service.url,
      connections: MISS_CONNECTIONS,
      duration: MISS_SECONDS,
      requests: [{ method: 'POST', path: '/batch/', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: body() }) }],
    }),
  );
  const health = await healthTimes(service.url, sending, 50);
  const result = await sending;
  clearInterval(sampler);
  return {
    requests: result.requests.total,
    ok: result.statusCodeStats?.['200']?.count ?? 0,
    health: { slowest: health[0], p99: health[Math.floor(health.length / 100)], answers: health.length },
    idle,
    peak,
  };
}

async function run(dialect) {
  const service = await startServiceOn(dialect, { SOURCEMAP_CACHE_BYTES: String(CACHE_BYTES) });
  try {
    const result = { dialect };
    for (const [part, measure] of Object.entries({ ingest, uploads, misses })) {
      result[part] = await measure(service);
      console.log(JSON.stringify({ dialect, [part]: result[part] }));
    }
    return result;
  } finally {
    await service.stop();
  }
}

/**
 * This benchmark run on the code before the worker thread (commit cce99ea: maps parsed and checked on the event loop,
 * the cache counted by their text), minutes before the figures of this commit, on the same machine; filled in by hand.
 */
const BEFORE = {
  ingest: [
    '| before (cce99ea) | sqlite | 1,588 | 1,061 | **67 %** | 4,566 | 7,829 | none / 10 × timeout |',
    '| before (cce99ea) | postgres | 1,429 | 1,169 | **82 %** | 4,471 | 6,050 | none / none |',
  ],
  uploads: [
    '| before (cce99ea) | sqlite | 5,888 / 5,191 / 3,477 | 2,858 / 2,521 / 1,529 |',
    '| before (cce99ea) | postgres | 7,398 / 8,171 / 5,186 | 3,985 / 5,669 / 2,576 |',
  ],
  misses: [
    '| before (cce99ea) | sqlite | 3 (3) | **9,232** | 9,232 | 10 | 483 | **1,223** |',
    '| before (cce99ea) | postgres | 0 (0) | **3,474** | 3,474 | 18 | 379 | **1,242** |',
  ],
};

/** What the runs of this commit's date say (written by hand; rerunning the command does not change it). */
const ANALYSIS = `Both runs at load averages of 11 to 19 on the 2 cores (other test suites running): every process got a fraction of
a core, and a \`/_health\` answer waits for the service's event loop to be scheduled at all, so the 300 ms goal cannot be shown
on this machine at this load. Under the same load, while maps missed the cache, the slowest \`/_health\` answer fell from
3.5–9.2 s to 0.8–2.0 s (99th percentile 3.5–9.2 s to 0.5–1.7 s, with 7 to 20 times as many answers in the 20 s) and the peak
memory from 1.2 GB to 0.5 GB; while a 20 MB map was uploaded, from 1.5–5.7 s to 0.5–1.6 s. Uploads themselves took
longer: the worker thread runs at a lower priority than the event loop, so on a saturated machine it waits for a core.
What the event loop still does for an upload: the row's insert (SQLite writes the 20 MB on it) and two copies of the
map's text between the threads (the body parsed in the worker comes back with it, and goes to the worker again to be
decoded); for a miss, reading the map's bytes, which are then moved to the worker without a copy.`;

export async function main() {
  const load = os.loadavg()[0].toFixed(1);
  const results = [await run('sqlite')];
  if (await postgresReachable()) results.push(await run('postgres'));
  else console.warn(`PostgreSQL not reachable at ${PG_URL}; set BENCH_DATABASE_URL to include it.`);
  agent.destroy();
  report(results, load);
}

/** Writes the section of bench/RESULTS.md from the runs' results (the JSON lines `run` prints, merged by dialect) and the load average at start. */
export function report(results, load) {
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const pct = (n) => `${Math.round(n * 100)} %`;
  const failures = (byStatus) =>
    Object.entries(byStatus)
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ') || 'none';
  const rows = (before, now) => [...before, ...now.map((row) => `| this commit ${row}`)].join('\n');
  record(
    'Source maps (issue 29)',
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).
The service (its build, \`service start\`) in its own process, \`SOURCEMAP_CACHE_BYTES\` ${CACHE_BYTES / 1e6} MB, the other settings their defaults.
"before (cce99ea)": this benchmark on the code before the worker thread (maps parsed and checked on the event loop, the
cache counted by their text), run minutes before on the same machine, its figures filled in by hand.

Ingest: the exceptions benchmark's bodies (\`npm run bench -- exceptions\`: 100 \`$exception\` events a request of 10–20 frames in
four hashed files, ${CONNECTIONS} connections) sent to a project with a map uploaded for each file (2.3 MB each: 40 sources' content,
every frame resolved, fingerprinted again and stored with its source context) and to one without maps, ${ROUNDS} alternating rounds
of ${ROUND_REQUESTS} requests after 100 of warm-up each.

| code | database | without maps, events/s | with maps, events/s | with / without | p99 without, ms | p99 with, ms | not answered 200 (without / with) |
| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |
${rows(
  BEFORE.ingest,
  results.map(
    (r) =>
      `| ${r.dialect} | ${fmt(r.ingest.without)} | ${fmt(r.ingest.with)} | **${pct(r.ingest.with / r.ingest.without)}** | ${fmt(r.ingest.p99.without)} | ${fmt(r.ingest.p99.with)} | ${failures(r.ingest.failed.without)} / ${failures(r.ingest.failed.with)} |`,
  ),
)}

Upload: a ${(results[0].uploads.bytes / 1e6).toFixed(1)} MB map (2.3 million segments, 360,000 lines of source) through
\`POST /api/projects/:id/error_tracking/sourcemaps/\`, ${UPLOADS} times; meanwhile \`GET /_health\` every 20 ms on another connection.

| code | database | upload answered after, ms | slowest /_health answer meanwhile, ms |
| --- | --- | --- | --- |
${rows(
  BEFORE.uploads,
  results.map((r) => `| ${r.dialect} | ${r.uploads.results.map((u) => fmt(u.ms)).join(' / ')} | ${r.uploads.results.map((u) => fmt(u.health)).join(' / ')} |`),
)}

Misses: ${MISS_MAPS} maps of 12 MB each (2 million segments; each decodes to some 40 MB, more than the cache) and exceptions
sent with the project token for ${MISS_SECONDS} s over ${MISS_CONNECTIONS} connections, each request 10 events whose 3 frames are in one
of the maps, the next request the next map: every map a request needs is missing from the cache, so each is loaded and
decoded, as far as \`SOURCEMAP_LOAD_BYTES_PER_SECOND\` (16 MB a second by default) lets the project; frames past it stay
unresolved with \`resolve_failure\`. Meanwhile \`GET /_health\` every 50 ms, and the service's resident memory (VmRSS, all
its threads) every 50 ms. Goal: \`/_health\` within 300 ms, memory under 1.5 GB.

| code | database | requests answered (200) | slowest /_health, ms | 99th percentile, ms | /_health answers | idle MB | peak MB |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows(
  BEFORE.misses,
  results.map(
    (r) =>
      `| ${r.dialect} | ${fmt(r.misses.requests)} (${fmt(r.misses.ok)}) | **${fmt(r.misses.health.slowest)}** | ${fmt(r.misses.health.p99)} | ${r.misses.health.answers} | ${fmt(r.misses.idle)} | **${fmt(r.misses.peak)}** |`,
  ),
)}

${ANALYSIS}

The machine is shared; figures move with its load.`,
  );
}
