import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outcomeOf, retryDelay, RETRY_FOR_MS } from '../src/webhooks/delivery-worker';
import { serverVersion } from '../src/version';
import { publicOnlyLookup, RefusedAddressError } from '../src/webhooks/target';
import { freePort, startService, testStorage, type TestService } from './helpers';

// Issue 12, point 6: deliveries go through the outbox to a real HTTP receiver on loopback (WEBHOOK_ALLOW_PRIVATE
// on), polled every 50 ms, retried after 200 ms, 400 ms, ...

const fast = { webhookAllowPrivate: true, webhookPollMs: 50, webhookRetryBaseMs: 200 };

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1: records every request and answers with the next of `statuses` (200 when none is
 * left); 'hang' holds the response until `release()`.
 */
async function receiver(port = 0) {
  const received: Received[] = [];
  const statuses: (number | 'hang')[] = [];
  const held: http.ServerResponse[] = [];
  let responded = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses.shift() ?? 200;
      if (status === 'hang') return void held.push(response);
      responded++;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : `failing with ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    received,
    statuses,
    responded: () => responded,
    release() {
      for (const response of held.splice(0)) {
        responded++;
        response.writeHead(200).end('late');
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof receiver>>;

/** Waits until `check` returns something truthy (the worker runs on its own); fails after 15 s. */
async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});
async function newReceiver(port?: number) {
  const r = await receiver(port);
  receivers.push(r);
  return r;
}

async function addWebhook(s: TestService, url: string, kinds = ['feature_flag.changed']) {
  const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/webhooks/`, headers: s.headers, payload: { url, kinds } });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; secret: string };
}

async function newFlag(s: TestService, key: string) {
  const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload: { key } });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number };
}

const patchFlag = (s: TestService, id: number, payload: Record<string, unknown>) =>
  s.app.inject({ method: 'PATCH', url: `/api/projects/${s.projectId}/feature_flags/${id}/`, headers: s.headers, payload });

interface Delivery {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  payload: { id: string; kind: string; data: Record<string, unknown> };
}
async function deliveries(s: TestService, webhookId: string, query = ''): Promise<Delivery[]> {
  const res = await s.app.inject({ url: `/api/projects/${s.projectId}/webhooks/${webhookId}/deliveries/${query}`, headers: s.headers });
  expect(res.statusCode).toBe(200);
  return res.json().results;
}

