import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';
import { gzipJsBody, recording, snapshotEvent, type RrwebEvent } from './replay-helpers';

// Issue 33: the recordings API over sessions recorded through `/s/` as posthog-js sends them and events captured
// with their `$session_id`: list (filters, paging), a recording, its rrweb events streamed, its timeline, delete.

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
let s: TestService;
let base: string;

const ids = { home: randomUUID(), checkout: randomUUID(), anonymous: randomUUID(), elsewhere: randomUUID(), exceptionOnly: randomUUID() };
/** The events each recording was sent, as recorded. */
const recorded: Record<string, RrwebEvent[]> = {};
/** A recording without a console error. */
const calm = (events: RrwebEvent[]) => events.filter((e) => !(e.type === 6 && (e.data.payload as { level: string }).level === 'error'));

async function record(sessionId: string, events: RrwebEvent[], distinctId: string, token = s.token, currentUrl?: string) {
  // Two batches, the second sent first: the recording is read back in order all the same.
  const half = Math.floor(events.length / 2);
  for (const part of [events.slice(half), events.slice(0, half)]) {
    const res = await s.app.inject({
      method: 'POST',
      url: '/s/?compression=gzip-js',
      headers: { 'content-type': 'text/plain' },
      payload: gzipJsBody([snapshotEvent(part, { sessionId, distinctId, token, currentUrl })]),
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  recorded[sessionId] = events;
}
const capture = async (batch: unknown[], token = s.token) => {
  const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: token, batch } });
  expect(res.statusCode, res.body).toBe(200);
};
const get = (url: string, headers: Record<string, string> = s.headers) => s.app.inject({ url, headers });
const list = async (query = '') => {
  const res = await get(`${base}/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { count: number; next: string | null; previous: string | null; results: Array<Record<string, unknown>> };
};
const listed = async (query: string) => (await list(query)).results.map((r) => r.id);

let other: { id: number; api_token: string };
beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/session_recordings`;
  await record(ids.home, recording(T0, { seconds: 10, href: 'https://app.example.com/Home' }), 'user-1');
  await record(ids.checkout, calm(recording(T0 + 3_600_000, { seconds: 60, href: 'https://app.example.com/checkout' })), 'user-2');
  await record(ids.anonymous, calm(recording(T0 - 86_400_000, { seconds: 2, href: 'https://app.example.com/pricing' })), 'anon-1');
  await capture([
    {
      event: '$identify',
      distinct_id: 'user-1',
      timestamp: new Date(T0 + 100).toISOString(),
      properties: { $set: { email: 'ada@example.com' }, $session_id: ids.home },
    },
    {
      event: '$pageview',
      distinct_id: 'user-1',
      timestamp: new Date(T0 + 500).toISOString(),
      properties: { $session_id: ids.home, $current_url: 'https://app.example.com/Home', $pathname: '/Home' },
    },
    {
      event: '$autocapture',
      distinct_id: 'user-1',
      timestamp: new Date(T0 + 2_000).toISOString(),
      properties: { $session_id: ids.home, $event_type: 'click', $el_text: 'Buy now', 'big payload': 'x'.repeat(10_000) },
    },
    {
      event: '$exception',
      distinct_id: 'user-1',
      timestamp: new Date(T0 + 3_000).toISOString(),
      properties: { $session_id: ids.home, $exception_list: [{ type: 'TypeError', value: 'x is undefined' }] },
    },
    {
      event: 'checkout started',
      distinct_id: 'user-2',
      timestamp: new Date(T0 + 3_601_000).toISOString(),
      properties: { $session_id: ids.checkout, '$feature/beta': 'test' },
    },
    {
      event: 'pricing seen',
      distinct_id: 'anon-1',
      timestamp: new Date(T0 - 86_399_000).toISOString(),
      properties: { $session_id: ids.anonymous, '$feature/beta': 'control' },
    },
    // An exception in a session that never sent a snapshot: no recording.
    { event: '$exception', distinct_id: 'user-2', properties: { $session_id: ids.exceptionOnly, $exception_list: [{ type: 'Error', value: 'no replay' }] } },
  ]);
  other = await s.services.projects.create('Other');
  await record(ids.elsewhere, recording(T0, { seconds: 1 }), 'user-1', other.api_token);
});
afterAll(() => s.close());

