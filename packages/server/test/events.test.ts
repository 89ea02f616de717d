import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dialect, startService, type TestService } from './helpers';

let s: TestService;
let base: string;
const uuid = (i: number) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;

beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/events/`;
  const batch = [
    { uuid: uuid(1), event: 'signed_up', distinct_id: 'ada', timestamp: '2026-01-01T10:00:00.000Z', properties: { plan: 'pro' } },
    { uuid: uuid(2), event: '$pageview', distinct_id: 'ada', timestamp: '2026-01-02T10:00:00.000Z', properties: { $current_url: 'https://x.test/' } },
    { uuid: uuid(3), event: '$pageview', distinct_id: 'bob', timestamp: '2026-01-03T10:00:00.000Z' },
    { uuid: uuid(4), event: 'purchase', distinct_id: 'bob', timestamp: '2026-01-04T10:00:00.000Z', properties: { amount: 12.5 } },
    { uuid: uuid(5), event: '$pageview', distinct_id: 'ada', timestamp: '2026-01-05T10:00:00.000Z' },
  ];
  const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch } });
  expect(res.statusCode).toBe(200);
});
afterAll(() => s.close());

const list = async (query = '') => {
  const res = await s.app.inject({ url: `${base}${query}`, headers: { ...s.headers, host: 'service.test' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ids = (page: { results: { id: string }[] }) => page.results.map((e) => e.id);

describe('GET /api/projects/:project_id/events/', () => {
  it('lists events newest first as {id, event, distinct_id, properties, timestamp}', async () => {
    const page = await list();
    expect(page.count).toBe(5);
    expect(ids(page)).toEqual([uuid(5), uuid(4), uuid(3), uuid(2), uuid(1)]);
    expect(page.results[1]).toEqual({
      id: uuid(4),
      event: 'purchase',
      distinct_id: 'bob',
      properties: { amount: 12.5 },
      timestamp: '2026-01-04T10:00:00.000Z',
    });
  });

  it('filters by event name and by distinct id', async () => {
    expect(ids(await list('?event=$pageview'))).toEqual([uuid(5), uuid(3), uuid(2)]);
    expect(ids(await list('?distinct_id=ada'))).toEqual([uuid(5), uuid(2), uuid(1)]);
    expect(ids(await list('?event=$pageview&distinct_id=bob'))).toEqual([uuid(3)]);
  });

  it('filters by a time range, after and before exclusive, in any ISO 8601 form', async () => {
    expect(ids(await list('?after=2026-01-02T10:00:00Z&before=2026-01-05T10:00:00.000Z'))).toEqual([uuid(4), uuid(3)]);
    expect(ids(await list(`?after=${encodeURIComponent('2026-01-04T11:00:00+02:00')}`))).toEqual([uuid(5), uuid(4)]);
  });

  it('filters by property values, compared as text, ANDed, a list matching any of its values and null an absent property', async () => {
    const where = (filters: unknown) => `?properties=${encodeURIComponent(JSON.stringify(filters))}`;
    expect(ids(await list(where([{ key: 'plan', value: 'pro' }])))).toEqual([uuid(1)]);
    // A number (and its text) matches the number stored; the property filter goes with the other filters.
    expect(ids(await list(where([{ key: 'amount', value: '12.5' }])))).toEqual([uuid(4)]);
    expect(ids(await list(`${where([{ key: 'amount', value: 12.5 }])}&distinct_id=ada`))).toEqual([]);
    expect(ids(await list(where([{ key: '$current_url', value: ['https://x.test/', 'https://y.test/'] }])))).toEqual([uuid(2)]);
    expect(
      ids(
        await list(
          where([
            { key: 'plan', value: 'pro' },
            { key: 'amount', value: 12.5 },
          ]),
        ),
      ),
    ).toEqual([]);
    // null: events without the property.
    const without = await list(`${where([{ key: 'plan', value: null }])}&event=$pageview`);
    expect(without.count).toBe(3);
    expect((await list(where([{ key: 'plan', value: 'free' }]))).count).toBe(0);
  });

  it('answers 400 naming `properties` for a filter that is not a JSON list of {key, value}', async () => {
    for (const bad of ['plan=pro', '{"key": "plan", "value": "pro"}', '[{"key": "", "value": 1}]', '[{"key": "plan", "value": {"a": 1}}]']) {
      const res = await s.app.inject({ url: `${base}?properties=${encodeURIComponent(bad)}`, headers: s.headers });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json(), bad).toMatchObject({ type: 'validation_error', attr: 'properties' });
    }
  });

  it('pages with limit and offset, linking to the next and previous pages', async () => {
    const first = await list('?limit=2');
    expect(ids(first)).toEqual([uuid(5), uuid(4)]);
    expect(first.next).toBe(`http://service.test/api/projects/${s.projectId}/events/?limit=2&offset=2`);
    const second = await list('?limit=2&offset=2');
    expect(ids(second)).toEqual([uuid(3), uuid(2)]);
    expect(second.previous).toBe(`http://service.test/api/projects/${s.projectId}/events/?limit=2`);
  });

  it('answers 400 naming a time filter that is not a time', async () => {
    const res = await s.app.inject({ url: `${base}?before=last-tuesday`, headers: s.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'before' });
  });

  it("shows only the project's own events", async () => {
    const other = await s.services.projects.create('Other events');
    const res = await s.app.inject({ url: `/api/projects/${other.id}/events/`, headers: s.headers });
    expect(res.json()).toMatchObject({ count: 0, results: [] });
  });

  it('requires event:read, and a key limited to other projects gets 403', async () => {
    const noScope = await s.app.inject({ url: base, headers: s.auth(await s.keyWith(['person:read'])) });
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json().detail).toBe("API key missing required scope 'event:read'");
    const otherProject = await s.app.inject({ url: base, headers: s.auth(await s.keyWith(['event:read'], [s.projectId + 1000])) });
    expect(otherProject.statusCode).toBe(403);
    expect((await s.app.inject({ url: base })).statusCode).toBe(401);
    expect((await s.app.inject({ url: base, headers: s.auth(await s.keyWith(['event:read'])) })).statusCode).toBe(200);
  });
});

