import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startService, testStorage, type TestService } from './helpers';
import { gzipJsBody, recording, snapshotEvent } from './replay-helpers';

// REPLAY_RETENTION_DAYS: the retention job deletes recordings that ended longer ago, at start and then every hour.

const DAY = 86_400_000;

async function record(s: TestService, sessionId: string, start: number) {
  const res = await s.app.inject({
    method: 'POST',
    url: '/s/?compression=gzip-js',
    headers: { 'content-type': 'text/plain' },
    payload: gzipJsBody([snapshotEvent(recording(start, { seconds: 2 }), { sessionId, token: s.token })]),
  });
  expect(res.statusCode).toBe(200);
}
const sessions = async (s: TestService) =>
  (await s.services.db.kysely.selectFrom('replay_sessions').select('session_id').orderBy('session_id').execute()).map((row) => row.session_id);

describe('the replay retention job', () => {
  it('deletes, when the service starts, the recordings that ended more than REPLAY_RETENTION_DAYS ago, and keeps the others', async () => {
    const storage = testStorage();
    const first = await startService({ replayRetentionDays: 365 }, storage);
    const [old, recent] = [randomUUID(), randomUUID()];
    await record(first, old, Date.now() - 10 * DAY);
    await record(first, recent, Date.now() - 2 * DAY);
    const blocks = await first.services.db.kysely.selectFrom('replay_blocks').select('blob_key').where('session_id', '=', old).execute();
    expect(await sessions(first)).toEqual([old, recent].sort());
    await first.close({ keepData: true });

    const second = await startService({ replayRetentionDays: 7 }, storage);
    try {
      await second.app.ready();
      // The job's first round runs as the app is ready; closing waits for it.
      await second.app.close();
      // Reopened with a long retention: what is gone was deleted by the round above.
      const reopened = await startService({ replayRetentionDays: 365 }, storage);
      try {
        expect(await sessions(reopened)).toEqual([recent]);
        expect(await reopened.services.replayStorage.blobs.get(blocks[0]!.blob_key)).toBeUndefined();
      } finally {
        await reopened.close();
      }
    } finally {
      await second.services.db.close().catch(() => undefined);
    }
  });
});
