import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';
import { gzipJsBody, recording, snapshotEvent, type RrwebEvent } from './replay-helpers';

// `/s/` as posthog-js sends to it, on both blob stores: the database's (default) and a directory (REPLAY_STORAGE_DIR).

const T0 = Date.parse('2026-11-20T10:00:00.000Z');

async function readAll(s: TestService, sessionId: string): Promise<RrwebEvent[]> {
  const events: RrwebEvent[] = [];
  for await (const json of s.services.replayStorage.snapshots(s.projectId, sessionId)) events.push(JSON.parse(json) as RrwebEvent);
  return events;
}

const sessionRow = (s: TestService, sessionId: string) =>
  s.services.db.kysely.selectFrom('replay_sessions').selectAll().where('project_id', '=', s.projectId).where('session_id', '=', sessionId).executeTakeFirst();

for (const store of ['database', 'directory'] as const) {
  describe(`POST /s/ (blobs in the ${store})`, () => {
    let s: TestService;
    let dir: string | undefined;
    const send = (events: unknown[], query = '?compression=gzip-js&ver=1.449.2') =>
      s.app.inject({
        method: 'POST',
        url: `/s/${query}`,
        headers: { 'content-type': 'text/plain', origin: 'https://app.example.com' },
        payload: gzipJsBody(events),
      });

    beforeAll(async () => {
      dir = store === 'directory' ? fs.mkdtempSync(path.join(os.tmpdir(), 'replay-blobs-')) : undefined;
      s = await startService(dir ? { replayStorageDir: dir } : {});
    });
    afterAll(async () => {
      await s.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('stores posthog-js batches (gzip-js, per-event compressed) and reads them back as plain rrweb events with their metadata', async () => {
      const sessionId = randomUUID();
      const events = recording(T0, { seconds: 10 });
      const res = await send([snapshotEvent(events, { sessionId, token: s.token, currentUrl: 'https://app.example.com/home' })]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 1 });
      expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');

      const stored = await readAll(s, sessionId);
      expect(stored).toEqual(events);
      expect(stored.some((e) => 'cv' in e)).toBe(false);
      expect(stored.find((e) => e.type === 2)!.data.node).toBeTypeOf('object');

      const row = await sessionRow(s, sessionId);
      expect(row).toMatchObject({
        distinct_id: 'user-1',
        start_time: new Date(T0).toISOString(),
        end_time: new Date(T0 + 10_400).toISOString(),
        start_url: 'https://app.example.com/home',
        click_count: 10,
        keypress_count: 10,
        console_error_count: 1,
        console_warn_count: 1,
        console_log_count: 1,
        event_count: events.length,
        skipped_count: 0,
        block_count: 1,
      });
      // Clicks and inputs each second: 100 ms apart, then 800 ms to the next second's, all active.
      expect(Number(row!.active_ms)).toBe(9 * 1000 + 100);
      expect(Number(row!.size_bytes)).toBeGreaterThan(0);
      expect(Number(row!.size_bytes)).toBeLessThan(JSON.stringify(events).length);

      const blocks = await s.services.db.kysely.selectFrom('replay_blocks').selectAll().where('session_id', '=', sessionId).execute();
      expect(blocks).toHaveLength(1);
      expect(Number(blocks[0]!.first_ts)).toBe(T0);
      const blobRows = await s.services.db.kysely.selectFrom('replay_blobs').select('key').where('key', '=', blocks[0]!.blob_key).execute();
      if (store === 'directory') {
        expect(blobRows).toHaveLength(0);
        expect(fs.existsSync(path.join(dir!, blocks[0]!.blob_key))).toBe(true);
        // Only finished files: no temporary file is left beside it.
        expect(fs.readdirSync(path.dirname(path.join(dir!, blocks[0]!.blob_key))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      } else {
        expect(blobRows).toHaveLength(1);
      }
    });

    it('merges batches that arrive out of order, across windows, and stores a batch sent twice once', async () => {
      const sessionId = randomUUID();
      const all = recording(T0, { seconds: 20 });
      const [a, b, c] = [all.slice(0, 20), all.slice(20, 45), all.slice(45)];
      const batchB = snapshotEvent(b, { sessionId, token: s.token });
      // The second batch first, then the third from another tab (window), then the first, then the second again.
      expect((await send([batchB])).statusCode).toBe(200);
      expect((await send([snapshotEvent(c, { sessionId, token: s.token, windowId: 'window-2' })])).statusCode).toBe(200);
      expect((await send([snapshotEvent(a, { sessionId, token: s.token })])).statusCode).toBe(200);
      const again = await send([batchB]);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ status: 1 });

      expect(await readAll(s, sessionId)).toEqual(all);
      const row = await sessionRow(s, sessionId);
      expect(row).toMatchObject({ block_count: 3, event_count: all.length, start_time: new Date(T0).toISOString(), click_count: 20 });
    });

    it('stores a batch sent twice at the same moment once, leaving no block bytes behind', async () => {
      const sessionId = randomUUID();
      const events = recording(T0, { seconds: 3 });
      const batch = snapshotEvent(events, { sessionId, token: s.token });
      const answers = await Promise.all([send([batch]), send([batch]), send([batch])]);
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
      expect(await readAll(s, sessionId)).toEqual(events);
      expect(await sessionRow(s, sessionId)).toMatchObject({ block_count: 1, event_count: events.length });
      const blocks = await s.services.db.kysely.selectFrom('replay_blocks').select('blob_key').where('session_id', '=', sessionId).execute();
      const folder = `${s.projectId}`;
      if (dir) {
        const files = fs.readdirSync(path.join(dir, folder), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
        const keys = new Set((await s.services.db.kysely.selectFrom('replay_blocks').select('blob_key').execute()).map((b) => b.blob_key));
        expect(files.filter((f) => !keys.has(path.relative(dir!, path.join(f.parentPath, f.name))))).toEqual([]);
      } else {
        const orphans = await s.services.db.kysely
          .selectFrom('replay_blobs')
          .select('key')
          .where('key', 'not in', s.services.db.kysely.selectFrom('replay_blocks').select('blob_key'))
          .execute();
        expect(orphans).toEqual([]);
      }
      expect(blocks).toHaveLength(1);
    });

    it('reads overlapping batches in timestamp order and drops exact duplicates sent under another uuid', async () => {
      const sessionId = randomUUID();
      const all = recording(T0, { seconds: 6 });
      // Two windows' batches interleave in time; one event is sent again in a later batch.
      const odd = all.filter((_, i) => i % 2 === 1);
      const even = all.filter((_, i) => i % 2 === 0);
      await send([snapshotEvent(odd, { sessionId, token: s.token, windowId: 'w-odd' })]);
      await send([snapshotEvent(even, { sessionId, token: s.token, windowId: 'w-even' })]);
      await send([snapshotEvent([all[3]!], { sessionId, token: s.token, windowId: 'w-odd' })]);
      expect(await readAll(s, sessionId)).toEqual(all);
    });

    it('decodes a large full snapshot (inflated in the thread pool, parsed in slices) as a small one', async () => {
      const sessionId = randomUUID();
      const events = recording(T0, { seconds: 2, text: randomBytes(400_000).toString('base64') });
      const res = await send([snapshotEvent(events, { sessionId, token: s.token })]);
      expect(res.statusCode, res.body).toBe(200);
      expect(await readAll(s, sessionId)).toEqual(events);
    });

    it('skips and counts an event whose compressed field is corrupt, keeping the rest of the batch', async () => {
      const sessionId = randomUUID();
      const events = recording(T0, { seconds: 3 });
      const event = snapshotEvent(events, { sessionId, token: s.token });
      const data = event.properties.$snapshot_data as Array<RrwebEvent & { data: unknown }>;
      const mutation = data.findIndex((e) => e.type === 3 && (e.data as { source: number }).source === 0);
      (data[mutation]!.data as Record<string, unknown>).adds = 'not gzip at all';
      data.push({ type: 2, timestamp: T0 + 9_000, cv: '2024-10', data: '\x1f\x8b\x08truncated' } as never);
      data.push('not an event' as never);
      const res = await send([event]);
      expect(res.statusCode, res.body).toBe(200);
      const stored = await readAll(s, sessionId);
      expect(stored).toEqual(events.filter((_, i) => i !== mutation));
      expect(await sessionRow(s, sessionId)).toMatchObject({ skipped_count: 3, event_count: events.length - 1 });
    });

    it('keeps a session id reused by another person apart, under `<session_id>~<sha256(distinct_id)>`', async () => {
      const sessionId = randomUUID();
      await send([snapshotEvent(recording(T0, { text: 'first person' }), { sessionId, token: s.token, distinctId: 'alice' })]);
      const res = await send([snapshotEvent(recording(T0 + 60_000, { text: 'second person' }), { sessionId, token: s.token, distinctId: 'mallory' })]);
      expect(res.statusCode).toBe(200);
      const other = `${sessionId}~${createHash('sha256').update('mallory').digest('hex').slice(0, 12)}`;
      const first = JSON.stringify(await readAll(s, sessionId));
      const second = JSON.stringify(await readAll(s, other));
      expect(first).toContain('first person');
      expect(first).not.toContain('second person');
      expect(second).toContain('second person');
      expect(await sessionRow(s, sessionId)).toMatchObject({ distinct_id: 'alice', block_count: 1 });
      expect(await sessionRow(s, other)).toMatchObject({ distinct_id: 'mallory', block_count: 1 });
    });

    it('adds the batches of a person who identified mid-session to the same recording', async () => {
      const sessionId = randomUUID();
      await send([snapshotEvent(recording(T0, { seconds: 2 }), { sessionId, token: s.token, distinctId: 'anon-1' })]);
      const identify = await s.app.inject({
        method: 'POST',
        url: '/e/',
        payload: { api_key: s.token, event: '$identify', distinct_id: 'known-1', properties: { $anon_distinct_id: 'anon-1', $session_id: sessionId } },
      });
      expect(identify.statusCode).toBe(200);
      await send([snapshotEvent(recording(T0 + 5_000, { seconds: 2 }), { sessionId, token: s.token, distinctId: 'known-1' })]);
      const row = await sessionRow(s, sessionId);
      expect(row).toMatchObject({ distinct_id: 'anon-1', block_count: 2 });
    });

    it('returns what is stored so far while a recording is still being written', async () => {
      const sessionId = randomUUID();
      const all = recording(T0, { seconds: 4 });
      await send([snapshotEvent(all.slice(0, 8), { sessionId, token: s.token })]);
      const reading = s.services.replayStorage.snapshots(s.projectId, sessionId)[Symbol.asyncIterator]();
      const firstEvent = await reading.next();
      await send([snapshotEvent(all.slice(8), { sessionId, token: s.token })]);
      let count = 1;
      while (!(await reading.next()).done) count++;
      expect(JSON.parse(firstEvent.value as string)).toEqual(all[0]);
      expect(count).toBe(8);
      expect(await readAll(s, sessionId)).toEqual(all);
    });

    it('refuses other events one by one, and a body with no $snapshot event to store with 400', async () => {
      const sessionId = randomUUID();
      const mixed = await send([
        { event: '$pageview', distinct_id: 'user-1', properties: { token: s.token } },
        { event: '$snapshot', distinct_id: 'user-1', properties: { token: s.token, $snapshot_data: [] } },
        snapshotEvent(recording(T0, { seconds: 1 }), { sessionId, token: s.token }),
      ]);
      expect(mixed.statusCode).toBe(200);
      expect(mixed.json().refused.map((e: { attr: string }) => e.attr)).toEqual(['batch__0__event', 'batch__1__properties__$session_id']);
      const none = await send([{ event: '$snapshot', distinct_id: 'user-1', properties: { token: s.token, $snapshot_data: [] } }]);
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({ type: 'validation_error', attr: 'batch__0__properties__$session_id' });
    });

    it('answers 400 to corrupt gzip, 413 to a 50 MB body and 401 to an unknown token, never storing anything', async () => {
      const before = await s.services.db.kysely
        .selectFrom('replay_blocks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const corrupt = Buffer.concat([gzipSync(Buffer.from(JSON.stringify([{ event: '$snapshot' }]))).subarray(0, 12), Buffer.from('garbage')]);
      const bad = await s.app.inject({
        method: 'POST',
        url: `/s/?compression=gzip-js&token=${s.token}`,
        headers: { 'content-type': 'text/plain' },
        payload: corrupt,
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
      const huge = await s.app.inject({
        method: 'POST',
        url: `/s/?token=${s.token}`,
        headers: { 'content-type': 'text/plain' },
        payload: Buffer.alloc(50 * 1024 * 1024, 32),
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toMatchObject({ code: expect.any(String) });
      const unknown = await send([snapshotEvent(recording(T0), { sessionId: randomUUID(), token: 'phc_unknown' })]);
      expect(unknown.statusCode).toBe(401);
      const after = await s.services.db.kysely
        .selectFrom('replay_blocks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('counts usage, deletes a recording with its blobs, and sweeps recordings past retention', async () => {
      const db = s.services.db.kysely;
      const old = randomUUID();
      const recent = randomUUID();
      const now = Date.now();
      await send([snapshotEvent(recording(now - 40 * 86_400_000), { sessionId: old, token: s.token, currentUrl: 'https://old.example.com/' })]);
      await send([snapshotEvent(recording(now - 86_400_000), { sessionId: recent, token: s.token })]);
      const usage = await s.services.replayStorage.usage(s.projectId);
      expect(usage.sessions).toBeGreaterThanOrEqual(2);
      expect(usage.bytes).toBeGreaterThan(0);

      const keyOf = async (id: string) =>
        (await db.selectFrom('replay_blocks').select('blob_key').where('session_id', '=', id).executeTakeFirstOrThrow()).blob_key;
      const oldKey = await keyOf(old);
      expect(await s.services.replayStorage.blobs.get(oldKey)).toBeDefined();
      expect(await s.services.replayStorage.sweep(new Date(now))).toBeGreaterThanOrEqual(1);
      expect(await sessionRow(s, old)).toBeUndefined();
      expect(await s.services.replayStorage.blobs.get(oldKey)).toBeUndefined();
      for (const table of ['replay_blocks', 'replay_session_urls', 'replay_batches'] as const) {
        expect(await db.selectFrom(table).select('session_id').where('session_id', '=', old).execute()).toEqual([]);
      }
      expect(await sessionRow(s, recent)).toBeDefined();

      const recentKey = await keyOf(recent);
      expect(await s.services.replayStorage.deleteSession(s.projectId, recent)).toBe(true);
      expect(await readAll(s, recent)).toEqual([]);
      expect(await s.services.replayStorage.blobs.get(recentKey)).toBeUndefined();
      expect(await s.services.replayStorage.deleteSession(s.projectId, recent)).toBe(false);
    });
  });
}
