// Issue 10, item 4: events with 15 MB property values were accepted, and 40 of them made
// GET /api/projects/:id/events/ a permanent 500 ("Invalid string length"). An event is now at most
// EVENT_MAX_BYTES serialized (larger ones are refused one by one, the rest of the batch is stored), and a
// page of events or persons stops adding rows at PAGE_MAX_BYTES.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_MAX_BYTES } from '../src/db/page';
import { startService, testConfig, type TestService } from './helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const MB = 1024 * 1024;
const LIMIT = testConfig.eventMaxBytes;
const someone = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

/** An event whose serialized size (properties JSON + name + distinct id, in UTF-8 bytes) is exactly `bytes`. */
function eventOf(bytes: number, distinctId: string, name = 'big') {
  const overhead = JSON.stringify({ blob: '' }).length + name.length + distinctId.length;
  return { event: name, distinct_id: distinctId, properties: { blob: 'x'.repeat(bytes - overhead) } };
}
const post = (url: string, payload: unknown) =>
  s.app.inject({ method: 'POST', url, payload: payload as object, headers: { 'content-type': 'application/json' } });
const storedEvents = async (distinctId: string) =>
  (await s.services.db.kysely.selectFrom('events').select(['event', 'properties']).where('distinct_id', '=', distinctId).orderBy('id').execute()).map(
    (r) => r.event,
  );

interface Page {
  count: number;
  next: string | null;
  results: { id: string }[];
}
/** Follows `next` links from `url`, checking each page's size; the ids in order and the pages' byte sizes. */
async function walk(url: string) {
  const ids: string[] = [];
  const sizes: number[] = [];
  let next: string | null = url;
  while (next) {
    const url: string = next;
    const res = await s.app.inject({ url, headers: s.headers });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const page: Page = res.json();
    sizes.push(res.rawPayload.length);
    ids.push(...page.results.map((r) => r.id));
    next = page.next;
    expect(sizes.length).toBeLessThan(100);
  }
  return { ids, sizes };
}

describe('capture: events above EVENT_MAX_BYTES', () => {
  it('stores an event of exactly EVENT_MAX_BYTES', async () => {
    const id = someone('at-limit');
    const res = await post('/batch/', { api_key: s.token, batch: [eventOf(LIMIT, id)] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1 });
    expect(await storedEvents(id)).toEqual(['big']);
  });

  it('refuses an event one byte over, naming it and the reason, and stores the rest of its batch with 200', async () => {
    const id = someone('over-limit');
    const batch = [{ event: 'before', distinct_id: id }, eventOf(LIMIT + 1, id), { event: 'after', distinct_id: id }];
    const res = await post('/batch/', { api_key: s.token, batch });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 1,
      refused: [{ type: 'invalid_request', code: 'event_too_large', detail: expect.stringContaining(`${LIMIT}`), attr: 'batch__1' }],
    });
    expect(await storedEvents(id)).toEqual(['before', 'after']);
  });

  it('measures an exception with its stacks, stored apart: one of exactly EVENT_MAX_BYTES is stored, one byte more refused', async () => {
    const id = someone('exception');
    const exception = (pad: string) => ({
      event: '$exception',
      distinct_id: id,
      properties: {
        $exception_list: [
          { type: 'Error', value: 'at the limit', stacktrace: { type: 'raw', frames: [{ filename: 'https://a.example/x.js', function: 'f', in_app: true }] } },
        ],
        pad,
      },
    });
    expect((await post('/batch/', { api_key: s.token, batch: [exception('')] })).statusCode).toBe(200);
    // Its size as stored: the properties read back whole (the stacks put back in), name and distinct id.
    const [stored] = (await s.app.inject({ url: `/api/projects/${s.projectId}/events/?distinct_id=${id}`, headers: s.headers })).json().results;
    const size = Buffer.byteLength(JSON.stringify(stored.properties)) + '$exception'.length + id.length;
    const atLimit = await post('/batch/', { api_key: s.token, batch: [exception('x'.repeat(LIMIT - size))] });
    expect(atLimit.json()).toEqual({ status: 1 });
    const over = await post('/batch/', { api_key: s.token, batch: [exception('x'.repeat(LIMIT - size + 1))] });
    expect(over.statusCode).toBe(413);
    expect(await storedEvents(id)).toEqual(['$exception', '$exception']);
  });

  it('answers 413 event_too_large when the only event of a request is too large, and stores nothing', async () => {
    const id = someone('alone');
    const res = await post('/e/', { api_key: s.token, ...eventOf(LIMIT + 1, id) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ type: 'invalid_request', code: 'event_too_large', detail: expect.stringContaining(`${LIMIT}`), attr: 'batch__0' });
    expect(await storedEvents(id)).toEqual([]);
  });

  it('counts UTF-8 bytes, not characters', async () => {
    const id = someone('accents');
    const res = await post('/batch/', { api_key: s.token, batch: [{ event: 'accents', distinct_id: id, properties: { text: 'é'.repeat(LIMIT / 2 + 10) } }] });
    expect(res.statusCode).toBe(413);
    expect(await storedEvents(id)).toEqual([]);
  });

  it('applies no $set of a refused event', async () => {
    const id = someone('set');
    const big = { ...eventOf(LIMIT + 1, id), $set: { plan: 'enterprise' } };
    const res = await post('/batch/', { api_key: s.token, batch: [{ event: 'small', distinct_id: id, $set: { plan: 'free' } }, big] });
    expect(res.statusCode).toBe(200);
    const page = await s.app.inject({ url: `/api/projects/${s.projectId}/persons/?distinct_id=${id}`, headers: s.headers });
    expect(page.json().results[0].properties).toEqual({ plan: 'free' });
  });
});

