import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';
import { gzipJsBody, recording, snapshotEvent } from './replay-helpers';

// The ingestion step that ties captured events to recordings: `events.session_id`, exceptions counted into their
// sessions, and a session's person filled once it is known.

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const capture = (batch: unknown[]) => s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch } });
const snapshot = (sessionId: string, distinctId: string) =>
  s.app.inject({
    method: 'POST',
    url: '/s/?compression=gzip-js',
    headers: { 'content-type': 'text/plain' },
    payload: gzipJsBody([snapshotEvent(recording(Date.parse('2026-11-20T10:00:00Z'), { seconds: 2 }), { sessionId, distinctId, token: s.token })]),
  });
const sessionRow = (sessionId: string) =>
  s.services.db.kysely.selectFrom('replay_sessions').selectAll().where('project_id', '=', s.projectId).where('session_id', '=', sessionId).executeTakeFirst();

describe('events of a recorded session', () => {
  it("store their $session_id in the event's row, and events without one store none", async () => {
    const sessionId = randomUUID();
    const withSession = randomUUID();
    const without = randomUUID();
    const res = await capture([
      { event: '$pageview', uuid: withSession, distinct_id: 'p1', properties: { $session_id: sessionId } },
      { event: '$pageview', uuid: without, distinct_id: 'p1', properties: {} },
    ]);
    expect(res.statusCode).toBe(200);
    const rows = await s.services.db.kysely.selectFrom('events').select(['uuid', 'session_id']).where('uuid', 'in', [withSession, without]).execute();
    expect(Object.fromEntries(rows.map((r) => [r.uuid, r.session_id]))).toEqual({ [withSession]: sessionId, [without]: null });
  });

  it('count exceptions into their session, once each, before and after its first snapshot', async () => {
    const sessionId = randomUUID();
    const exception = (uuid = randomUUID()) => ({
      event: '$exception',
      uuid,
      distinct_id: 'p2',
      properties: { $session_id: sessionId, $exception_list: [{ type: 'TypeError', value: 'x is undefined' }] },
    });
    const first = exception();
    expect((await capture([first, exception()])).statusCode).toBe(200);
    expect(await sessionRow(sessionId)).toMatchObject({ exception_count: 2, start_time: null, block_count: 0, distinct_id: 'p2' });
    // The same event sent again counts nothing.
    expect((await capture([first])).statusCode).toBe(200);
    expect((await snapshot(sessionId, 'p2')).statusCode).toBe(200);
    expect((await capture([exception()])).statusCode).toBe(200);
    const row = await sessionRow(sessionId);
    expect(row).toMatchObject({ exception_count: 3, block_count: 1, start_time: '2026-11-20T10:00:00.000Z' });
  });

  it('give a session its person once an event of its distinct id makes one', async () => {
    const sessionId = randomUUID();
    expect((await snapshot(sessionId, 'p3')).statusCode).toBe(200);
    expect(await sessionRow(sessionId)).toMatchObject({ person_id: null });
    expect((await capture([{ event: '$pageview', distinct_id: 'p3', properties: { $session_id: sessionId } }])).statusCode).toBe(200);
    const person = await s.services.db.kysely
      .selectFrom('person_distinct_ids')
      .select('person_id')
      .where('project_id', '=', s.projectId)
      .where('distinct_id', '=', 'p3')
      .executeTakeFirstOrThrow();
    expect(await sessionRow(sessionId)).toMatchObject({ person_id: person.person_id });
    // Later snapshots of a known person name it at once.
    const next = randomUUID();
    expect((await snapshot(next, 'p3')).statusCode).toBe(200);
    expect(await sessionRow(next)).toMatchObject({ person_id: person.person_id });
  });
});
