import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnService } from '@service/test-support';
import { ConfigError, loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { serviceBin, serviceEnv, testStorage, unstoredEvents, type TestStorage } from './helpers';

const WORKERS = 2;
const START_MS = 120_000;

/** One request on a connection of its own: the primary hands new connections to the workers in turn. */
function request(url: string, method: string, body: unknown, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(url, { method, agent: false, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The worker processes under the primary (not its other children: tsx's esbuild, when started from the sources). */
const workerPids = (primary: ChildProcess) =>
  execFileSync('pgrep', ['-P', String(primary.pid), '-f', `${path.basename(serviceBin)} start`], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map(Number);

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));

describe('WORKERS', () => {
  it('is 1 unless set, a positive integer, or auto for one per core', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(os.availableParallelism());
    for (const wrong of ['0', '-1', '1.5', 'all', '2x']) expect(() => loadConfig({ WORKERS: wrong }), wrong).toThrow(ConfigError);
  });
});

describe(`service start with WORKERS=${WORKERS}`, () => {
  let storage: TestStorage;
  let service: Awaited<ReturnType<typeof spawnService>>;
  const api = (method: string, route: string, body?: unknown) => request(`${service.url}${route}`, method, body, { authorization: `Bearer ${service.key}` });
  beforeAll(async () => {
    storage = testStorage();
    // Three processes start (the primary, then the workers in parallel): on a busy machine that takes a while.
    service = await spawnService(serviceEnv(storage, { WORKERS: String(WORKERS) }), undefined, undefined, START_MS);
  }, START_MS);
  afterAll(async () => {
    await service.stop();
    await storage.drop();
  });

  it('prints the start-up lines once, from the primary, with the project it created once', () => {
    const output = service.output();
    expect(output.match(/Service listening on/g)).toHaveLength(1);
    expect(output).toContain(`(${WORKERS} workers)`);
    expect(output.match(/Created a default project/g)).toHaveLength(1);
    expect(workerPids(service.child)).toHaveLength(WORKERS);
  });

  it('answers /flags from every worker with a flag change made through any of them, within a second', async () => {
    const created = await api('POST', `/api/projects/${service.projectId}/feature_flags/`, {
      key: 'everywhere',
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    expect(created.status, created.text).toBe(201);
    const flagId = JSON.parse(created.text).id as number;
    /** The flag's version in the answers of a round of requests on new connections (they alternate between the workers). */
    const versionsSeen = async () => {
      const answers = await Promise.all(
        Array.from({ length: 2 * WORKERS }, async (_, i) => {
          const res = await request(`${service.url}/flags/?v=2`, 'POST', { token: service.token, distinct_id: `user-${i}` });
          expect(res.status, res.text).toBe(200);
          return JSON.parse(res.text).flags.everywhere?.metadata.version as number | undefined;
        }),
      );
      return new Set(answers);
    };
    expect(await versionsSeen()).toEqual(new Set([1])); // every worker has the flag cached now
    for (let version = 2; version <= 12; version++) {
      // Through new connections too: the changes are made through both workers.
      const res = await api('PATCH', `/api/projects/${service.projectId}/feature_flags/${flagId}/`, {
        filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: `{"n":${version}}` } },
      });
      expect(res.status, res.text).toBe(200);
      expect(JSON.parse(res.text).version).toBe(version);
      const deadline = Date.now() + 1000;
      let seen = await versionsSeen();
      while (!(seen.size === 1 && seen.has(version)) && Date.now() < deadline) seen = await versionsSeen();
      expect(seen).toEqual(new Set([version]));
    }
  });

  it('stores each event of concurrent and retried batches exactly once, with one person per distinct id', async () => {
    const distinctIds = Array.from({ length: 40 }, (_, i) => `writer-${i}`);
    const batches = Array.from({ length: 60 }, (_, b) =>
      Array.from({ length: 25 }, (_, j) => ({
        uuid: randomUUID(),
        event: 'workers-test',
        distinct_id: distinctIds[(b * 25 + j) % distinctIds.length],
        properties: { $set: { last_batch: b }, $set_once: { first_batch: b } },
      })),
    );
    // Every fourth batch is sent twice, as an SDK retries a batch whose answer it did not get.
    const sends = [...batches, ...batches.filter((_, b) => b % 4 === 0)].sort(() => Math.random() - 0.5);
    const statuses: number[] = [];
    const client = async () => {
      for (let batch = sends.pop(); batch; batch = sends.pop()) {
        // An SDK keeps a batch that got 503 (the database busy) and sends it again.
        for (;;) {
          const res = await request(`${service.url}/batch/`, 'POST', { api_key: service.token, batch });
          statuses.push(res.status);
          if (res.status !== 503) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);

    const db = await openDatabase(storage);
    try {
      const stored = await db.kysely
        .selectFrom('events')
        .select('uuid')
        .where('project_id', '=', service.projectId)
        .where('event', '=', 'workers-test')
        .execute();
      expect(stored).toHaveLength(batches.length * 25);
      expect(new Set(stored.map((row) => row.uuid))).toEqual(new Set(batches.flat().map((e) => e.uuid)));
      const links = await db.kysely
        .selectFrom('person_distinct_ids')
        .select(['distinct_id', 'person_id'])
        .where('project_id', '=', service.projectId)
        .where('distinct_id', 'in', distinctIds)
        .execute();
      expect(links.map((link) => link.distinct_id).sort()).toEqual([...distinctIds].sort());
      const persons = await db.kysely
        .selectFrom('persons')
        .select(['id', 'properties'])
        .where(
          'id',
          'in',
          links.map((link) => link.person_id),
        )
        .execute();
      expect(persons).toHaveLength(distinctIds.length);
      for (const person of persons) expect(JSON.parse(person.properties)).toMatchObject({ last_batch: expect.any(Number), first_batch: expect.any(Number) });
    } finally {
      await db.close();
    }
  });

  it('replaces a worker that dies', { timeout: START_MS }, async () => {
    const [victim, ...others] = workerPids(service.child);
    process.kill(victim!, 'SIGKILL');
    let pids = workerPids(service.child);
    while (pids.length < WORKERS || pids.includes(victim!) || !service.output().includes(`Worker ${victim} exited (SIGKILL); starting another`)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pids = workerPids(service.child);
    }
    expect(pids).toEqual(expect.arrayContaining(others));
    // The new worker listens: every request of a round on new connections is answered.
    let answered = 0;
    while (answered < 4 * WORKERS) {
      const res = await request(`${service.url}/flags/?v=2`, 'POST', { token: service.token, distinct_id: 'after' }).catch(() => undefined);
      if (res?.status === 200) answered++;
    }
  });

  it('on SIGTERM stops every worker after storing each event it acknowledged, and exits with 0', async () => {
    const acknowledged: string[] = [];
    let stop = false;
    const client = async () => {
      while (!stop) {
        const batch = Array.from({ length: 20 }, (_, i) => ({ uuid: randomUUID(), event: 'shutdown-test', distinct_id: `leaving-${i}` }));
        try {
          const res = await request(`${service.url}/batch/`, 'POST', { api_key: service.token, batch });
          if (res.status === 200) acknowledged.push(...batch.map((e) => e.uuid));
        } catch {
          return; // the service is gone
        }
      }
    };
    const clients = Array.from({ length: 6 }, client);
    while (acknowledged.length < 400) await new Promise((resolve) => setTimeout(resolve, 5));
    const workers = workerPids(service.child);
    service.child.kill('SIGTERM');
    expect(await exited(service.child)).toBe(0);
    stop = true;
    await Promise.all(clients);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();

    expect(await unstoredEvents(storage, acknowledged)).toEqual([]);
  });
});