describe('GET /api/projects/:id/session_recordings/', () => {
  it('lists the recorded sessions (not sessions without snapshots, not other projects), newest first, with their metadata', async () => {
    const page = await list();
    expect(page.count).toBe(3);
    expect(page.results.map((r) => r.id)).toEqual([ids.checkout, ids.home, ids.anonymous]);
    const home = page.results[1]!;
    expect(home).toMatchObject({
      id: ids.home,
      distinct_id: 'user-1',
      person: { name: 'ada@example.com', distinct_ids: ['user-1'] },
      start_time: new Date(T0).toISOString(),
      click_count: 10,
      keypress_count: 10,
      console_error_count: 1,
      console_warn_count: 1,
      console_log_count: 1,
      exception_count: 1,
      start_url: 'https://app.example.com/Home',
      ongoing: true,
    });
    expect(home.duration).toBeCloseTo(10.4, 3);
    expect(home.event_count).toBe(recorded[ids.home]!.length);
    expect(home.size_bytes).toBeGreaterThan(0);
    expect(home.active_seconds).toBeGreaterThan(0);
    const persons = (await get(`/api/projects/${s.projectId}/persons/?distinct_id=user-1`)).json().results;
    expect((home.person as { id: string }).id).toBe(persons[0].id);
  });

  it('pages with limit and offset, with next and previous links', async () => {
    const first = await list('?limit=2');
    expect(first.results.map((r) => r.id)).toEqual([ids.checkout, ids.home]);
    expect(first.previous).toBeNull();
    const next = new URL(first.next!);
    expect(next.searchParams.get('offset')).toBe('2');
    const second = await list(`?${next.searchParams}`);
    expect(second.results.map((r) => r.id)).toEqual([ids.anonymous]);
    expect(second.next).toBeNull();
    expect(second.previous).not.toBeNull();
  });

  it('filters by person, distinct id, dates, duration, errors, URL visited and flag variant', async () => {
    const person = (await get(`/api/projects/${s.projectId}/persons/?distinct_id=user-2`)).json().results[0].id as string;
    expect(await listed(`?person_id=${person}`)).toEqual([ids.checkout]);
    expect(await listed(`?person_id=${randomUUID()}`)).toEqual([]);
    expect(await listed('?distinct_id=anon-1')).toEqual([ids.anonymous]);
    expect(await listed('?date_from=2026-11-20')).toEqual([ids.checkout, ids.home]);
    expect(await listed('?date_to=2026-11-20')).toEqual([ids.checkout, ids.home, ids.anonymous]);
    expect(await listed('?date_to=2026-11-19')).toEqual([ids.anonymous]);
    expect(await listed(`?date_from=${encodeURIComponent('2026-11-20T10:30:00Z')}`)).toEqual([ids.checkout]);
    expect(await listed('?date_from=-7d')).toEqual([]);
    expect(await listed('?duration_min=30')).toEqual([ids.checkout]);
    expect(await listed('?duration_max=10.5')).toEqual([ids.home, ids.anonymous]);
    expect(await listed('?duration_min=5&duration_max=20')).toEqual([ids.home]);
    expect(await listed('?has_errors=true')).toEqual([ids.home]);
    expect(await listed('?has_errors=false')).toEqual([ids.checkout, ids.anonymous]);
    expect(await listed('?url=HOME')).toEqual([ids.home]);
    expect(await listed('?url=example.com')).toEqual([ids.checkout, ids.home, ids.anonymous]);
    expect(await listed('?url=50%25')).toEqual([]);
    expect(await listed('?flag=beta&variant=test')).toEqual([ids.checkout]);
    expect(await listed('?flag=beta')).toEqual([ids.checkout, ids.anonymous]);
    expect(await listed('?flag=beta&variant=test&has_errors=true')).toEqual([]);
  });

  it('answers 400 naming the parameter for a filter it cannot read', async () => {
    const cases: Array<[string, string]> = [
      ['?date_from=yesterday', 'date_from'],
      ['?date_from=2026-11-21&date_to=2026-11-20', 'date_from'],
      ['?duration_min=abc', 'duration_min'],
      ['?duration_min=-3', 'duration_min'],
      ['?duration_min=20&duration_max=10', 'duration_min'],
      ['?has_errors=maybe', 'has_errors'],
      ['?variant=test', 'flag'],
    ];
    for (const [query, attr] of cases) {
      const res = await get(`${base}/${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ type: 'validation_error', attr });
    }
  });
});

describe('a recording', () => {
  it('has its metadata, the URLs visited, and counts of its blocks and skipped events', async () => {
    const res = await get(`${base}/${ids.home}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: ids.home, urls: ['https://app.example.com/Home'], skipped_count: 0, block_count: 2, click_count: 10 });
  });

  it('streams its rrweb events as a JSON array, in time order, each once, plain (as recorded, whatever order the batches came in)', async () => {
    const res = await get(`${base}/${ids.checkout}/snapshots/`);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const events = res.json() as RrwebEvent[];
    expect(events).toEqual(recorded[ids.checkout]);
    expect(events[1]!.type).toBe(2);
  });

  it('has its events for a timeline, in time order, with only what a timeline shows', async () => {
    const res = await get(`${base}/${ids.home}/events/`);
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json() as { results: Array<{ event: string; properties: Record<string, unknown>; timestamp: string; uuid: string }> };
    expect(results.map((e) => e.event)).toEqual(['$identify', '$pageview', '$autocapture', '$exception']);
    expect(results[1]!.properties).toEqual({ $current_url: 'https://app.example.com/Home', $pathname: '/Home' });
    expect(results[2]!.properties).toEqual({ $event_type: 'click', $el_text: 'Buy now' });
    expect(results[3]!.properties).toEqual({ $exception_types: ['TypeError'], $exception_message: 'x is undefined' });
    expect(results[2]!.timestamp).toBe(new Date(T0 + 2_000).toISOString());
  });

  it('is a 404 (JSON) when unknown, without snapshots, or another project’s, on every route', async () => {
    for (const id of [randomUUID(), ids.exceptionOnly, ids.elsewhere]) {
      for (const suffix of ['', 'snapshots/', 'events/']) {
        const res = await get(`${base}/${id}/${suffix}`);
        expect(res.statusCode, `${id} ${suffix}`).toBe(404);
        expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'not_found', attr: null });
      }
      expect((await s.app.inject({ method: 'DELETE', url: `${base}/${id}/`, headers: s.headers })).statusCode).toBe(404);
    }
  });

  it('is read with session_recording:read and deleted with session_recording:write only', async () => {
    const reader = s.auth(await s.keyWith(['session_recording:read']));
    expect((await get(`${base}/`, reader)).statusCode).toBe(200);
    expect((await get(`${base}/${ids.home}/snapshots/`, reader)).statusCode).toBe(200);
    expect((await s.app.inject({ method: 'DELETE', url: `${base}/${ids.home}/`, headers: reader })).statusCode).toBe(403);
    const unrelated = s.auth(await s.keyWith(['event:read', 'person:read']));
    for (const suffix of ['', `${ids.home}/`, `${ids.home}/snapshots/`, `${ids.home}/events/`]) {
      expect((await get(`${base}/${suffix}`, unrelated)).statusCode, suffix).toBe(403);
    }
    const limited = s.auth(await s.keyWith(['session_recording:read'], [other.id]));
    expect((await get(`${base}/`, limited)).statusCode).toBe(403);
    expect((await get(`/api/projects/${other.id}/session_recordings/${ids.elsewhere}/`, limited)).statusCode).toBe(200);
  });

  it('is ongoing while batches arrive, and not once none came for 5 minutes', async () => {
    const old = new Date(Date.now() - 6 * 60_000).toISOString();
    await s.services.db.kysely.updateTable('replay_sessions').set({ updated_at: old }).where('session_id', '=', ids.anonymous).execute();
    expect((await get(`${base}/${ids.anonymous}/`)).json().ongoing).toBe(false);
  });

  it('is deleted with its stored events and metadata (204), logged; its session’s events stay', async () => {
    const res = await s.app.inject({ method: 'DELETE', url: `${base}/${ids.anonymous}/`, headers: s.headers });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await get(`${base}/${ids.anonymous}/`)).statusCode).toBe(404);
    expect((await get(`${base}/${ids.anonymous}/snapshots/`)).statusCode).toBe(404);
    expect(await listed('')).toEqual([ids.checkout, ids.home]);
    const blocks = await s.services.db.kysely.selectFrom('replay_blocks').select('seq').where('session_id', '=', ids.anonymous).execute();
    expect(blocks).toEqual([]);
    const log = await get(`/api/projects/${s.projectId}/activity_log/?scope=SessionRecording&item_id=${ids.anonymous}`);
    expect(log.json().results).toMatchObject([{ activity: 'deleted', item_id: ids.anonymous }]);
    const events = await s.services.db.kysely.selectFrom('events').select('event').where('session_id', '=', ids.anonymous).execute();
    expect(events.map((e) => e.event)).toEqual(['pricing seen']);
  });
});