describe('lists: a page holds at most PAGE_MAX_BYTES', () => {
  it('pages 40 events of 0.9 MB within the budget, and next links reach every one, newest first', async () => {
    const id = someone('heavy');
    const uuids: string[] = [];
    for (let b = 0; b < 4; b++) {
      const batch = Array.from({ length: 10 }, (_, i) => {
        const uuid = randomUUID();
        uuids.push(uuid);
        return { ...eventOf(Math.round(0.9 * MB), id), uuid, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, b * 10 + i)).toISOString() };
      });
      expect((await post('/batch/', { api_key: s.token, batch })).statusCode).toBe(200);
    }
    const { ids, sizes } = await walk(`/api/projects/${s.projectId}/events/?distinct_id=${id}`);
    expect(ids).toEqual([...uuids].reverse());
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(PAGE_MAX_BYTES + 64 * 1024);
  });

  it('pages exceptions by their size with their stacks, stored once for all of them', async () => {
    const id = someone('stacks');
    // One stack of some 0.8 MB (40 frames with 20 lines of context each), sent by 30 events: each row holds a few
    // hundred bytes and names the stack; each event read back holds it all.
    const line = 'c'.repeat(1_000);
    const frames = Array.from({ length: 40 }, (_, i) => ({
      filename: 'https://a.example/x.js',
      function: `f${i}`,
      in_app: true,
      pre_context: Array(10).fill(line),
      post_context: Array(10).fill(line),
    }));
    const batch = Array.from({ length: 30 }, (_, i) => ({
      event: '$exception',
      uuid: randomUUID(),
      distinct_id: id,
      timestamp: new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString(),
      properties: { $exception_list: [{ type: 'Error', value: 'deep', stacktrace: { type: 'raw', frames } }] },
    }));
    for (let i = 0; i < batch.length; i += 5) expect((await post('/batch/', { api_key: s.token, batch: batch.slice(i, i + 5) })).statusCode).toBe(200);
    const { ids, sizes } = await walk(`/api/projects/${s.projectId}/events/?distinct_id=${id}`);
    expect(ids).toEqual(batch.map((e) => e.uuid).reverse());
    expect(sizes.length).toBeGreaterThan(2);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(PAGE_MAX_BYTES + 64 * 1024);
  });

  it('serves old rows larger than the budget (stored before the limit) one a page instead of failing', async () => {
    const id = someone('old');
    const huge = JSON.stringify({ blob: 'y'.repeat(PAGE_MAX_BYTES + MB) });
    const rows = Array.from({ length: 3 }, (_, i) => ({
      project_id: s.projectId,
      uuid: randomUUID(),
      event: 'old',
      distinct_id: id,
      properties: i === 1 ? '{"small": true}' : huge,
      timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
      created_at: new Date().toISOString(),
    }));
    await s.services.db.kysely.insertInto('events').values(rows).execute();
    const { ids, sizes } = await walk(`/api/projects/${s.projectId}/events/?distinct_id=${id}&limit=1000`);
    expect(ids).toEqual(rows.map((r) => r.uuid).reverse());
    expect(sizes).toHaveLength(3);
  });

  it('pages persons with large properties within the budget, and next links reach every one', async () => {
    const project = await s.services.projects.create(`persons-${randomUUID().slice(0, 6)}`);
    const properties = JSON.stringify({ blob: 'p'.repeat(1.5 * MB) });
    const now = new Date().toISOString();
    const persons = Array.from({ length: 12 }, () => ({
      project_id: project.id,
      uuid: randomUUID(),
      properties,
      is_identified: 0,
      created_at: now,
      updated_at: now,
    }));
    await s.services.db.kysely.insertInto('persons').values(persons).execute();
    const { ids, sizes } = await walk(`/api/projects/${project.id}/persons/`);
    expect([...ids].sort()).toEqual(persons.map((p) => p.uuid).sort());
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(PAGE_MAX_BYTES + 64 * 1024);
  });
});
