// npm run bench -- exceptions: ingest throughput of `$exception` events next to plain events, in one run, through
// POST /batch/ (100 events a request, 32 connections) against a started service, on SQLite and on PostgreSQL.
// The target: exceptions at 80 % or more of the plain rate (what was measured and changed on the way: bench/RESULTS.md).
// Every acknowledged event must be stored, and every stored exception must belong to an issue.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { countRows, machine, PG_URL, postgresReachable, record, sendAmount, startServiceOn } from './lib.mjs';

const COMMAND = 'npm run bench -- exceptions';
const EVENTS = 100;
const CONNECTIONS = 32;
/** Each kind runs in ROUNDS alternating rounds of about ROUND_SECONDS, so that a change in the machine's load hits both. */
const ROUNDS = 3;
const ROUND_SECONDS = 4;
const TEMPLATES = 64;
const DISTINCT_IDS = 10_000;
/**
 * Plain events; `$exception` events; the same exceptions with the throw site alone as their stack (`oneFrame`: what an
 * exception costs when its list costs next to nothing to read); and the exception payloads under another event name
 * (`client_error`), stored as plain events.
 */
const KINDS = ['plain', 'exceptions', 'oneFrame', 'payload'];
const NAMES = ['$pageview', '$autocapture', 'signed_up', 'purchase', 'clicked_button', '$pageleave'];

/** A few distinct errors of a React shop, as posthog-js reports them: type, message, the throw site's function and file. */
const ERRORS = [
  ['TypeError', "Cannot read properties of undefined (reading 'price')", 'computeTotal', 'index'],
  ['TypeError', 'items.map is not a function', 'CartList', 'index'],
  ['Error', 'Request failed with status code 502', 'fetchCart', 'api'],
  ['RangeError', 'Invalid time value', 'formatDate', 'utils'],
  ['SyntaxError', 'Unexpected token < in JSON at position 0', 'parseResponse', 'api'],
];
const FRAMEWORK = ['callCallback', 'invokeGuardedCallbackDev', 'invokeGuardedCallback', 'dispatchEvent', 'batchedUpdates', 'commitRoot', 'performWork'];

/** A stack of 10 to 20 frames, oldest first, throw site last (posthog-js's order), in the hashed files of one build. */
function frames(error) {
  const [, , fn, chunk] = error;
  const origin = 'https://shop.example.com/assets';
  // Each error has its own stack (10 to 20 frames); the same error always the same one.
  const count = 10 + ((ERRORS.indexOf(error) * 5) % 11);
  return Array.from({ length: count }, (_, f) => {
    const app = f >= count - 3;
    return {
      platform: 'web:javascript',
      filename: app ? `${origin}/${chunk}-3f9a1c7e.js` : `${origin}/vendor-a81b4e2d.js`,
      function: app ? (f === count - 1 ? fn : `HTMLButtonElement.handle${f}`) : FRAMEWORK[f % FRAMEWORK.length],
      lineno: 1 + (f % 3),
      colno: 1000 + f * 137,
      in_app: true,
    };
  });
}

const common = (prefix, t, i, user) => ({
  $lib: 'web',
  $lib_version: '1.290.0',
  $current_url: `https://shop.example.com/page/${i % 17}`,
  $browser: ['Chrome', 'Firefox', 'Safari'][user % 3],
  $os: 'Mac OS X',
  $session_id: `019a${prefix.slice(0, 4)}-${t}`,
});

/**
 * Request bodies of one kind: plain events as the ingest benchmark's (7 properties, one in ten with `$set`), or
 * `$exception` events as posthog-js sends them (`oneFrame`: the throw site alone; `payload`: named `client_error`).
 * `@@@@@@@@` in every uuid becomes the kind's digit (its index in KINDS) and the request number.
 */
export function bodies(token, kind) {
  const prefix = randomBytes(8).toString('hex');
  const templates = Array.from({ length: TEMPLATES }, (_, t) => {
    const batch = Array.from({ length: EVENTS }, (_, i) => {
      const user = Math.floor(Math.random() * DISTINCT_IDS);
      const uuid = `${prefix.slice(0, 8)}-${prefix.slice(8, 12)}-7${prefix.slice(13, 16)}-8${t.toString(16).padStart(3, '0')}-@@@@@@@@${i.toString(16).padStart(4, '0')}`;
      const base = { uuid, distinct_id: `user-${user}`, timestamp: new Date().toISOString() };
      if (kind === 'plain') {
        return {
          ...base,
          event: NAMES[(t + i) % NAMES.length],
          properties: {
            ...common(prefix, t, i, user),
            plan: ['free', 'pro', 'team'][user % 3],
            amount: (user % 97) * 1.5,
            ...(i % 10 === 0 ? { $set: { email: `user-${user}@example.com` } } : {}),
          },
        };
      }
      const error = ERRORS[(t + i) % ERRORS.length];
      return {
        ...base,
        event: kind === 'payload' ? 'client_error' : '$exception',
        properties: {
          ...common(prefix, t, i, user),
          $exception_list: [
            {
              type: error[0],
              value: error[1],
              mechanism: { type: 'onerror', handled: false, synthetic: false },
              stacktrace: { type: 'raw', frames: kind === 'oneFrame' ? frames(error).slice(-1) : frames(error) },
            },
          ],
          $exception_level: 'error',
          $exception_steps: [{ $message: 'Checkout clicked', $timestamp: new Date().toISOString(), $type: 'click' }],
        },
      };
    });
    return JSON.stringify({ api_key: token, batch, sent_at: new Date().toISOString() });
  });
  let n = 0;
  const tag = String(KINDS.indexOf(kind));
  return () => {
    const number = n++;
    return templates[number % TEMPLATES].replaceAll('@@@@@@@@', `${tag}${number.toString(16).padStart(7, '0')}`);
  };
}

