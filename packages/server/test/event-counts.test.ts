import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventService } from '../src/events/service';
import { startService, type TestService } from './helpers';

// Issue 13: `GET /api/projects/:project_id/event_counts/` for the web app's charts (web-contract.md).

let s: TestService;
let base: string;

type Props = Record<string, unknown>;
const at = (timestamp: string, event: string, properties: Props = {}, distinct_id = 'ada') => ({ event, distinct_id, timestamp, properties });

async function capture(batch: ReturnType<typeof at>[], token = s.token) {
  const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: token, batch } });
  expect(res.statusCode, res.body).toBe(200);
}

const called = (day: string, flag: string, response: unknown) =>
  at(
    `${day}T12:00:00.000Z`,
    '$feature_flag_called',
    response === undefined ? { $feature_flag: flag } : { $feature_flag: flag, $feature_flag_response: response },
  );

beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/event_counts/`;
  await capture([
    // signed_up: two on Jan 2 (one at midnight, the start of the range), one on Jan 4, one at the range's end (excluded)
    at('2026-01-02T00:00:00.000Z', 'signed_up'),
    at('2026-01-02T23:59:59.999Z', 'signed_up'),
    at('2026-01-04T08:00:00.000Z', 'signed_up'),
    at('2026-01-06T00:00:00.000Z', 'signed_up'),
    at('2026-01-03T10:00:00.000Z', 'other_event'),
    // my-flag: true ×3 (one as the string "true"), false ×1, "control" ×2, no response ×1; other-flag: true ×5
    called('2026-01-02', 'my-flag', true),
    called('2026-01-02', 'my-flag', 'true'),
    called('2026-01-03', 'my-flag', true),
    called('2026-01-03', 'my-flag', false),
    called('2026-01-03', 'my-flag', 'control'),
    called('2026-01-05', 'my-flag', 'control'),
    called('2026-01-05', 'my-flag', undefined),
    ...[1, 2, 3, 4, 5].map(() => called('2026-01-03', 'other-flag', true)),
  ]);
});
afterAll(() => s.close());

const get = (query: string, headers: Record<string, string> = s.headers) => s.app.inject({ url: `${base}${query}`, headers });
const counts = async (query: string) => {
  const res = await get(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const expectError = async (query: string, status: number, body: Record<string, unknown>) => {
  const res = await get(query);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject(body);
  return res.json();
};

describe('GET /api/projects/:project_id/event_counts/', () => {
  it('counts one event per UTC day, every day of [after, before) present, days without events as 0', async () => {
    expect(await counts(q({ event: 'signed_up', after: '2026-01-01', before: '2026-01-06', interval: 'day' }))).toEqual({
      interval: 'day',
      days: ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05'],
      series: [{ breakdown_value: null, counts: [0, 2, 0, 1, 0], total: 3 }],
    });
  });

  it('answers one series of zeros for an event that never happened', async () => {
    expect(await counts(q({ event: 'never', after: '2026-01-01', before: '2026-01-03' }))).toEqual({
      interval: 'day',
      days: ['2026-01-01', '2026-01-02'],
      series: [{ breakdown_value: null, counts: [0, 0], total: 0 }],
    });
  });

  it('takes date-times with offsets, and ends the range now when before is not given (today included)', async () => {
    const later = await counts(q({ event: 'signed_up', after: '2026-01-02T01:00:00+01:00', before: '2026-01-04T08:00:00Z' }));
    expect(later.days).toEqual(['2026-01-02', '2026-01-03', '2026-01-04']);
    expect(later.series).toEqual([{ breakdown_value: null, counts: [2, 0, 0], total: 2 }]);

    await capture([at(new Date().toISOString(), 'just_now')]);
    const today = new Date().toISOString().slice(0, 10);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const recent = await counts(q({ event: 'just_now', after: twoDaysAgo }));
    expect(recent.days).toHaveLength(3);
    expect(recent.days.at(-1)).toBe(today);
    expect(recent.series).toEqual([{ breakdown_value: null, counts: [0, 0, 1], total: 1 }]);
  });

  it('breaks $feature_flag_called down by $feature_flag_response where $feature_flag is the key, values compared as text', async () => {
    const res = await counts(
      q({
        event: '$feature_flag_called',
        after: '2026-01-01',
        before: '2026-01-06',
        breakdown: '$feature_flag_response',
        properties: JSON.stringify([{ key: '$feature_flag', value: 'my-flag' }]),
      }),
    );
    expect(res).toEqual({
      interval: 'day',
      days: ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05'],
      series: [
        { breakdown_value: 'true', counts: [0, 2, 1, 0, 0], total: 3 },
        { breakdown_value: 'control', counts: [0, 0, 1, 0, 1], total: 2 },
        { breakdown_value: null, counts: [0, 0, 0, 0, 1], total: 1 },
        { breakdown_value: 'false', counts: [0, 0, 1, 0, 0], total: 1 },
      ],
    });
  });

  it('filters by several properties (ANDed), by a boolean or number given as JSON or text, and by any of a list', async () => {
    const total = async (properties: unknown) =>
      (await counts(q({ event: '$feature_flag_called', after: '2026-01-01', before: '2026-01-06', properties: JSON.stringify(properties) }))).series[0].total;
    const flag = { key: '$feature_flag', value: 'my-flag' };
    expect(await total([flag, { key: '$feature_flag_response', value: true }])).toBe(3);
    expect(await total([flag, { key: '$feature_flag_response', value: 'true' }])).toBe(3);
    expect(await total([{ key: '$feature_flag_response', value: 'true' }])).toBe(8);
    expect(await total([flag, { key: '$feature_flag_response', value: ['false', 'control'] }])).toBe(3);
    expect(await total([flag, { key: '$feature_flag_response', value: null }])).toBe(1);
    expect(await total([flag, { key: '$feature_flag_response', value: 'TRUE' }])).toBe(0);
    expect(await total([])).toBe(12);
  });

  it('keeps the 24 largest series and sums the rest into $other (last), 25 at most; 25 values are 25 series', async () => {
    // v00 has 30 events, v01 29, ..., v29 1: v24..v29 (6+5+4+3+2+1 = 21) are $other.
    const values = Array.from({ length: 30 }, (_, i) => `v${String(i).padStart(2, '0')}`);
    await capture(values.flatMap((value, i) => Array.from({ length: 30 - i }, (_, j) => at(`2025-06-0${1 + (j % 2)}T10:00:00.000Z`, 'many', { value }))));
    const res = await counts(q({ event: 'many', after: '2025-06-01', before: '2025-06-03', breakdown: 'value' }));
    expect(res.series).toHaveLength(25);
    expect(res.series.map((x: { breakdown_value: string }) => x.breakdown_value)).toEqual([...values.slice(0, 24), '$other']);
    expect(res.series[0]).toEqual({ breakdown_value: 'v00', counts: [15, 15], total: 30 });
    expect(res.series[24]).toEqual({ breakdown_value: '$other', counts: [12, 9], total: 21 });

    // With many (bucket, value) rows, the largest values are picked in SQL: the same answer.
    const picked = new EventService(s.services.db.kysely, s.services.db.dialect, 10);
    expect(await picked.counts(s.projectId, { event: 'many', after: '2025-06-01', before: '2025-06-03', breakdown: 'value' })).toEqual(res);

    // Without the smallest five values (v25..v29): exactly 25 values, no $other.
    const someValues = JSON.stringify([{ key: 'value', value: values.slice(0, 25) }]);
    const exact = await counts(q({ event: 'many', after: '2025-06-01', before: '2025-06-03', breakdown: 'value', properties: someValues }));
    expect(exact.series.map((x: { breakdown_value: string }) => x.breakdown_value)).toEqual(values.slice(0, 25));
    const query = { event: 'many', after: '2025-06-01', before: '2025-06-03', breakdown: 'value', properties: someValues };
    expect(await picked.counts(s.projectId, query)).toEqual(exact);
  });

  it('counts per UTC hour with interval=hour, labelled by the hour start', async () => {
    await capture([
      at('2025-07-01T22:15:00.000Z', 'hourly'),
      at('2025-07-01T22:45:00.000Z', 'hourly'),
      at('2025-07-02T01:00:00.000Z', 'hourly'),
      at('2025-07-02T02:00:00.000Z', 'hourly'),
    ]);
    expect(await counts(q({ event: 'hourly', after: '2025-07-01T22:00:00Z', before: '2025-07-02T02:00:00Z', interval: 'hour' }))).toEqual({
      interval: 'hour',
      days: ['2025-07-01T22:00:00Z', '2025-07-01T23:00:00Z', '2025-07-02T00:00:00Z', '2025-07-02T01:00:00Z'],
      series: [{ breakdown_value: null, counts: [2, 0, 0, 1], total: 3 }],
    });
  });

  it('shows numbers as their JSON text, objects as JSON, and NUL or lone surrogates stored in properties as U+FFFD, alike on both databases', async () => {
    await capture([
      at('2025-08-01T10:00:00.000Z', 'odd', { v: 12.5 }),
      at('2025-08-01T10:00:00.000Z', 'odd', { v: 1e21 }),
      at('2025-08-01T10:00:00.000Z', 'odd', { v: { a: [1, 'b'] } }),
      at('2025-08-01T10:00:00.000Z', 'odd', { v: 'x\u0000y', other: '\ud800' }),
      at('2025-08-01T10:00:00.000Z', 'odd', { v: 12.5, 'n\u0000': 'z\udc00' }),
    ]);
    const res = await counts(q({ event: 'odd', after: '2025-08-01', before: '2025-08-02', breakdown: 'v' }));
    expect(res.series).toEqual([
      { breakdown_value: '12.5', counts: [2], total: 2 },
      { breakdown_value: '1e+21', counts: [1], total: 1 },
      { breakdown_value: 'x\uFFFDy', counts: [1], total: 1 },
      { breakdown_value: '{"a":[1,"b"]}', counts: [1], total: 1 },
    ]);
    const filtered = await counts(q({ event: 'odd', after: '2025-08-01', before: '2025-08-02', properties: JSON.stringify([{ key: 'v', value: 12.5 }]) }));
    expect(filtered.series[0].total).toBe(2);
  });

  it('takes any property name as a bound value: quotes, dots, dollars and SQL in keys are just names', async () => {
    const key = `it's "a.b" $x \\ '); drop table events; --`;
    await capture([at('2025-09-01T10:00:00.000Z', 'keys', { [key]: 'yes', 'a.b': 'dotted' })]);
    const byKey = await counts(q({ event: 'keys', after: '2025-09-01', before: '2025-09-02', breakdown: key }));
    expect(byKey.series).toEqual([{ breakdown_value: 'yes', counts: [1], total: 1 }]);
    const dotted = await counts(q({ event: 'keys', after: '2025-09-01', before: '2025-09-02', properties: JSON.stringify([{ key: 'a.b', value: 'dotted' }]) }));
    expect(dotted.series[0].total).toBe(1);
    expect((await counts(q({ event: 'signed_up', after: '2026-01-01', before: '2026-01-06' }))).series[0].total).toBe(3);
  });

  it('answers 400 naming the field for a missing or malformed event, after, before, interval or properties', async () => {
    await expectError(q({ after: '2026-01-01' }), 400, { type: 'validation_error', code: 'required', attr: 'event' });
    await expectError(q({ event: 'signed_up' }), 400, { type: 'validation_error', code: 'required', attr: 'after' });
    await expectError(q({ event: 'signed_up', after: 'last-tuesday' }), 400, { type: 'validation_error', code: 'invalid', attr: 'after' });
    await expectError(q({ event: 'signed_up', after: '2026-02-30' }), 400, { code: 'invalid', attr: 'after' });
    await expectError(q({ event: 'signed_up', after: '2026-01-01', before: '1700000000' }), 400, { code: 'invalid', attr: 'before' });
    await expectError(q({ event: 'signed_up', after: '2026-01-05', before: '2026-01-05' }), 400, { code: 'invalid', attr: 'before' });
    await expectError(q({ event: 'signed_up', after: '2026-01-01', interval: 'week' }), 400, { code: 'invalid_choice', attr: 'interval' });
    await expectError(q({ event: 'a\u0000', after: '2026-01-01' }), 400, { code: 'null_characters_not_allowed', attr: 'event' });
    for (const properties of [
      '{not json',
      '{"key": "a", "value": "b"}',
      '[{"value": "b"}]',
      '[{"key": "a"}]',
      '[{"key": "a", "value": {"x": 1}}]',
      '[{"key": "a", "value": "b", "operator": "icontains"}]',
    ])
      await expectError(q({ event: 'signed_up', after: '2026-01-01', properties }), 400, { type: 'validation_error', attr: 'properties' });
    for (const long of [[{ key: 'k'.repeat(1001), value: 'b' }], [{ key: 'a', value: ['b', '%'.repeat(1001)] }]])
      await expectError(q({ event: 'signed_up', after: '2026-01-01', properties: JSON.stringify(long) }), 400, { code: 'max_length', attr: 'properties' });
    const longest = [{ key: '%'.repeat(1000), value: '\u0001'.repeat(1000) }];
    expect((await counts(q({ event: 'signed_up', after: '2026-01-01', before: '2026-01-06', properties: JSON.stringify(longest) }))).series[0].total).toBe(0);
    await expectError(q({ event: 'signed_up', after: '2026-01-01', properties: JSON.stringify([{ key: 'a\u0000', value: 'b' }]) }), 400, {
      code: 'null_characters_not_allowed',
      attr: 'properties',
    });
  });

  it('bounds the range: 366 days by day, 31 days by hour, saying so in the 400', async () => {
    expect((await counts(q({ event: 'signed_up', after: '2025-01-01', before: '2026-01-02' }))).days).toHaveLength(366);
    const long = await expectError(q({ event: 'signed_up', after: '2025-01-01', before: '2026-01-03' }), 400, { code: 'range_too_long', attr: 'after' });
    expect(long.detail).toContain('366 days');
    expect((await counts(q({ event: 'hourly', after: '2025-07-01', before: '2025-08-01', interval: 'hour' }))).days).toHaveLength(744);
    const hours = await expectError(q({ event: 'hourly', after: '2025-07-01', before: '2025-08-01T01:00:00Z', interval: 'hour' }), 400, {
      code: 'range_too_long',
      attr: 'interval',
    });
    expect(hours.detail).toContain('31 days');
    await expectError(q({ event: 'signed_up', after: '2020-01-01' }), 400, { code: 'range_too_long', attr: 'after' });
  });

  it('requires event:read, and a key limited to other projects gets 403', async () => {
    const query = q({ event: 'signed_up', after: '2026-01-01', before: '2026-01-06' });
    const noScope = await get(query, s.auth(await s.keyWith(['feature_flag:read'])));
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json().detail).toBe("API key missing required scope 'event:read'");
    expect((await get(query, s.auth(await s.keyWith(['event:read'], [s.projectId + 1000])))).statusCode).toBe(403);
    expect((await s.app.inject({ url: `${base}${query}` })).statusCode).toBe(401);
    expect((await get(query, s.auth(await s.keyWith(['event:read'])))).statusCode).toBe(200);
  });

  it("counts only the project's own events", async () => {
    const other = await s.services.projects.create('Other counts');
    await capture([at('2026-01-03T10:00:00.000Z', 'signed_up')], other.api_token);
    const query = q({ event: 'signed_up', after: '2026-01-01', before: '2026-01-06' });
    const theirs = await s.app.inject({ url: `/api/projects/${other.id}/event_counts/${query}`, headers: s.headers });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().series).toEqual([{ breakdown_value: null, counts: [0, 0, 1, 0, 0], total: 1 }]);
    expect((await counts(query)).series).toEqual([{ breakdown_value: null, counts: [0, 2, 0, 1, 0], total: 3 }]);
    expect((await s.app.inject({ url: `/api/projects/999999/event_counts/${query}`, headers: s.headers })).statusCode).toBe(404);
  });
});

describe('GET /api/projects/:project_id/event_names/', () => {
  const names = async (projectId: number, query = '', headers = s.headers) => {
    const res = await s.app.inject({ url: `/api/projects/${projectId}/event_names/${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results as string[];
  };

  it("lists each of a project's event names once, sorted, and only those containing `search` (ignoring case)", async () => {
    const project = await s.services.projects.create('Names');
    const times = ['2026-01-02T10:00:00.000Z', '2026-02-03T10:00:00.000Z'];
    await capture(
      ['purchase', 'Signed Up', 'purchase', '$pageview', 'signup_started', 'purchase'].map((event, i) => at(times[i % 2]!, event)),
      project.api_token,
    );
    expect(await names(project.id)).toEqual(['$pageview', 'Signed Up', 'purchase', 'signup_started'].sort());
    expect(await names(project.id, '?search=SIGN')).toEqual(['Signed Up', 'signup_started'].sort());
    expect(await names(project.id, '?search=nothing-like-it')).toEqual([]);
    // Another project's names are its own.
    expect(await names(s.projectId)).not.toContain('signup_started');
  });

  it('needs event:read', async () => {
    const res = await s.app.inject({ url: `/api/projects/${s.projectId}/event_names/`, headers: s.auth(await s.keyWith(['feature_flag:read'])) });
    expect(res.statusCode).toBe(403);
  });
});
