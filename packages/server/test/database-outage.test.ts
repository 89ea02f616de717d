import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialect, serviceEnv, startService, testStorage, type TestStorage } from './helpers';
import { restApi, spawnService, type ServiceProcess } from '@service/test-support';

// Issue 10, item 1: an unhandled `error` on the PostgreSQL pool (a terminated backend, a restart, a
// failover) exited the service within ~70 ms. Losing the database must answer 503 with Retry-After
// (capture too, so SDKs keep their events) and recover by itself.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (service: ServiceProcess) => service.child.exitCode === null && service.child.signalCode === null;

interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/** One request to a running service; a connection reset or a crashed service throws. */
async function call(url: string, route: string, init: { method?: string; key?: string; body?: unknown } = {}): Promise<Answer> {
  const res = await fetch(`${url}${route}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after') };
}

/** What a request gets while the database is gone: 503, the error shape, and when to retry. */
function expectUnavailable(answer: Answer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(answer.body).toMatchObject({ type: 'server_error', code: 'service_unavailable', attr: null });
  expect(typeof (answer.body as { detail: unknown }).detail).toBe('string');
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
}

/** Either served, or the outage answer; never a 500 or a dropped connection. */
function expectServedOrUnavailable(answer: Answer) {
  if (answer.status !== 503) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  else expectUnavailable(answer);
}

/** Calls `probe` until it returns true, for at most `ms`. */
async function eventually(probe: () => Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await sleep(50);
  }
}

const event = (name = 'outage') => ({ uuid: randomUUID(), event: name, distinct_id: `user-${randomUUID().slice(0, 4)}` });
const capture = (service: ServiceProcess, batch = [event()]) => call(service.url, '/batch/', { method: 'POST', body: { api_key: service.token, batch } });
const flags = (url: string, token: string) => call(url, '/flags/?v=2', { method: 'POST', body: { token, distinct_id: 'someone' } });
const listFlags = (service: ServiceProcess) => call(service.url, `/api/projects/${service.projectId}/feature_flags/`, { key: service.key });

/** The test database's URL with the service's connections named, so that the test can find them. */
function named(url: string, applicationName: string) {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', applicationName);
  return parsed.toString();
}

/**
 * A TCP proxy on loopback between the service and PostgreSQL: `cut` drops every connection and refuses
 * new ones (a real network fault); `hold` keeps new connections waiting, unanswered, while the open ones
 * go on; `restore` lets everything through again.
 */
async function tcpProxy(target: string) {
  const { hostname, port } = new URL(target);
  const links = new Set<net.Socket>();
  const held: net.Socket[] = [];
  let mode: 'open' | 'refuse' | 'hold' = 'open';
  const link = (client: net.Socket) => {
    const upstream = net.connect(Number(port || 5432), hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => to.destroy());
    }
    links.add(client);
    client.on('close', () => links.delete(client));
  };
  const server = net.createServer((client) => {
    if (mode === 'refuse') client.destroy();
    else if (mode === 'hold') held.push(client);
    else link(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    /** Connections open through the proxy. */
    get links() {
      return links.size;
    },
    hold() {
      mode = 'hold';
    },
    cut() {
      mode = 'refuse';
      for (const client of links) client.destroy();
    },
    restore() {
      mode = 'open';
      for (const client of held.splice(0)) if (!client.destroyed) link(client);
    },
    close: () => {
      for (const client of [...links, ...held]) client.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function adminClient(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

// Registered only in the postgres project of the suite (vitest.config.ts runs both).
if (dialect === 'postgres')
  describe('losing PostgreSQL (issue 10)', () => {
    const databaseUrl = process.env.TEST_DATABASE_URL!;
    // One service process, reaching PostgreSQL through a proxy, under a name of its own in pg_stat_activity.
    const applicationName = `outage-${randomUUID().slice(0, 8)}`;
    let proxy: Awaited<ReturnType<typeof tcpProxy>>;
    let storage: TestStorage;
    let started: ServiceProcess;
    let admin: pg.Client;
    beforeAll(async () => {
      proxy = await tcpProxy(databaseUrl);
      storage = testStorage();
      started = await spawnService({ ...serviceEnv(storage), DATABASE_URL: named(proxy.url, applicationName) });
      admin = await adminClient(databaseUrl);
      // A flag on a person property: every /flags reads the person (a named prepared statement) from the database.
      await restApi(started.url, started.key)('POST', `/api/projects/${started.projectId}/feature_flags/`, {
        key: 'pro',
        filters: { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }], rollout_percentage: 100 }] },
      });
    });
    afterAll(async () => {
      await started?.stop();
      await proxy?.close();
      await admin?.end();
      await storage?.drop();
    });

    it('stays up while its backends are terminated, answering 200 or 503 with Retry-After, and serves again without a restart', async () => {
      const terminate = () =>
        admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where pid <> pg_backend_pid() and datname = current_database() and application_name = $1',
          [applicationName],
        );
      const served = await flags(started.url, started.token);
      expect(served.status).toBe(200);

      const acknowledged: string[] = [];
      const answers: Answer[] = [];
      let terminated = 0;
      for (let round = 0; round < 8; round++) {
        const batch = [event(), event()];
        const requests = [
          capture(started, batch).then((answer) => {
            if (answer.status === 200) acknowledged.push(...batch.map((e) => e.uuid));
            return answer;
          }),
          flags(started.url, started.token),
          listFlags(started),
          call(started.url, '/_health'),
        ];
        terminated += (await terminate()).rowCount ?? 0;
        answers.push(...(await Promise.all(requests)));
        await sleep(20);
      }
      expect(terminated).toBeGreaterThan(0);
      expect(alive(started)).toBe(true);
      for (const answer of answers) {
        if (answer.body && 'database' in (answer.body as object))
          expect([200, 503]).toContain(answer.status); // /_health
        else expectServedOrUnavailable(answer);
      }

      // The pool connects anew and named prepared statements are prepared again on the new connections.
      await eventually(async () => (await flags(started.url, started.token)).status === 200);
      expect(await flags(started.url, started.token)).toMatchObject({ status: 200, body: { flags: { pro: { enabled: false } } } });
      expect((await capture(started)).status).toBe(200);
      expect((await listFlags(started)).status).toBe(200);
      expect(await call(started.url, '/_health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
      expect(alive(started)).toBe(true);
      const stored = await admin.query(`select count(*)::int as n from ${storage.databaseSchema}.events where uuid::text = any($1::text[])`, [acknowledged]);
      expect(stored.rows[0].n).toBe(acknowledged.length);
    });

    it('answers 503 with Retry-After everywhere, and says so on /_health, while the database is unreachable; recovers when it is back', async () => {
      expect(await call(started.url, '/_health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
      expect((await capture(started)).status).toBe(200);

      proxy.cut();
      const health = await call(started.url, '/_health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'unavailable', database: 'unreachable' });
      const lost = [event('kept by the SDK')];
      expectUnavailable(await capture(started, lost)); // not acknowledged: the SDK keeps the event and retries
      expectUnavailable(await flags(started.url, started.token));
      expectUnavailable(await listFlags(started));
      expectUnavailable(
        await call(started.url, `/api/projects/${started.projectId}/feature_flags/`, { method: 'POST', key: started.key, body: { key: 'during-outage' } }),
      );
      expect(alive(started)).toBe(true);

      proxy.restore();
      await eventually(async () => (await call(started.url, '/_health')).status === 200);
      expect(await call(started.url, '/_health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });
      expect((await capture(started, lost)).status).toBe(200); // the SDK's retry
      expect((await flags(started.url, started.token)).status).toBe(200);
      expect((await listFlags(started)).status).toBe(200);
      expect(alive(started)).toBe(true);
    });

    it('sees a flag changed by another instance while its LISTEN connection was down, once it is back (cache invalidated on the gap)', async () => {
      // Instance `a` reaches PostgreSQL through a proxy of its own; `other` directly.
      const name = `listen-${randomUUID().slice(0, 8)}`;
      const link = await tcpProxy(databaseUrl);
      cleanups.push(() => link.close());
      const other = await startService();
      cleanups.push(() => other.close());
      const a = await startService({}, { ...other.storage, databaseUrl: named(link.url, name), drop: async () => undefined });
      cleanups.push(() => a.close({ keepData: true }));

      const created = await other.app.inject({
        method: 'POST',
        url: `/api/projects/${other.projectId}/feature_flags/`,
        headers: other.headers,
        payload: { key: 'missed', filters: { groups: [{ rollout_percentage: 0 }] } },
      });
      expect(created.statusCode).toBe(201);
      const read = async () =>
        (await a.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: a.token, distinct_id: 'x' } })).json().flags.missed.enabled;
      expect(await read()).toBe(false); // cached in `a`

      // Only a's LISTEN connection goes, and its new one waits (unanswered); its pooled connections stay, so `a` serves on.
      link.hold();
      const links = link.links;
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1 and query ilike 'listen%'",
        [name],
      );
      expect(killed.rowCount).toBe(1);
      await eventually(async () => link.links < links);
      await sleep(100);
      expect(await read()).toBe(false); // served (cached, or loaded again) while `a` is not listening

      const patched = await other.app.inject({
        method: 'PATCH',
        url: `/api/projects/${other.projectId}/feature_flags/${created.json().id}/`,
        headers: other.headers,
        payload: { filters: { groups: [{ rollout_percentage: 100 }] } },
      });
      expect(patched.statusCode).toBe(200); // notified while `a` was not listening

      link.restore();
      await eventually(read);
    });
  });

// Registered only in the sqlite project of the suite (vitest.config.ts runs both).
if (dialect === 'sqlite')
  describe('SQLite that cannot be written (issue 10)', () => {
    it('answers 503 with Retry-After while another process holds the file locked, and stores again once released', async () => {
      const storage = testStorage();
      cleanups.push(() => storage.drop());
      const started = await spawnService(serviceEnv(storage, { DATABASE_TIMEOUT_MS: '100' }));
      cleanups.push(() => started.stop());
      expect(await call(started.url, '/_health')).toMatchObject({ status: 200, body: { status: 'ok', database: 'ok' } });

      const holder = new SQLite(path.join(storage.dataDir, 'service.db'));
      cleanups.push(async () => holder.close());
      holder.exec('BEGIN EXCLUSIVE');
      expectUnavailable(await capture(started));
      expectUnavailable(
        await call(started.url, `/api/projects/${started.projectId}/feature_flags/`, { method: 'POST', key: started.key, body: { key: 'locked-out' } }),
      );
      expect((await listFlags(started)).status).toBe(200); // reads go on
      expect(alive(started)).toBe(true);

      holder.exec('COMMIT');
      expect((await capture(started)).status).toBe(200);
      expect(alive(started)).toBe(true);
    });

    it('answers 503 with Retry-After when the database is full (SQLITE_FULL), and stores again once there is room', async () => {
      const s = await startService();
      cleanups.push(() => s.close());
      const db = s.services.db.kysely;
      const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!.page_count;
      await sql.raw(`pragma max_page_count = ${pages}`).execute(db);
      const big = { ...event(), properties: { blob: 'x'.repeat(50_000) } };
      const captured = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch: [big] } });
      expectUnavailable({ status: captured.statusCode, body: captured.json(), retryAfter: captured.headers['retry-after'] as string | null });

      await sql.raw('pragma max_page_count = 1073741823').execute(db);
      const retried = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch: [big] } });
      expect(retried.statusCode).toBe(200);
    });
  });