/** CPU seconds the process `pid` (all its threads) has used, from /proc (Linux); undefined elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds PostgreSQL's server processes on this machine (all of them: its backends, WAL writer, checkpointer) have
 * used, from /proc; undefined where there is none to read (another machine's server, or not Linux).
 */
function postgresCpuSeconds() {
  let total;
  for (const pid of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total = (total ?? 0) + (cpuSeconds(pid) ?? 0);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * Sends exactly `amount` requests (so none is in flight at the end) and counts the answers, with the CPU time the
 * service and this process (the load generator) used meanwhile.
 */
async function send(service, next, amount) {
  const before = cpuSeconds(service.child.pid);
  const databaseBefore = postgresCpuSeconds();
  const own = process.cpuUsage();
  const result = await sendAmount({
    url: service.url,
    connections: CONNECTIONS,
    amount,
    requests: [{ method: 'POST', path: '/batch/', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: next() }) }],
  });
  const after = cpuSeconds(service.child.pid);
  const databaseAfter = postgresCpuSeconds();
  const harness = process.cpuUsage(own);
  const ok = result.statusCodeStats?.['200']?.count ?? 0;
  return {
    ok,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: amount - ok,
    cpu: before === undefined || after === undefined ? NaN : after - before,
    databaseCpu: databaseBefore === undefined || databaseAfter === undefined ? NaN : databaseAfter - databaseBefore,
    harnessCpu: (harness.user + harness.system) / 1e6,
  };
}

/** The stored `$exception` events of a kind: the two kinds of exceptions told apart by the kind's digit in their uuids (see `bodies`). */
const exceptionsOf = (kind) =>
  `SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = '$exception' AND substr(uuid, 25, 1) = '${KINDS.indexOf(kind)}'`;

const COUNTS = {
  plain: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND event NOT IN ('$exception', 'client_error')",
  payload: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = 'client_error'",
  exceptions: exceptionsOf('exceptions'),
  oneFrame: exceptionsOf('oneFrame'),
  grouped: 'SELECT count(*) AS n FROM error_tracking_occurrences WHERE project_id = $1',
  issues: 'SELECT count(*) AS n FROM error_tracking_issues WHERE project_id = $1',
};

async function run(dialect) {
  const service = await startServiceOn(dialect);
  try {
    const kinds = Object.fromEntries(KINDS.map((kind) => [kind, bodies(service.token, kind)]));
    const totals = Object.fromEntries(KINDS.map((kind) => [kind, { ok: 0, seconds: 0, p99: [], failed: 0, cpu: 0, databaseCpu: 0, harnessCpu: 0 }]));
    const acknowledged = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
    const amounts = {};
    for (const [kind, next] of Object.entries(kinds)) {
      const warm = await send(service, next, 300);
      acknowledged[kind] += warm.ok * EVENTS;
      amounts[kind] = Math.max(100, Math.round(((warm.ok * EVENTS) / warm.seconds / EVENTS) * ROUND_SECONDS));
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [kind, next] of Object.entries(kinds)) {
        const r = await send(service, next, amounts[kind]);
        const t = totals[kind];
        t.ok += r.ok;
        t.seconds += r.seconds;
        t.p99.push(r.p99);
        t.failed += r.failed;
        t.cpu += r.cpu;
        t.databaseCpu += r.databaseCpu;
        t.harnessCpu += r.harnessCpu;
        acknowledged[kind] += r.ok * EVENTS;
      }
    }
    const stored = await countRows(dialect, service, COUNTS);
    const rate = (kind) => (totals[kind].ok * EVENTS) / totals[kind].seconds;
    // Service CPU milliseconds per 1,000 events stored, and the load generator's share of a core while it sent.
    const cpu = (kind, field = 'cpu') => (totals[kind][field] * 1e6) / (totals[kind].ok * EVENTS);
    const harness = (kind) => totals[kind].harnessCpu / totals[kind].seconds;
    const result = {
      dialect,
      plain: rate('plain'),
      exceptions: rate('exceptions'),
      oneFrame: rate('oneFrame'),
      payload: rate('payload'),
      share: rate('exceptions') / rate('plain'),
      cpu: Object.fromEntries(KINDS.map((kind) => [kind, cpu(kind)])),
      // PostgreSQL's own, on this machine (SQLite works inside the service).
      ...(dialect === 'postgres' ? { databaseCpu: Object.fromEntries(KINDS.map((kind) => [kind, cpu(kind, 'databaseCpu')])) } : {}),
      harness: Object.fromEntries(KINDS.map((kind) => [kind, harness(kind)])),
      p99: Object.fromEntries(KINDS.map((kind) => [kind, Math.max(...totals[kind].p99)])),
      failed: KINDS.reduce((sum, kind) => sum + totals[kind].failed, 0),
      acknowledged,
      stored,
    };
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
  report(results, load);
}

