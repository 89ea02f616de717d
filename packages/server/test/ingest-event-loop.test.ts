// Issue 10, item 5: one 100,000-event batch blocked the SQLite service's event loop for seconds (`/_health`
// waited). Ingestion now yields to the event loop between slices of events, so other requests are answered
// while a large batch is stored; the batch itself is still acknowledged only once all of it is committed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database';
import { dialect, serviceEnv, testStorage, type TestStorage } from './helpers';
import { spawnService, type ServiceProcess } from '@service/test-support';

// The report is about SQLite, where every statement holds the event loop; on PostgreSQL a smaller batch
// (still several transactions) shows the same ordering in less time.
const EVENTS = dialect === 'sqlite' ? 100_000 : 25_000;

describe(`a ${EVENTS.toLocaleString('en-US')}-event batch`, () => {
  let storage: TestStorage;
  let service: ServiceProcess;
  let db: Db;
  beforeAll(async () => {
    storage = testStorage();
    service = await spawnService(serviceEnv(storage));
    db = await openDatabase(storage);
  });
  afterAll(async () => {
    await service?.stop();
    await db?.close();
    await storage.drop();
  });

  it('lets /_health through while it is being stored, and is acknowledged only after all of it is stored', async () => {
    const batch = Array.from({ length: EVENTS }, (_, i) => ({ event: 'bulk', distinct_id: `u-${i % 1000}` }));
    const stored = async () => Number((await sql<{ n: number | string }>`select count(*) as n from events`.execute(db.kysely)).rows[0]!.n);
    const order: string[] = [];
    const posting = fetch(`${service.url}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: service.token, batch }),
    });
    const acknowledged = posting.then(async (res) => {
      await res.text();
      order.push('batch acknowledged');
      return res.status;
    });
    // Part of the batch is committed: the service is in the middle of storing it.
    while ((await stored()) === 0) await new Promise((r) => setTimeout(r, 2));
    order.push('health asked');
    const health = await fetch(`${service.url}/_health`);
    order.push(`health answered ${health.status}`);
    expect(await acknowledged).toBe(200);
    expect(order).toEqual(['health asked', 'health answered 200', 'batch acknowledged']);
    expect(await stored()).toBe(EVENTS);
  });
});