// PostgreSQL compresses a value past some 2 KB; migration 0012 has it use lz4 (less of the database's CPU than pglz).
if (dialect === 'postgres')
  describe('event rows on PostgreSQL', () => {
    it('with large properties are stored compressed with lz4 and read back as sent', async () => {
      const other = await s.services.projects.create('Large properties');
      const frames = Array.from({ length: 40 }, (_, i) => ({ filename: `https://x.test/assets/app-${i}.js`, function: `step${i}`, lineno: i + 1, colno: 7 }));
      const properties = { trace: frames, note: 'a large value' };
      const event = { uuid: uuid(99), event: 'client_trace', distinct_id: 'ada', timestamp: '2026-01-06T10:00:00.000Z', properties };
      expect((await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: other.api_token, batch: [event] } })).statusCode).toBe(200);
      const { rows } = await sql<{ compression: string | null }>`
        select pg_column_compression(properties) as compression from events where project_id = ${other.id}`.execute(s.services.db.kysely);
      expect(rows).toEqual([{ compression: 'lz4' }]);
      const res = await s.app.inject({ url: `/api/projects/${other.id}/events/`, headers: s.headers });
      expect(res.json().results).toEqual([
        { id: uuid(99), event: 'client_trace', distinct_id: 'ada', properties: expect.objectContaining(properties), timestamp: event.timestamp },
      ]);
    });

    // Migration 0014: a foreign key costs a lookup and a lock for every row inserted; the rows of an event have none.
    it('checks no foreign key for the rows every event writes, and keeps the others', async () => {
      const { rows } = await sql<{ table: string }>`
        select distinct conrelid::regclass::text as table from pg_constraint
        where contype = 'f' and connamespace = current_schema()::regnamespace order by 1`.execute(s.services.db.kysely);
      const tables = rows.map((r) => r.table);
      for (const table of ['events', 'exception_stacks', 'error_tracking_occurrences', 'error_tracking_issue_people']) expect(tables).not.toContain(table);
      expect(tables).toEqual(expect.arrayContaining(['persons', 'person_distinct_ids', 'error_tracking_issues', 'error_tracking_fingerprints']));
    });
  });
