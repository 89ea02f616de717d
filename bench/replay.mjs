// npm run bench -- replay: session replay's ingest and storage (issue 33). Four 30-minute recordings (bench/replay-recording.mjs:
// posthog-js-shaped batches every 2 s, per-event compressed, gzip bodies) sent to `/s/` of the service's build at once,
// each recording's batches in order; beside it, the same bodies written straight to the same kind of store (the
// database's `replay_blobs`, or files in a folder: the blob store's own `put`, in this process, as many at once). Then
// the bytes stored per recorded minute, and the time to a 30-minute recording's first frame (its full snapshot).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { machine, PG_URL, postgresReachable, record, root, startServiceOn } from './lib.mjs';
import { recordingBatches, snapshotBody } from './replay-recording.mjs';

const COMMAND = 'npm run bench -- replay';
const MINUTES = 30;
const SESSIONS = 4;
const FIRST_FRAME_RUNS = 7;

const { openDatabase } = await tsImport(path.join(root, 'packages/server/src/db/database.ts'), import.meta.url);
const { blobStoreOf, blockKey } = await tsImport(path.join(root, 'packages/server/src/session-replay/blob-store.ts'), import.meta.url);
const { ReplayStorage } = await tsImport(path.join(root, 'packages/server/src/session-replay/storage.ts'), import.meta.url);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (bytes) => bytes / 1024 / 1024;
const fmt = (n, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Runs `work(i)` for i in 0..n-1, `concurrency` at a time; resolves with the seconds it took. */
async function timed(n, concurrency, work) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await work(next++);
    }),
  );
  return (performance.now() - start) / 1000;
}