describe('webhook deliveries', () => {
  let s: TestService;
  beforeAll(async () => {
    s = await startService(fast);
  });
  afterAll(() => s.close());
  // Each test's webhooks go with it, so that no later receiver (on a reused port) gets their retries.
  afterEach(() => s.services.db.kysely.deleteFrom('webhooks').where('project_id', '=', s.projectId).execute());

  it('POSTs a feature_flag.changed delivery signed by the Standard Webhooks scheme, which standardwebhooks verifies', async () => {
    const r = await newReceiver();
    const hook = await addWebhook(s, r.url);
    const flag = await newFlag(s, 'signed');
    const got = await until(() => r.received[0], 'the delivery');
    const body = JSON.parse(got.body);
    expect(new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>)).toEqual(body);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe(`flagstation-webhooks/${serverVersion}`);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(body).toEqual({
      id: got.headers['webhook-id'],
      kind: 'feature_flag.changed',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      project_id: s.projectId,
      data: { feature_flag: { id: flag.id, key: 'signed', name: '', active: true, deleted: false, version: 1 }, change: 'created' },
    });
    // Signed with another secret, it does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 9).toString('base64')}`).verify(got.body, got.headers as Record<string, string>)).toThrow();
    const [delivery] = await until(async () => {
      const list = await deliveries(s, hook.id);
      return list[0]?.status === 'succeeded' && list;
    }, 'the delivery to be recorded');
    expect(delivery).toMatchObject({ id: body.id, kind: 'feature_flag.changed', status: 'succeeded', attempts: 1, last_response_code: 200, last_error: null });
    expect(delivery!.payload).toEqual(body);
    expect(delivery!.next_attempt_at).toBeNull();
    expect(delivery!.delivered_at).not.toBeNull();
  });

  it('sends feature_flag.changed on a flag PATCH (updated) and a soft delete (deleted), once per webhook wanting it', async () => {
    const r = await newReceiver();
    const flag = await newFlag(s, 'patched');
    await addWebhook(s, r.url);
    await addWebhook(s, r.url, ['early_access.enrolled']);
    expect((await patchFlag(s, flag.id, { active: false, name: 'Patched' })).statusCode).toBe(200);
    expect((await patchFlag(s, flag.id, { deleted: true })).statusCode).toBe(200);
    await until(() => r.received.length >= 2, 'two deliveries');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const bodies = r.received.map((x) => JSON.parse(x.body)).sort((a, b) => a.data.feature_flag.version - b.data.feature_flag.version);
    expect(bodies.map((b) => b.data)).toEqual([
      { feature_flag: { id: flag.id, key: 'patched', name: 'Patched', active: false, deleted: false, version: 2 }, change: 'updated' },
      { feature_flag: { id: flag.id, key: 'patched', name: 'Patched', active: false, deleted: true, version: 3 }, change: 'deleted' },
    ]);
  });

  it('retries a receiver that fails twice with back-off: the third attempt delivers, and the list shows attempts 3, succeeded, 200', async () => {
    const r = await newReceiver();
    r.statuses.push(500, 500);
    const hook = await addWebhook(s, r.url);
    await newFlag(s, 'retried');
    const [delivery] = await until(async () => {
      const list = await deliveries(s, hook.id);
      return list[0]?.status === 'succeeded' && list;
    }, 'the third attempt');
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, last_response_code: 200, last_error: null });
    expect(r.received.length).toBe(3);
    // The same delivery each time: one webhook-id, a fresh signature per attempt that verifies.
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([delivery!.id]));
    for (const attempt of r.received) expect(() => new Webhook(hook.secret).verify(attempt.body, attempt.headers as Record<string, string>)).not.toThrow();
  });

  it('records a failed attempt with its response code and error, and keeps it pending for the next', async () => {
    const r = await newReceiver();
    r.statuses.push(503, 503, 503, 503, 503, 503);
    const hook = await addWebhook(s, r.url);
    await newFlag(s, 'failing');
    const [delivery] = await until(async () => {
      const list = await deliveries(s, hook.id);
      return (list[0]?.attempts ?? 0) >= 1 && list[0]?.status === 'pending' && list[0].last_response_code !== null && list;
    }, 'a failed attempt');
    expect(delivery).toMatchObject({ status: 'pending', last_response_code: 503, last_error: 'HTTP 503: failing with 503' });
    expect(Date.parse(delivery!.next_attempt_at!)).toBeGreaterThan(Date.now() - 1000);
    expect((await deliveries(s, hook.id, '?status=succeeded')).length).toBe(0);
    expect((await deliveries(s, hook.id, '?status=pending')).length).toBe(1);
  });

  it('fails a delivery at once when the receiver answers 410 Gone', async () => {
    const r = await newReceiver();
    r.statuses.push(410);
    const hook = await addWebhook(s, r.url);
    await newFlag(s, 'gone');
    const [delivery] = await until(async () => {
      const list = await deliveries(s, hook.id);
      return list[0]?.status === 'failed' && list;
    }, 'the failure');
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_response_code: 410, next_attempt_at: null, delivered_at: null });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.received.length).toBe(1);
  });

  it('answers the API request that causes a delivery while the receiver hangs', async () => {
    const r = await newReceiver();
    r.statuses.push('hang', 'hang');
    const hook = await addWebhook(s, r.url);
    const flag = await newFlag(s, 'hanging');
    // The creation's delivery reaches the receiver, which does not answer ...
    await until(() => r.received.length >= 1, 'the receiver to hold the first delivery');
    // ... and a change that enqueues another delivery is answered all the same, before the receiver ever responds.
    const res = await patchFlag(s, flag.id, { name: 'while hanging' });
    expect(res.statusCode).toBe(200);
    expect(r.responded()).toBe(0);
    await until(() => r.received.length >= 2, 'the second delivery to be held too');
    expect((await patchFlag(s, flag.id, { name: 'still hanging' })).statusCode).toBe(200);
    expect(r.responded()).toBe(0);
    r.release();
    await until(async () => (await deliveries(s, hook.id, '?status=succeeded')).length === 3, 'all three delivered');
  });
});

