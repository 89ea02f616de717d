// npm run bench -- flag-stream [streams]: realtime flag updates. One service process (SQLite, WORKERS=1) holds
// 10,000 open `/flags/stream` streams of one project: the memory they take, and the time from a flag change's answer
// (PATCH through the REST API) until every stream has its notice. Then 20,000 streams opened at once and dropped at
// once, in waves: every one answered (no 5xx), the service's memory after each wave, `/_health` still answering. Last, a
// service-node client's local evaluation: the time from a change through one instance until it answers the new value,
// streaming from another instance (PostgreSQL).
import { fork, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { postgresSchema, restApi, spawnService } from '@service/test-support';
import { PG_URL, machine, postgresReachable, record, serviceBuild, startService } from './lib.mjs';

const COMMAND = 'npm run bench -- flag-stream';
const ROUNDS = 5;
/** Streams opened at once while filling: the listen backlog takes 511 connections waiting for their accept. */
const OPENING = 400;
/** Opened and dropped at once, each wave, from two client processes (half each). */
const WAVE = 20_000;
const WAVES = 5;
/** How long the service is left idle after the last wave before its memory is read again. */
const IDLE_MS = 20_000;
/** Open files the benchmark asks for its processes (the service's sockets, each client's). */
const NOFILE = 65_536;
/** Flag changes timed until service-node's local evaluation answers the new value. */
const CHANGES = 9;

/** A process's resident memory, in MB. */
const ownRssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
/** The children of a process (a cluster's workers). */
const childrenOf = (pid) => fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
/** A service's resident memory, in MB: its process and its workers'. */
const rssMb = (pid) => [pid, ...childrenOf(pid)].reduce((sum, p) => sum + ownRssMb(p), 0);
/** This process's limit of open files (soft). */
const openFileLimit = () => Number(/Max open files\s+(\d+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'))[1]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Opens one stream on a socket of its own, the request written by hand and the answer read as bytes: an HTTP client's
 * parser for 10,000 streams would make the benchmark's process, not the service, what is measured. Resolves with the
 * status once the head has arrived; `onNotice` runs on each notice after it.
 */
function open(port, path, onNotice) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    const done = (status, error) => {
      resolve({ status: status || error?.code || 'error', request: socket });
      if (status !== 200) socket.destroy();
    };
    socket.setEncoding('latin1');
    socket.on('error', (error) => head !== null && ((head = null), done(0, error)));
    socket.on('close', () => head !== null && ((head = null), done(0, { code: 'closed before an answer' })));
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`));
    socket.on('data', (chunk) => {
      if (head === null) {
        if (chunk.includes('refetchEvaluation')) onNotice();
        return;
      }
      head += chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      const status = Number(head.slice(9, 12));
      head = null;
      done(status);
    });
  });
}

/** Opens `count` streams, `OPENING` at a time. */
async function openMany(port, path, count, onNotice) {
  const streams = [];
  for (let i = 0; i < count; i += OPENING) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(OPENING, count - i) }, () => open(port, path, onNotice)))));
  }
  return streams;
}

async function api(service, method, route, body) {
  const res = await fetch(`${service.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * A client process of the waves (forked from this file): opens `count` streams at once when told, answers with their
 * statuses counted, drops them all when told. Two of them hold a wave's sockets, each within its own open-file limit.
 */
function waveClient() {
  let streams = [];
  process.on('message', async (message) => {
    if (message.open) {
      const { port, path, count } = message.open;
      streams = await Promise.all(Array.from({ length: count }, () => open(port, path, () => undefined)));
      const statuses = {};
      for (const s of streams) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
      process.send({ statuses });
    } else if (message.drop) {
      for (const s of streams) s.request.destroy();
      streams = [];
      process.send({ dropped: true });
    } else process.exit(0);
  });
}
if (process.argv[2] === 'wave-client' && process.send) waveClient();

/** Sends a message to a client process and resolves with its answer. */
const ask = (child, message) => new Promise((resolve) => (child.once('message', resolve), child.send(message)));

/**
 * Re-runs the benchmark under a raised open-file limit (`prlimit`) when this process has less and raising is allowed,
 * resolving with its exit code; false when it is not allowed (a container without CAP_SYS_RESOURCE).
 */
function rerunRaised(args) {
  if (openFileLimit() >= NOFILE || process.env.FLAG_STREAM_RAISED) return false;
  if (spawnSync('prlimit', [`--nofile=${NOFILE}:${NOFILE}`, 'true']).status !== 0) return false;
  const run = fileURLToPath(new URL('./run.mjs', import.meta.url));
  const { status } = spawnSync('prlimit', [`--nofile=${NOFILE}:${NOFILE}`, process.execPath, run, 'flag-stream', ...args], {
    stdio: 'inherit',
    env: { ...process.env, FLAG_STREAM_RAISED: '1' },
  });
  return status ?? 1;
}

/** Waves of `WAVE` streams opened at once (no pacing: beyond the backlog, connections wait for the accept queue) and dropped at once. */
async function waves(service, path) {
  const clients = [0, 1].map(() => fork(fileURLToPath(import.meta.url), ['wave-client']));
  const statuses = new Map();
  const baseline = rssMb(service.child.pid);
  const afterWave = [];
  try {
    for (let wave = 0; wave < WAVES; wave++) {
      const answers = await Promise.all(clients.map((c) => ask(c, { open: { port: service.port, path, count: WAVE / clients.length } })));
      for (const { statuses: counts } of answers) {
        for (const [status, n] of Object.entries(counts)) {
          const key = /^\d+$/.test(status) ? Number(status) : status;
          statuses.set(key, (statuses.get(key) ?? 0) + n);
        }
      }
      await Promise.all(clients.map((c) => ask(c, { drop: true })));
      await sleep(3000);
      afterWave.push(rssMb(service.child.pid));
      console.log(JSON.stringify({ wave, statuses: Object.fromEntries(statuses), rssMb: afterWave.at(-1) }));
    }
  } finally {
    for (const c of clients) c.send({ exit: true });
  }
  const health = (await fetch(`${service.url}/_health`)).status;
  // V8 gives pages back to the system once the process has been idle a while.
  await sleep(IDLE_MS);
  return { statuses, baseline, afterWave, idle: rssMb(service.child.pid), health };
}

/**
 * A service-node client (`realtimeFlags`, local evaluation, a 60 s poll) streaming from a second instance while the
 * flag changes through the first (two processes on one PostgreSQL schema; without PostgreSQL, one SQLite service of
 * two workers, which tell each other as instances do): from sending each change until the client's local evaluation,
 * looked at every 5 ms, answers the new value.
 */
async function localEvaluation() {
  const onPostgres = await postgresReachable();
  const dataDir = fs.mkdtempSync(`${os.tmpdir()}/service-bench-`);
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', API_RATE_LIMIT_PER_MINUTE: '100000000', PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000' };
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  const schema = onPostgres ? postgresSchema(PG_URL) : undefined;
  const first = await spawnService(schema ? { ...env, ...schema.env } : { ...env, WORKERS: '2' }, undefined, serviceBuild());
  // The second instance finds the first one's project and key.
  const second = schema ? await spawnService({ ...env, ...schema.env }, undefined, serviceBuild()) : first;
  register(); // service-node is TypeScript source in the monorepo
  const { Service } = await import('../packages/node/src/index.ts');
  const client = new Service(first.token, { host: second.url, personalApiKey: first.key, featureFlagsPollingInterval: 60_000, realtimeFlags: true });
  const errors = [];
  client.on('error', (error) => errors.push(error));
  try {
    const rest = restApi(first.url, first.key);
    const body = (on) => ({ filters: { groups: [{ properties: [], rollout_percentage: on ? 100 : 0 }] } });
    const flag = await rest('POST', `/api/projects/${first.projectId}/feature_flags/`, { key: 'locally-streamed', ...body(false) });
    const enabled = () => client.isFeatureEnabled('locally-streamed', 'user-1', { onlyEvaluateLocally: true, sendFeatureFlagEvents: false });
    const until = async (value) => {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(5)) if ((await enabled()) === value) return true;
      return false;
    };
    if (!(await until(false))) throw new Error('service-node did not load the definitions');
    const times = [];
    // The first change is not timed: the stream may still be connecting.
    for (let change = -1; change < CHANGES; change++) {
      const on = change % 2 !== 0;
      const start = performance.now();
      await rest('PATCH', `/api/projects/${first.projectId}/feature_flags/${flag.id}/`, body(on));
      if (!(await until(on))) throw new Error(`change ${change}: service-node did not answer the new value within 10 s`);
      if (change >= 0) times.push(performance.now() - start);
      await sleep(500);
    }
    console.log(JSON.stringify({ onPostgres, localEvaluationMs: times, errors: errors.length }));
    return { onPostgres, times, errors: errors.length };
  } finally {
    await client.shutdown();
    await Promise.all([...new Set([first, second])].map((s) => s.stop()));
    await schema?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function main(args) {
  const rerun = rerunRaised(args);
  if (rerun !== false) {
    process.exitCode = rerun;
    return;
  }
  const raised = openFileLimit() >= NOFILE;
  const count = Number(args[0] ?? 10_000);
  const startLoad = os.loadavg()[0].toFixed(1);
  const service = await startService({ WORKERS: '1', STREAM_MAX_CONNECTIONS_PER_TOKEN: String(Math.max(count, WAVE) + 100) });
  const pid = service.child.pid;
  let waveService;
  try {
    const flag = await api(service, 'POST', `/api/projects/${service.projectId}/feature_flags/`, {
      key: 'streamed',
      filters: { groups: [{ rollout_percentage: 0 }] },
    });
    const path = `/flags/stream?token=${service.token}`;
    const { port } = service;
    await sleep(1000);
    const idle = rssMb(pid);

    // Each round: when each stream first heard a notice after the change.
    let heard = 0;
    let lastHeard = 0;
    let firstHeard = 0;
    const first = [];
    const streams = await openMany(port, path, count, () => {
      if (heard === 0) firstHeard = performance.now();
      heard++;
      lastHeard = performance.now();
    });
    const refused = streams.filter((s) => s.status !== 200).length;
    if (refused) throw new Error(`${refused} of ${count} streams were not opened`);
    await sleep(2000);
    const full = rssMb(pid);
    const perStream = ((full - idle) * 1024) / count;
    console.log(JSON.stringify({ count, idleMb: idle, fullMb: full, perStreamKb: perStream }));

    const reachAll = [];
    const answered = [];
    for (let round = 0; round < ROUNDS; round++) {
      heard = 0;
      const start = performance.now();
      await api(service, 'PATCH', `/api/projects/${service.projectId}/feature_flags/${flag.id}/`, {
        filters: { groups: [{ rollout_percentage: round % 2 ? 0 : 100 }] },
      });
      answered.push(performance.now() - start);
      for (const until = Date.now() + 30_000; heard < count && Date.now() < until;) await sleep(5);
      if (heard !== count) throw new Error(`round ${round}: ${heard} of ${count} streams heard the change`);
      reachAll.push(lastHeard - start);
      first.push(firstHeard - start);
      console.log(JSON.stringify({ round, answeredMs: answered.at(-1), firstMs: first.at(-1), reachAllMs: reachAll.at(-1) }));
      await sleep(500);
    }
    for (const s of streams) s.request.destroy();
    await sleep(3000);
    const afterDrop = rssMb(pid);

    // Under the machine's limit (a process's open files), the wave's streams are held by two workers of one service.
    waveService = raised ? service : await startService({ WORKERS: '2', STREAM_MAX_CONNECTIONS_PER_TOKEN: String(WAVE + 100) });
    if (!raised) await sleep(1000);
    const wave = await waves(waveService, `/flags/stream?token=${waveService.token}`);
    const count5xx = [...wave.statuses].filter(([status]) => typeof status === 'number' && status >= 500).reduce((n, [, c]) => n + c, 0);
    if (count5xx || wave.health !== 200) throw new Error(`${count5xx} 5xx answers, /_health ${wave.health}`);
    if (!raised) await waveService.stop();
    await service.stop();
    const local = await localEvaluation();

    const ms = (n) => `${Math.round(n)} ms`;
    const mb = (n) => `${n.toFixed(0)} MB`;
    const n = (status) => (wave.statuses.get(status) ?? 0).toLocaleString('en-US');
    const other = [...wave.statuses].filter(([s]) => ![200, 'ECONNREFUSED', 'ECONNRESET'].includes(s) && !(s >= 500));
    const limit = openFileLimit().toLocaleString('en-US');
    const waveWhere = raised
      ? `the same service (open-file limit raised to ${limit} with \`prlimit\`)`
      : `a service of \`WORKERS=2\`: the machine allows ${limit} open files a process and does not let even root raise it (\`prlimit\`: not permitted), so its two workers hold the wave, some 10,000 sockets each`;
    record(
      'Flag stream: 10,000 open streams on one instance (issue 35)',
      `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 16)}Z, ${machine()}, load average ${startLoad} at start, ${os.loadavg()[0].toFixed(1)} at the end).
Service (its build, \`service start\`, SQLite, \`WORKERS=1\`) in its own process; the benchmark's process opens ${count.toLocaleString('en-US')}
\`/flags/stream\` streams of one project (a socket each, the request written and the answer read as bytes, ${OPENING} at a time), then changes a flag through the REST API
(PATCH) ${ROUNDS} times, half a second apart, and times from sending the PATCH until the last stream has read its notice.
Then ${WAVES} waves of ${WAVE.toLocaleString('en-US')} streams opened at once (no pacing) and dropped at once, by two client processes (half each),
on ${waveWhere}; memory is the service's (its processes' RSS summed), 3 s after each drop.
Last, service-node (\`realtimeFlags: true\`, local evaluation with a personal API key, its poll every 60 s) streaming from
${local.onPostgres ? 'instance 2 of two service processes on one PostgreSQL schema, the flag changed through instance 1' : 'a SQLite service of two workers (PostgreSQL was not reachable), the flag changed through the REST API'}: the time from sending the PATCH until
the client's local evaluation (\`isFeatureEnabled\`, \`onlyEvaluateLocally\`, looked at every 5 ms) answers the new value, ${CHANGES} changes half a second apart.

| | |
| --- | ---: |
| service memory (RSS): idle → ${count.toLocaleString('en-US')} streams | ${mb(idle)} → ${mb(full)}: **${perStream.toFixed(1)} KB a stream** |
| PATCH answered (median of ${ROUNDS}) | ${ms(median(answered))} |
| change → the first stream has its notice (median) | ${ms(median(first))} |
| change → every stream has its notice (median; all rounds) | **${ms(median(reachAll))}** (${reachAll.map(ms).join(', ')}); target ≤ 2 s |
| memory after the streams closed | ${mb(afterDrop)} |
| ${WAVES} waves of ${WAVE.toLocaleString('en-US')} streams at once: answers | **${n(200)} × 200**, ${n('ECONNREFUSED')} refused, ${n('ECONNRESET')} reset, **${count5xx} × 5xx**${other.map(([s, c]) => `, ${c.toLocaleString('en-US')} × ${s}`).join('')}; \`/_health\` ${wave.health} after |
| service memory: before the waves → after each → idle ${IDLE_MS / 1000} s after the last | ${mb(wave.baseline)} → ${wave.afterWave.map(mb).join(', ')} → **${mb(wave.idle)}** |
| change → service-node's local evaluation answers it (median, max of ${CHANGES}) | **${ms(median(local.times))}**, ${ms(Math.max(...local.times))} (${local.times.map(ms).join(', ')}); target ≤ 1 s; ${local.errors} client errors |

The notice goes out at most 100 ms after the change (a burst is told once), written 2,000 streams a turn of the event
loop; the time includes the PATCH's own transaction and the benchmark's client reading 10,000 sockets on the same
2 shared cores. RSS counts the process's memory, not the kernel's socket buffers. A connection refused or reset before
its answer (the listen backlog overflowing as ${WAVE.toLocaleString('en-US')} connect at once) is counted by its error code; a 408 is Node's
own answer (\`Connection: close\`, no body) to a connection whose request head it had not read within \`HEADERS_TIMEOUT_MS\`
(10 s), as each process works through thousands of connections at once on the shared cores: not a 5xx, and a client
library tries again after its back-off. Memory that
rises and falls from wave to wave, without climbing, is memory the streams gave back (V8 collects when it likes and keeps
the pages it grew to, so RSS does not fall to where it was). service-node's time is the notice (at most 100 ms after
the change, through PostgreSQL's NOTIFY to the other instance), its fetch of the definitions, and the 5 ms look. The
machine was shared (load average at the start above): the rounds spread widely.`,
    );
  } finally {
    if (waveService && waveService !== service) await waveService.stop();
    await service.stop();
  }
}