/** The time to the first frame through `GET .../snapshots/` (when the service has it), else through `ReplayStorage.snapshots`. */
async function firstFrame(service, storage, sessionId) {
  const url = `${service.url}/api/projects/${service.projectId}/session_recordings/${sessionId}/snapshots/`;
  const probe = await fetch(url, { headers: { authorization: `Bearer ${service.key}` } });
  await probe.arrayBuffer();
  const viaApi = probe.status === 200;
  const times = [];
  for (let run = 0; run < FIRST_FRAME_RUNS; run++) {
    const start = performance.now();
    if (viaApi) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${service.key}` } });
      const decoder = new TextDecoder();
      let text = '';
      for await (const chunk of res.body) {
        text += decoder.decode(chunk, { stream: true });
        const full = text.indexOf('{"type":2,');
        // The full snapshot has arrived once the next event (or the end) follows it.
        if (full >= 0 && text.indexOf(',{"type":', full) > 0) break;
      }
      times.push(performance.now() - start);
      await res.body.cancel().catch(() => undefined);
    } else {
      for await (const json of storage.snapshots(service.projectId, sessionId)) {
        if (json.startsWith('{"type":2,')) break;
      }
      times.push(performance.now() - start);
    }
  }
  return { ms: median(times), all: times, viaApi };
}

/** Where each run's service keeps its database and blocks. */
const KINDS = {
  database: { label: 'database (`replay_blobs`), SQLite', dialect: 'sqlite', directory: false },
  directory: { label: 'directory (`REPLAY_STORAGE_DIR`), SQLite', dialect: 'sqlite', directory: true },
  postgres: { label: 'database (`replay_blobs`), PostgreSQL', dialect: 'postgres', directory: false },
};

/** A fresh database of the kind's dialect (a PostgreSQL schema dropped on close). */
async function freshDatabase(dialect, dataDir) {
  if (dialect === 'sqlite') return openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined });
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const db = await openDatabase({ dataDir, databaseUrl: PG_URL, databaseSchema: schema });
  return {
    ...db,
    async close() {
      await db.close();
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

/** The same bodies put straight into a fresh store of the same kind, SESSIONS at a time: the seconds it took. */
async function rawWrites(kind, bodies) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-raw-'));
  const db = await freshDatabase(KINDS[kind].dialect, dataDir);
  const blobs = blobStoreOf(db.kysely, KINDS[kind].directory ? path.join(dataDir, 'blobs') : undefined);
  try {
    const flat = bodies.flat();
    return await timed(flat.length, SESSIONS, (i) => blobs.put(blockKey(1), flat[i]));
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function run(kind, recordings) {
  const storageDir = KINDS[kind].directory ? fs.mkdtempSync(path.join(os.tmpdir(), 'replay-blobs-')) : undefined;
  const service = await startServiceOn(KINDS[kind].dialect, { WORKERS: '1', ...(storageDir ? { REPLAY_STORAGE_DIR: storageDir } : {}) });
  try {
    const sessions = recordings.map((_, i) => `bench-session-${i}`);
    const bodies = recordings.map((batches, i) =>
      batches.map((events) => snapshotBody(events, { token: service.token, sessionId: sessions[i], windowId: 'window-1', distinctId: `person-${i}` })),
    );
    const wire = bodies.flat().reduce((sum, body) => sum + body.length, 0);
    const send = async (body) => {
      const res = await fetch(`${service.url}/s/?compression=gzip-js`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`/s/: ${res.status} ${text}`);
    };
    // Warm up on another session, then the recordings, each one's batches in order, all at once.
    for (const events of recordings[0].slice(0, 30))
      await send(snapshotBody(events, { token: service.token, sessionId: 'warm-up', windowId: 'w', distinctId: 'w' }));
    const cursors = bodies.map(() => 0);
    const start = performance.now();
    await Promise.all(
      bodies.map(async (list, i) => {
        while (cursors[i] < list.length) await send(list[cursors[i]++]);
      }),
    );
    const ingestSeconds = (performance.now() - start) / 1000;
    const rawSeconds = await rawWrites(kind, bodies);

    const db = await openDatabase({
      dataDir: service.dataDir,
      ...(KINDS[kind].dialect === 'postgres' ? { databaseUrl: PG_URL, databaseSchema: service.schema } : { databaseUrl: undefined, databaseSchema: undefined }),
      runsJobs: false,
    });
    try {
      const storage = new ReplayStorage(db, blobStoreOf(db.kysely, storageDir), { retentionDays: 30 });
      const rows = await db.kysely
        .selectFrom('replay_sessions')
        .select(['session_id', 'size_bytes', 'block_count', 'event_count'])
        .where('session_id', 'in', sessions)
        .execute();
      const stored = rows.reduce((sum, row) => sum + Number(row.size_bytes), 0);
      const frame = await firstFrame(service, storage, sessions[0]);
      return { kind, ingestSeconds, rawSeconds, wire, stored, frame, blocks: rows.reduce((sum, row) => sum + Number(row.block_count), 0) };
    } finally {
      await db.close();
    }
  } finally {
    await service.stop();
    if (storageDir) fs.rmSync(storageDir, { recursive: true, force: true });
  }
}

export async function main() {
  const startLoad = os.loadavg()[0].toFixed(1);
  const recordings = Array.from({ length: SESSIONS }, (_, i) => recordingBatches(MINUTES, i + 1));
  const rrwebBytes = recordings.flat().reduce((sum, events) => sum + Buffer.byteLength(JSON.stringify(events)) - 2 - (events.length - 1), 0);
  const results = [];
  const kinds = (await postgresReachable()) ? ['database', 'directory', 'postgres'] : ['database', 'directory'];
  for (const kind of kinds) {
    const result = await run(kind, recordings);
    console.log(JSON.stringify(result));
    results.push(result);
  }
  const minutes = SESSIONS * MINUTES;
  const rows = results.map(
    (r) =>
      `| ${KINDS[r.kind].label} | **${fmt(mb(rrwebBytes) / r.ingestSeconds)}** | ${fmt(mb(r.wire) / r.ingestSeconds)} | ${fmt(r.blocks / r.ingestSeconds, 0)} | ${fmt(mb(r.wire) / r.rawSeconds)} (${fmt(r.blocks / r.rawSeconds, 0)} bodies/s) | ${fmt(r.stored / minutes / 1024)} | ${fmt(r.frame.ms, 0)} (${r.frame.all.map((ms) => fmt(ms, 0)).join(', ')}) |`,
  );
  const via = results.every((r) => r.frame.viaApi)
    ? '`GET /api/projects/:id/session_recordings/:session_id/snapshots/` (until the bytes of the full snapshot and the event after it have arrived)'
    : "`ReplayStorage.snapshots` in the benchmark's process on the service's database (the `GET .../snapshots/` route was not on this build: rerun once it is), until it yields the full snapshot";
  record(
    'Session replay: ingest and storage (issue 33)',
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 16)}Z, ${machine()}, load average ${startLoad} at start, ${os.loadavg()[0].toFixed(1)} at the end).
${SESSIONS} synthetic ${MINUTES}-minute recordings (\`bench/replay-recording.mjs\`: a dashboard page of some 2,000 nodes with its stylesheet
inlined, a full snapshot every 5 minutes as posthog-js takes them, and every 2 s what an active user makes: 4 mouse-move
events of 10 positions, scrolls, clicks, typing, table rows changing), ${fmt(mb(rrwebBytes))} MB of rrweb JSON in all,
sent as posthog-js sends them: a \`$snapshot\` batch every 2 s (${recordings[0].length} a recording), per-event compressed, gzip
bodies (${fmt(mb(results[0].wire))} MB on the wire). The service (its build, \`service start\`, \`WORKERS=1\`; PostgreSQL on this
machine, when reachable, in a fresh schema) in its own process; the ${SESSIONS} recordings sent at once, each one's batches in order, each acknowledged (200) before the next.
Raw writes: the same bodies \`put\` straight into a fresh store of the same kind (the blob store's own code: one
INSERT a body, or a file written, synced and renamed), ${SESSIONS} at a time, in the benchmark's process.

| blob store | ingest, MB/s of rrweb JSON | ingest, MB/s on the wire | batches/s | raw writes of the same bodies, MB/s | stored per recorded minute, KB | first frame of a 30-min recording, ms |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

Ingest decodes each body (gunzip, JSON), undoes the per-event compression, makes each batch a brotli block (quality 5),
writes it and its rows (a transaction shared by the requests that wait meanwhile: group commit), and answers once both
are stored; a raw write stores the body alone, unread, in a transaction (or file) of its own. Posthog-js batches are
small (${fmt(results[0].wire / results[0].blocks / 1024)} KB on the wire here), so both are bound by the work per request, not by bytes; rrweb JSON is ${fmt(rrwebBytes / minutes / 1024)} KB a
recorded minute and the gzip bodies ${fmt(results[0].wire / minutes / 1024)} KB. First frame: ${via}; median of
${FIRST_FRAME_RUNS} (each run's in brackets; target ≤ 300 ms). The machine is shared (2 cores, the client on the same machine).`,
  );
}
