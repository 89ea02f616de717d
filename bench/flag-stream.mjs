// npm run bench -- flag-stream [streams]: realtime flag updates (issue 35). One service process (SQLite, WORKERS=1) holds
// 10,000 open `/flags/stream` streams of one project: the memory they take, and the time from a flag change's answer
// (PATCH through the REST API) until every stream has its notice. Then streams opened and dropped at once, in waves,
// 50,000 in all: every one answered (no 5xx), the process's memory after, `/_health` still answering.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { machine, record, startService } from './lib.mjs';

const COMMAND = 'npm run bench -- flag-stream';
const ROUNDS = 5;
/** Streams opened at once while filling: the listen backlog takes 511 connections waiting for their accept. */
const OPENING = 400;
/** Opened and dropped at once, each wave: the machine allows 20,000 open files a process (the client's and the service's sockets). */
const WAVE = 10_000;
const WAVES = 5;

/** The service's resident memory, in MB. */
const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
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

export async function main(args) {
  const count = Number(args[0] ?? 10_000);
  const startLoad = os.loadavg()[0].toFixed(1);
  const service = await startService({ WORKERS: '1', STREAM_MAX_CONNECTIONS_PER_TOKEN: String(Math.max(count, WAVE) + 100) });
  const pid = service.child.pid;
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

    // Waves opened at once (no pacing: beyond the backlog, connections wait for the accept queue) and dropped at once.
    const statuses = new Map();
    const afterWave = [];
    for (let wave = 0; wave < WAVES; wave++) {
      const opened = await Promise.all(Array.from({ length: WAVE }, () => open(port, path, () => undefined)));
      for (const s of opened) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
      for (const s of opened) s.request.destroy();
      await sleep(3000);
      afterWave.push(rssMb(pid));
    }
    const health = await fetch(`${service.url}/_health`);
    const serverErrors = [...statuses].filter(([status]) => typeof status === 'number' && status >= 500).reduce((n, [, c]) => n + c, 0);
    console.log(JSON.stringify({ afterDrop, afterWave, statuses: Object.fromEntries(statuses), health: health.status }));
    if (serverErrors || health.status !== 200) throw new Error(`${serverErrors} 5xx answers, /_health ${health.status}`);

    const ms = (n) => `${Math.round(n)} ms`;
    const mb = (n) => `${n.toFixed(0)} MB`;
    record(
      'Flag stream: 10,000 open streams on one instance (issue 35)',
      `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 16)}Z, ${machine()}, load average ${startLoad} at start, ${os.loadavg()[0].toFixed(1)} at the end).
Service (its build, \`service start\`, SQLite, \`WORKERS=1\`) in its own process; the benchmark's process opens ${count.toLocaleString('en-US')}
\`/flags/stream\` streams of one project (a socket each, the request written and the answer read as bytes, ${OPENING} at a time), then changes a flag through the REST API
(PATCH) ${ROUNDS} times, half a second apart, and times from sending the PATCH until the last stream has read its notice.

| | |
| --- | ---: |
| service memory (RSS): idle → ${count.toLocaleString('en-US')} streams | ${mb(idle)} → ${mb(full)}: **${perStream.toFixed(1)} KB a stream** |
| PATCH answered (median of ${ROUNDS}) | ${ms(median(answered))} |
| change → the first stream has its notice (median) | ${ms(median(first))} |
| change → every stream has its notice (median; all rounds) | **${ms(median(reachAll))}** (${reachAll.map(ms).join(', ')}); target ≤ 2 s |
| memory after the streams closed | ${mb(afterDrop)} |
| ${WAVES} waves of ${WAVE.toLocaleString('en-US')} streams opened at once and dropped at once | ${[...statuses].map(([s, c]) => `${c.toLocaleString('en-US')} × ${s}`).join(', ')}; memory after each wave: ${afterWave.map(mb).join(', ')}; \`/_health\` ${health.status} |

The notice goes out at most 100 ms after the change (a burst is told once), written 2,000 streams a turn of the event
loop; the time includes the PATCH's own transaction and the benchmark's client reading 10,000 sockets on the same
2 shared cores. RSS counts the process's memory, not the kernel's socket buffers. The waves are 10,000 at a time because
the machine allows 20,000 open files a process (each stream is a socket in the client and one in the service); a
connection refused or reset before its answer (the listen backlog overflowing as 10,000 connect at once) is counted by its
error code. Memory that rises and falls from wave to wave, without climbing, is memory the streams gave back (V8 collects
when it likes and keeps the pages it grew to, so RSS does not fall to where it was). The machine was shared (load average
at the start above): the rounds spread widely.`,
    );
  } finally {
    await service.stop();
  }
}
