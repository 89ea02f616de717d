import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { eventually, restApi, spawnService, type ServiceProcess } from '@service/test-support';
import { DISK_FULL_FOR_MS, DiskSpace, isDiskFull } from '../src/db/disk-space';
import { dialect, serviceEnv, testStorage, unstoredEvents, type TestStorage } from './helpers';

// A full disk is a 503 with Retry-After, never a 500: SQLite rolls a transaction back itself when its disk is full, and
// the ROLLBACK that follows ("cannot rollback - no transaction is active") must not hide SQLITE_FULL; PostgreSQL says
// 53100. `/_health` says so too. Here the disk really fills: a small tmpfs holds SQLite's DATA_DIR, or PostgreSQL's
// tables through a tablespace.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A tmpfs of `bytes` on a fresh folder, unmounted after the test; the test is skipped, saying why, where it cannot be mounted. */
function tmpfs(ctx: TestContext, bytes: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmdirSync(dir);
    const why = String((error as { stderr?: Buffer }).stderr ?? error).trim();
    ctx.skip(`a full disk needs a tmpfs, and mounting one failed (${why}): run the suite as root to test it`);
  }
  cleanups.push(() => {
    execFileSync('umount', [dir]);
    fs.rmdirSync(dir);
  });
  return dir;
}

/** Takes every free byte of the file system of `dir` (a file written until ENOSPC); returns how to give them back. */
function fill(dir: string): () => void {
  const file = path.join(dir, 'filler');
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12]) {
      const chunk = Buffer.alloc(size);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  expect(fs.statfsSync(dir).bavail).toBe(0);
  return () => fs.rmSync(file);
}

