// The WAL checkpointer (src/db/checkpointer.ts) on a real SQLite file: it empties the WAL once writes stop, and it
// never keeps a writer out while it waits for a reader. Found in stop 22 under load: with a reader's read open (as
// /flags keeps one for a turn of the event loop), the checkpointer's TRUNCATE waited for it, SQLite kept every new
// writer out meanwhile, and ingestion's `begin immediate` failed with "database is locked" (503) after its timeout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '@service/test-support';
import { checkpointInWorker } from '../src/db/checkpointer';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A WAL database with a table and one row written, its checkpointer running, and a second (read-only) connection. */
function database() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
  const file = path.join(dir, 'service.db');
  const writer = new SQLite(file, { timeout: 2000 });
  writer.pragma('journal_mode = WAL');
  writer.exec('create table t (x text)');
  const checkpointer = checkpointInWorker(writer, file);
  const reader = new SQLite(file, { readonly: true });
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => void writer.close());
  cleanups.push(() => checkpointer.stop());
  cleanups.push(() => void reader.close());
  writer.prepare('insert into t values (?)').run('x'.repeat(10_000));
  const walBytes = () => fs.statSync(`${file}-wal`).size;
  return { writer, reader, walBytes };
}

describe('checkpointer', () => {
  it('empties the WAL once nothing has been written for a moment', async () => {
    const { walBytes } = database();
    expect(walBytes()).toBeGreaterThan(10_000);
    expect(await eventually(() => walBytes() === 0, 5000)).toBe(true);
  });

  it('keeps no writer waiting while a reader holds the WAL, and empties it once the reader is done', async () => {
    const { writer, reader, walBytes } = database();
    reader.prepare('begin').run();
    expect(reader.prepare('select count(*) as n from t').get()).toEqual({ n: 1 });
    // Some idle ticks of the checkpointer (every 200 ms): every frame copied, nothing new, so it tries to empty the WAL.
    await sleep(1000);
    const start = Date.now();
    writer.transaction(() => writer.prepare('insert into t values (?)').run('y'))();
    // Without waiting out the writer's 2 s busy timeout (which ended in "database is locked" before the fix).
    expect(Date.now() - start).toBeLessThan(500);
    expect(writer.prepare('select count(*) as n from t').get()).toEqual({ n: 2 });
    reader.prepare('commit').run();
    expect(await eventually(() => walBytes() === 0, 5000)).toBe(true);
  });
});
