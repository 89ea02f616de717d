import { eventually, openEventStream } from '@service/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

const NOTICE = /id: (\S+)\nevent: message\ndata: \{"type":"refetchEvaluation","etag":"\1"\}\n\n/;
const notices = (text: string) => [...text.matchAll(new RegExp(NOTICE, 'g'))].map((m) => m[1]!);
const opened = (text: string) => /^: connected\nretry: 2000\nid: (\S+)\n\n/.exec(text)?.[1];

async function listening(config: Parameters<typeof startService>[0] = {}) {
  const s = await startService(config);
  await s.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = s.app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return { ...s, url, stream: (query = `token=${s.token}`, headers: Record<string, string> = {}) => openEventStream(`${url}/flags/stream?${query}`, headers) };
}

let s: Awaited<ReturnType<typeof listening>>;
beforeAll(async () => {
  s = await listening();
});
afterAll(() => s.close());

const createFlag = (service: TestService, projectId: number, key: string) =>
  service.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/feature_flags/`,
    headers: service.headers,
    payload: { key, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
  });

describe('GET /flags/stream', () => {
  it('opens as an event stream with CORS as /flags: the connected comment, the retry delay and the current version as its id', async () => {
    const stream = await s.stream(undefined, { origin: 'https://app.example.com' });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(stream.headers.get('access-control-allow-credentials')).toBe('true');
    expect(opened(await stream.waitFor(/\n\n/))).toMatch(/\S/);
    await stream.close();
  });

  it("tells a project's streams of a flag change, with a new version, and only that project's", async () => {
    const other = await s.services.projects.create('Other');
    const mine = await s.stream();
    const theirs = await s.stream(`token=${other.api_token}`);
    const first = opened(await mine.waitFor(/\n\n/));
    await theirs.waitFor(/\n\n/);

    expect((await createFlag(s, s.projectId, 'stream-flag')).statusCode).toBe(201);
    await mine.waitFor(NOTICE);
    const [version] = notices(mine.text);
    expect(version).not.toBe(first);

    // Their stream hears their change only: a notice of ours would have come before this one, on the same connection.
    expect((await createFlag(s, other.id, 'their-flag')).statusCode).toBe(201);
    await theirs.waitFor(NOTICE);
    expect(notices(theirs.text)).toHaveLength(1);
    await Promise.all([mine.close(), theirs.close()]);
  });

  it('tells of an early access feature created and moved to another stage', async () => {
    const stream = await s.stream();
    await stream.waitFor(/\n\n/);
    const created = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: s.headers,
      payload: { name: 'Streamed feature', stage: 'beta' },
    });
    expect(created.statusCode).toBe(201);
    await stream.waitFor(NOTICE);
    const moved = await s.app.inject({
      method: 'PATCH',
      url: `/api/projects/${s.projectId}/early_access_feature/${created.json<{ id: string }>().id}`,
      headers: s.headers,
      payload: { stage: 'alpha' },
    });
    expect(moved.statusCode).toBe(200);
    await eventually(() => notices(stream.text).length === 2);
    expect(new Set(notices(stream.text)).size).toBe(2);
    await stream.close();
  });

  it('tells a reconnecting client at once when its Last-Event-ID is not the current version', async () => {
    const first = await s.stream();
    const current = opened(await first.waitFor(/\n\n/))!;
    await first.close();
    const behind = await s.stream(undefined, { 'last-event-id': 'another-version' });
    expect(notices(await behind.waitFor(NOTICE))).toEqual([current]);
    const upToDate = await s.stream(undefined, { 'last-event-id': current });
    await upToDate.waitFor(/\n\n/);
    await createFlag(s, s.projectId, 'after-reconnect');
    await upToDate.waitFor(NOTICE);
    expect(notices(upToDate.text)).toHaveLength(1);
    await Promise.all([behind.close(), upToDate.close()]);
  });

  it('answers a missing token 400, an unknown one 401, as JSON errors', async () => {
    const missing = await s.stream('');
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text)).toMatchObject({ type: 'validation_error', code: 'required', attr: 'token' });
    const unknown = await s.stream('token=phc_not_a_project_token', { origin: 'https://app.example.com' });
    expect(unknown.status).toBe(401);
    expect(JSON.parse(unknown.text)).toEqual({ type: 'authentication_error', code: 'invalid_api_key', detail: expect.any(String), attr: null });
    expect(unknown.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  });

  it('takes a personal API key that reads flags (service-node): 401 for a wrong one, 403 without the scope or for another project', async () => {
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    const good = await s.stream(undefined, bearer(await s.keyWith(['feature_flag:read'])));
    expect(good.status).toBe(200);
    await good.close();
    expect((await s.stream(undefined, bearer('phx_wrong'))).status).toBe(401);
    const noScope = await s.stream(undefined, bearer(await s.keyWith(['event:read'])));
    expect(noScope.status).toBe(403);
    const other = await s.services.projects.create('Elsewhere');
    const elsewhere = await s.stream(undefined, bearer(await s.keyWith(['feature_flag:read'], [other.id])));
    expect(elsewhere.status).toBe(403);
    expect(JSON.parse(elsewhere.text)).toMatchObject({ type: 'authentication_error', code: 'permission_denied' });
    expect((await s.stream('', bearer(s.key))).status).toBe(400);
  });

  it('lets a project open as many streams as it was given, then 429 with Retry-After until one closes', async () => {
    const limited = await listening({ streamMaxConnectionsPerToken: 2 });
    try {
      const open = [await limited.stream(), await limited.stream()];
      const refused = await limited.stream();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.parse(refused.text)).toMatchObject({ type: 'throttled_error', code: 'throttled' });
      await open[0]!.close();
      expect(await eventually(() => limited.services.flagStream.count(limited.projectId) === 1)).toBe(true);
      const again = await limited.stream();
      expect(again.status).toBe(200);
      await Promise.all([open[1]!.close(), again.close()]);
    } finally {
      await limited.close();
    }
  });

  it('sends a heartbeat comment on every open stream', async () => {
    const beating = await listening({ streamHeartbeatMs: 50 });
    try {
      const stream = await beating.stream();
      await stream.waitFor(/: ping\n\n: ping\n\n/);
      await stream.close();
    } finally {
      await beating.close();
    }
  });

  it('lets go of streams opened and dropped at once, and answers the next ones as before', async () => {
    const count = 500;
    const streams = await Promise.all(Array.from({ length: count }, () => s.stream()));
    expect(streams.map((stream) => stream.status)).toEqual(Array(count).fill(200));
    expect(s.services.flagStream.count(s.projectId)).toBeGreaterThanOrEqual(count);
    await Promise.all(streams.map((stream) => stream.close()));
    expect(await eventually(() => s.services.flagStream.size === 0, 10_000)).toBe(true);
    const connections = () => new Promise<number>((resolve, reject) => s.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    expect(await connections()).toBe(0);
    const next = await s.stream();
    await next.waitFor(/\n\n/);
    await createFlag(s, s.projectId, 'after-the-storm');
    await next.waitFor(NOTICE);
    await next.close();
  });

  it('ends every open stream when the service closes, so that it can close', async () => {
    const closing = await listening();
    const stream = await closing.stream();
    await stream.waitFor(/\n\n/);
    await closing.close();
    await stream.closed;
    expect(stream.ended).toBe(true);
  });
});