/** Writes the section of bench/RESULTS.md from the runs' results (the JSON lines \`run\` prints) and the load average at start. */
export function report(results, load) {
  const map = (values, f) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, f(v)]));
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const ok = (r) => KINDS.every((kind) => r.stored[kind] === r.acknowledged[kind]) && r.stored.grouped === r.stored.exceptions + r.stored.oneFrame;
  const pct = (n) => `${Math.round(n * 100)} %`;
  const all = (values) => KINDS.map((k) => values[k]).join(' / ');
  const rows = results.map(
    (r) =>
      `| ${r.dialect} | ${fmt(r.plain)} | ${fmt(r.exceptions)} | **${pct(r.share)}** | ${fmt(r.oneFrame)} (${pct(r.oneFrame / r.plain)}) | ${fmt(r.payload)} (${pct(r.exceptions / r.payload)}) | ${all(map(r.cpu, fmt))} (${pct(r.cpu.plain / r.cpu.exceptions)}; ${pct(r.cpu.plain / r.cpu.oneFrame)}; ${pct(r.cpu.payload / r.cpu.exceptions)}) | ${r.databaseCpu ? all(map(r.databaseCpu, fmt)) : 'in the service'} | ${all(map(r.harness, pct))} | ${all(r.p99)} | ${r.failed} | ${all(map(r.acknowledged, fmt))} | ${all(map(r.stored, fmt))} | ${fmt(r.stored.grouped)} in ${r.stored.issues} issues ${ok(r) ? '✓' : '✗'} |`,
  );
  const met = results.every((r) => r.share >= 0.8);
  record(
    'Exceptions vs plain events (issue 15)',
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).
Service (its build, \`service start\`) in its own process (SQLite in WAL with synchronous=FULL, or PostgreSQL); autocannon in the bench
process sends \`POST /batch/\` with 100 events a request over ${CONNECTIONS} connections. Plain events: the ingest benchmark's
shape (7 properties, one in ten with \`$set\`). Exceptions: \`$exception\` as posthog-js sends it (one exception of ${ERRORS.length}
distinct errors, 10–20 raw frames in hashed files, mechanism, level, one step; 3.2 KB an event against a plain event's 0.33 KB),
sanitized, run through the source map lookup (no maps uploaded), fingerprinted and grouped into issues in the ingest
transaction. "One-frame stack": the same exceptions with their throw site alone as their stack (0.8 KB an event), grouped
alike: what an exception costs when its list costs next to nothing to read. "Same payload": the exception events under
another name (\`client_error\`), stored like plain events: what their size alone costs. Distinct ids are drawn from 10k
users. After 300 requests of warm-up each, the four kinds alternate, ${ROUNDS} rounds of about ${ROUND_SECONDS} s each, so that
the machine's load weighs on all four alike. Target: exceptions at ≥ 80 % of the plain rate.
Service CPU: what the service process (all its threads; not PostgreSQL's) used per 1,000 events stored, read from /proc,
with plain's cost as a share of the exceptions' and of the one-frame exceptions', and the same payload's as a share of
the exceptions' (the rate the CPU alone would allow); it moves far
less with the machine's load than the rates do. Database CPU: PostgreSQL's processes on this machine, alike (SQLite
works inside the service). Load generator: autocannon's CPU while it sent, as a share of one core.

| database | plain events/s | exceptions/s | share | one-frame stack exceptions/s (share) | same payload as a plain event/s (exceptions' share of it) | service CPU ms per 1k events, plain / exc. / one-frame / payload (plain's share of exc.; of one-frame; payload's of exc.) | database CPU ms per 1k events (plain / exc. / one-frame / payload) | load generator CPU (plain / exc. / one-frame / payload) | p99 ms (plain / exc. / one-frame / payload) | non-200 | acknowledged (plain / exc. / one-frame / payload) | stored | occurrences grouped |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

✓ when every acknowledged event is stored and every stored exception has an issue. The 2-core virtual machine's speed
moves from minute to minute (its host is shared), and the figures with it.
${met ? 'The target is met in this run.' : 'The target is not met in this run.'}`,
  );
  if (results.some((r) => !ok(r) || r.failed)) process.exitCode = 1;
}