/** A webhook receiver on loopback: answers 500 while `failing`, else 200. */
async function receiver() {
  const state = { failing: true, requests: 0, delivered: 0 };
  const server = http.createServer((request, response) => {
    request.resume().on('end', () => {
      state.requests++;
      if (!state.failing) state.delivered++;
      response.writeHead(state.failing ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook` });
}

interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

async function call(url: string, route: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after') };
}

/** A batch of events of some 2 KB each, of bytes that do not compress (PostgreSQL compresses large values). */
const batchOf = (size: number) =>
  Array.from({ length: size }, () => ({
    uuid: randomUUID(),
    event: 'full disk',
    distinct_id: 'someone',
    properties: { blob: randomBytes(1500).toString('base64') },
  }));

const linesWith = (service: ServiceProcess, text: string) =>
  service
    .output()
    .split('\n')
    .filter((line) => line.includes(text)).length;

/**
 * The service on a disk that fills up, then has room again: batches are stored (200) or refused with 503 and
 * Retry-After, never 500; `/_health` and one log line say the disk is full, one more line that it has room again; a
 * webhook delivery due meanwhile waits, without a line at every poll, and goes out after; ingest recovers by itself;
 * every acknowledged event is stored.
 */
async function fillAndFree(started: ServiceProcess, storage: TestStorage, dir: string) {
  const acknowledged: string[] = [];
  const capture = async (size: number) => {
    const batch = batchOf(size);
    const answer = await call(started.url, '/batch/', { api_key: started.token, batch });
    if (answer.status === 200) acknowledged.push(...batch.map((e) => e.uuid));
    return answer;
  };
  // A delivery that fails until the disk is full, and is due again while it is.
  const hook = await receiver();
  const api = restApi(started.url, started.key);
  const project = `/api/projects/${started.projectId}`;
  const webhook = (await api('POST', `${project}/webhooks/`, { url: hook.url, kinds: ['feature_flag.changed'] })) as { id: string };
  await api('POST', `${project}/feature_flags/`, { key: 'before-the-disk-fills', filters: { groups: [{ rollout_percentage: 0 }] } });
  expect(await eventually(() => hook.requests > 0, 10_000)).toBe(true);
  expect((await capture(10)).status).toBe(200);
  expect(await call(started.url, '/_health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
  // SQLite writes into the room its WAL file already has, which a full disk leaves it: the disk fills once the WAL is
  // emptied (the checkpointer truncates it when writes pause), so that every write needs room.
  const wal = path.join(storage.dataDir, 'service.db-wal');
  if (dialect === 'sqlite') expect(await eventually(() => fs.statSync(wal).size === 0, 10_000)).toBe(true);

  const free = fill(dir);
  hook.failing = false;
  const answers: Answer[] = [];
  for (let round = 0; round < 3; round++) answers.push(...(await Promise.all(Array.from({ length: 20 }, () => capture(20)))));
  for (const answer of answers) {
    if (answer.status === 200) continue;
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(answer.body).toMatchObject({ type: 'server_error', code: 'service_unavailable', attr: null });
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }
  expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
  expect(await call(started.url, '/_health')).toMatchObject({ status: 503, body: { status: 'unavailable', database: 'disk_full' } });
  // The webhook worker, polling every 20 ms, finds the delivery due and cannot claim it (a write) while the disk is full
  // (on PostgreSQL the claim may fit in a page the table has, and the delivery go out).
  const due = async () => {
    const deliveries = (await api('GET', `${project}/webhooks/${webhook.id}/deliveries/`)) as { results: { status: string; next_attempt_at: string | null }[] };
    return deliveries.results.every((delivery) => delivery.status !== 'pending' || Date.parse(delivery.next_attempt_at!) < Date.now());
  };
  for (const until = Date.now() + 10_000; !(await due()); await new Promise((resolve) => setTimeout(resolve, 50))) expect(Date.now()).toBeLessThan(until);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(linesWith(started, 'is full: writes are refused')).toBe(1);
  expect(linesWith(started, 'webhook deliveries')).toBe(0);
  expect(linesWith(started, 'unhandled error')).toBe(0);
  expect(linesWith(started, 'database unavailable')).toBe(0);

  free();
  expect((await capture(20)).status).toBe(200);
  expect(await call(started.url, '/_health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
  expect(linesWith(started, 'has room again')).toBe(1);
  expect(await eventually(() => hook.delivered > 0, 10_000)).toBe(true);
  // The checkpointer, whose checkpoints could not write while the disk was full, empties the WAL again.
  if (dialect === 'sqlite') expect(await eventually(() => fs.statSync(wal).size === 0, 10_000)).toBe(true);
  await started.stop();
  expect(await unstoredEvents(storage, acknowledged)).toEqual([]);
}

/** The service's environment: every log line (the disk's are at error and info), and a webhook worker that retries at once. */
const env = (storage: TestStorage) =>
  serviceEnv(storage, { LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '20', WEBHOOK_RETRY_BASE_MS: '20' });

// Registered only in the sqlite project of the suite (vitest.config.ts runs both).
if (dialect === 'sqlite')
  describe('SQLite on a full disk', () => {
    it('answers 503 with Retry-After, never 500, says so on /_health and in one log line, loses nothing acknowledged, and recovers by itself', async (ctx) => {
      const dir = tmpfs(ctx, 8 << 20);
      const storage: TestStorage = { databaseUrl: undefined, databaseSchema: undefined, dataDir: path.join(dir, 'data'), drop: async () => undefined };
      const started = await spawnService(env(storage));
      cleanups.push(() => started.stop());
      await fillAndFree(started, storage, dir);
    }, 60_000);
  });

// Registered only in the postgres project of the suite.
if (dialect === 'postgres')
  describe('PostgreSQL on a full disk', () => {
    it('answers 503 with Retry-After, never 500 (53100 "could not extend file"), says so on /_health and in one log line, loses nothing acknowledged, and recovers by itself', async (ctx) => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      cleanups.push(() => admin.end());
      // The tablespace's folder must belong to the server's user, on the server's machine: the owner of its data folder here.
      const dataDirectory = (await admin.query<{ data_directory: string }>('show data_directory')).rows[0]!.data_directory;
      if (!fs.existsSync(dataDirectory))
        ctx.skip(`PostgreSQL's data folder (${dataDirectory}) is not on this machine: a tablespace on a tmpfs here cannot be made`);
      const dir = tmpfs(ctx, 4 << 20);
      const owner = fs.statSync(dataDirectory);
      fs.chownSync(dir, owner.uid, owner.gid);
      const tablespace = `full_disk_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      await admin.query(`create tablespace ${tablespace} location '${dir}'`);
      // Before the tmpfs goes: a tablespace whose folder is gone stops the server (its checkpointer panics on the
      // files it still has to sync, and a recovery replaying the tablespace's creation needs its folder), so it is
      // dropped and a checkpoint taken first; should that fail, the tmpfs stays mounted (the cleanups stop there).
      cleanups.push(async () => {
        await admin.query(`drop tablespace ${tablespace}`);
        await admin.query('checkpoint');
      });
      const storage = testStorage();
      cleanups.push(() => storage.drop());
      const started = await spawnService(env(storage));
      cleanups.push(() => started.stop());

      // Every table and index of the service's schema moves to the tmpfs.
      const schema = storage.databaseSchema!;
      const relations = await admin.query<{ kind: string; name: string }>(
        `select case c.relkind when 'i' then 'index' else 'table' end as kind, c.relname as name
           from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind in ('r', 'i')`,
        [schema],
      );
      for (const { kind, name } of relations.rows) await admin.query(`alter ${kind} ${schema}."${name}" set tablespace ${tablespace}`);
      await fillAndFree(started, storage, dir);
    }, 60_000);
  });

describe('DiskSpace', () => {
  it('counts the disk full from a write refused for space until a commit, or until DISK_FULL_FOR_MS pass without another; tells each start and end once', () => {
    let now = 0;
    const disk = new DiskSpace(() => now);
    const heard: boolean[] = [];
    disk.onChange((full) => heard.push(full));
    expect(disk.isFull).toBe(false);
    disk.refused();
    now += 10;
    disk.refused();
    expect(disk.isFull).toBe(true);
    expect(heard).toEqual([true]);
    now += DISK_FULL_FOR_MS - 1;
    expect(disk.isFull).toBe(true);
    now += 1;
    expect(disk.isFull).toBe(false); // space may have been freed while nothing wrote
    disk.refused();
    expect(disk.isFull).toBe(true);
    expect(heard).toEqual([true]); // the same spell: told once
    disk.committed();
    disk.committed();
    expect(disk.isFull).toBe(false);
    expect(heard).toEqual([true, false]);
  });

  it("knows a full disk by SQLite's, Node's and PostgreSQL's codes, and nothing else by them", () => {
    for (const code of ['SQLITE_FULL', 'ENOSPC', '53100']) expect(isDiskFull(Object.assign(new Error('full'), { code })), code).toBe(true);
    expect(isDiskFull(new AggregateError([new Error('refused'), Object.assign(new Error('full'), { code: 'ENOSPC' })]))).toBe(true);
    for (const code of ['SQLITE_BUSY', 'SQLITE_IOERR_WRITE', '53200', '53300', 'ECONNREFUSED', undefined])
      expect(isDiskFull(Object.assign(new Error('other'), { code })), code).toBe(false);
    expect(isDiskFull(null)).toBe(false);
  });
});