describe('webhook deliveries across a restart', () => {
  it('loses no delivery when the service restarts between attempts', async () => {
    const storage = testStorage();
    const port = await freePort();
    const first = await startService(fast, storage);
    let hookId: string;
    try {
      hookId = (await addWebhook(first, `http://127.0.0.1:${port}/hook`)).id;
      await newFlag(first, 'durable');
      // The receiver is down: the first attempt fails and the delivery waits for the next.
      const [failed] = await until(async () => {
        const list = await deliveries(first, hookId);
        return (list[0]?.attempts ?? 0) >= 1 && list[0]?.status === 'pending' && list[0].last_error !== null && list;
      }, 'a failed attempt');
      expect(failed!.last_error).toMatch(/ECONNREFUSED/);
    } finally {
      await first.close({ keepData: true });
    }

    const r = await newReceiver(port);
    const second = await startService(fast, storage);
    try {
      // Started as `service start` starts it (listen readies the app, which starts the worker); no request is needed.
      await second.app.ready();
      const got = await until(() => r.received[0], 'the delivery after the restart');
      expect(JSON.parse(got.body)).toMatchObject({ kind: 'feature_flag.changed', data: { change: 'created', feature_flag: { key: 'durable' } } });
      const [delivery] = await until(async () => {
        const list = await deliveries(second, hookId);
        return list[0]?.status === 'succeeded' && list;
      }, 'the delivery to be recorded');
      expect(delivery!.id).toBe(got.headers['webhook-id']);
      expect(delivery!.attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await second.close();
    }
  });

  it('retries, at the next start, an attempt cut short by the service stopping', async () => {
    const storage = testStorage();
    const r = await newReceiver();
    r.statuses.push('hang');
    const first = await startService(fast, storage);
    let hookId: string;
    try {
      hookId = (await addWebhook(first, r.url)).id;
      await newFlag(first, 'cut-short');
      await until(() => r.received.length >= 1, 'the held attempt');
    } finally {
      await first.close({ keepData: true });
    }
    const second = await startService(fast, storage);
    try {
      await until(async () => (await deliveries(second, hookId, '?status=succeeded')).length === 1, 'the delivery after the restart');
      expect(r.received.length).toBe(2);
      expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    } finally {
      await second.close();
    }
  });
});

describe('webhook deliveries to private addresses', () => {
  let s: TestService;
  beforeAll(async () => {
    s = await startService({ ...fast, webhookAllowPrivate: false });
  });
  afterAll(() => s.close());

  it.each([
    ['address literal', '127.0.0.1', 1],
    ['IPv4-compatible address literal', '[::127.0.0.1]', 2],
    ['host name resolving to loopback', 'localhost', 3],
  ])('refuses at send time a webhook whose %s is private (allowed when created, now refused), without a request', async (_form, host, n) => {
    const r = await newReceiver();
    const url = r.url.replace('127.0.0.1', host);
    // Stored as if created while WEBHOOK_ALLOW_PRIVATE was on.
    const now = new Date().toISOString();
    const id = `0190a000-0000-7000-8000-00000000000${n}`;
    await s.services.db.kysely
      .insertInto('webhooks')
      .values({
        id,
        project_id: s.projectId,
        url,
        secret: `whsec_${Buffer.alloc(32).toString('base64')}`,
        kinds: '["feature_flag.changed"]',
        enabled: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await newFlag(s, `private-${n}`);
    const [delivery] = await until(async () => {
      const list = await deliveries(s, id);
      return (list[0]?.attempts ?? 0) >= 1 && list[0]?.last_error !== null && list;
    }, 'the refused attempt');
    expect(delivery!.last_error).toMatch(/^refused: .*(loopback, private or reserved)/);
    expect(delivery!.last_response_code).toBeNull();
    expect(r.received.length).toBe(0);
    await s.services.db.kysely.deleteFrom('webhooks').where('id', '=', id).execute();
  });

  it.each(['::127.0.0.1', '::7f00:1', '::ffff:10.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '::ffff:0:127.0.0.1'])(
    'refuses at send time a host name that resolves to %s (an IPv6 address reaching a private IPv4 one, or reserved)',
    async (address) => {
      // Name resolution hands the lookup what it found; for an address it is that address, written as given.
      const error = await new Promise<Error | null>((resolve) => publicOnlyLookup(address, {}, (e) => resolve(e)));
      expect(error).toBeInstanceOf(RefusedAddressError);
      expect(error!.message).toMatch(/loopback, private or reserved/);
    },
  );

  it('lets a host name resolve to an IPv6 address that reaches a public IPv4 one (NAT64)', async () => {
    const found = await new Promise<[Error | null, string]>((resolve) =>
      publicOnlyLookup('64:ff9b::5db8:d70e', {}, (e, address) => resolve([e, address as string])),
    );
    expect(found).toEqual([null, '64:ff9b::5db8:d70e']);
  });
});

describe('retry schedule', () => {
  it('doubles the wait from the base with each attempt, within ±20 %, up to an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 30_000, 0.5))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelay(1, 30_000, 0)).toBe(24_000);
    expect(retryDelay(1, 30_000, 1)).toBe(36_000);
    expect(retryDelay(30, 30_000, 0.5)).toBe(3_600_000);
  });

  it('fails a delivery whose next attempt would come more than 24 hours after its creation', () => {
    const created = Date.parse('2025-01-01T00:00:00.000Z');
    const failure = { status: 500, error: 'HTTP 500' };
    const early = outcomeOf(failure, { attempts: 3, created_at: new Date(created).toISOString() }, created + 60_000, 30_000);
    expect(early.status).toBe('pending');
    const late = outcomeOf(failure, { attempts: 30, created_at: new Date(created).toISOString() }, created + RETRY_FOR_MS - 60_000, 30_000);
    expect(late).toMatchObject({ status: 'failed', last_response_code: 500, last_error: 'HTTP 500' });
  });
});
