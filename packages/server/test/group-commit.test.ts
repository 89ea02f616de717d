import { describe, expect, it } from 'vitest';
import { GroupCommit, QueueFullError } from '../src/capture/group-commit';

/** A commit function that records each transaction and finishes it only when the test says so. */
function transactions() {
  const log: { items: number[]; finish: (error?: Error) => void }[] = [];
  let running = 0;
  let maxRunning = 0;
  const commit = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      log.push({
        items,
        finish: (error) => {
          running--;
          if (error) reject(error);
          else resolve();
        },
      });
    });
  return { log, commit, maxRunning: () => maxRunning };
}

const settle = () => new Promise((r) => setImmediate(r));
const tick = async () => {
  for (let i = 0; i < 5; i++) await settle();
};

describe('GroupCommit', () => {
  it('commits concurrent writes in one transaction and resolves each only after it committed', async () => {
    const t = transactions();
    const writer = new GroupCommit(t.commit, { maxPending: 100, maxPerCommit: 100 });
    const done: number[] = [];
    const writes = [[1, 2], [3], [4, 5]].map((items, i) => writer.write(items).then(() => done.push(i)));
    await tick();
    expect(t.log.map((c) => c.items)).toEqual([[1, 2, 3, 4, 5]]);
    expect(done).toEqual([]);
    t.log[0]!.finish();
    await Promise.all(writes);
    expect(done.sort()).toEqual([0, 1, 2]);
  });

  it('runs one transaction at a time; writes arriving meanwhile form the next one', async () => {
    const t = transactions();
    const writer = new GroupCommit(t.commit, { maxPending: 100, maxPerCommit: 100 });
    const first = writer.write([1]);
    await tick();
    const later = [writer.write([2]), writer.write([3])];
    await tick();
    expect(t.log.map((c) => c.items)).toEqual([[1]]);
    t.log[0]!.finish();
    await first;
    await tick();
    expect(t.log.map((c) => c.items)).toEqual([[1], [2, 3]]);
    t.log[1]!.finish();
    await Promise.all(later);
    expect(t.maxRunning()).toBe(1);
  });

  it('commits each caller alone after a shared transaction fails, so only the bad one fails', async () => {
    const writer = new GroupCommit(
      async (items: number[]) => {
        if (items.includes(13)) throw new Error('unlucky');
      },
      { maxPending: 100, maxPerCommit: 100 },
    );
    const results = await Promise.allSettled([writer.write([1]), writer.write([13]), writer.write([2])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('fails every caller of a transaction at once when the database is unavailable, and commits again once it is back (issue 10)', async () => {
    let down = true;
    const attempts: number[][] = [];
    const writer = new GroupCommit(
      async (items: number[]) => {
        attempts.push(items);
        if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
      { maxPending: 100, maxPerCommit: 100 },
    );
    const results = await Promise.allSettled([writer.write([1]), writer.write([2]), writer.write([3])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(results.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
    expect(attempts).toEqual([[1, 2, 3]]); // no transaction per caller against a database that is gone
    expect(writer.size).toBe(0);
    down = false;
    await Promise.all([writer.write([4]), writer.write([5])]);
    expect(attempts.at(-1)).toEqual([4, 5]);
  });

  it('splits a backlog into transactions of at most maxPerCommit items, in order', async () => {
    const committed: number[][] = [];
    const writer = new GroupCommit(async (items: number[]) => void committed.push(items), { maxPending: 100, maxPerCommit: 3 });
    await Promise.all([writer.write([1, 2]), writer.write([3]), writer.write([4, 5]), writer.write([6, 7, 8, 9])]);
    expect(committed).toEqual([
      [1, 2, 3],
      [4, 5],
      [6, 7, 8, 9],
    ]);
  });

  it('refuses writes beyond maxPending with QueueFullError, yet takes any batch into an empty queue', async () => {
    const t = transactions();
    const writer = new GroupCommit(t.commit, { maxPending: 3, maxPerCommit: 100 });
    const big = writer.write([1, 2, 3, 4, 5]);
    await expect(writer.write([6])).rejects.toBeInstanceOf(QueueFullError);
    expect(writer.size).toBe(5);
    await tick();
    t.log[0]!.finish();
    await big;
    expect(writer.size).toBe(0);
    const next = writer.write([7, 8]);
    await tick();
    t.log[1]!.finish();
    await next;
  });

  it('drains on close and refuses writes after', async () => {
    const committed: number[][] = [];
    const writer = new GroupCommit(async (items: number[]) => void committed.push(items), { maxPending: 100, maxPerCommit: 100 });
    const pending = writer.write([1]);
    await writer.close();
    await pending;
    expect(committed).toEqual([[1]]);
    await expect(writer.write([2])).rejects.toBeInstanceOf(QueueFullError);
  });
});
