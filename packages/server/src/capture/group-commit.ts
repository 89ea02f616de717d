import { setImmediate as nextTurn } from 'node:timers/promises';
import { isUnavailable } from '../db/database';

/** Thrown by `write` when the queue is full or closing: the caller should answer 503 and ask the client to retry. */
export class QueueFullError extends Error {}

interface Waiting<T> {
  items: T[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  /** Items accepted but not yet committed (queued or in flight) above which `write` refuses more. */
  maxPending: number;
  /** Items per transaction; a larger backlog is committed in several transactions, in order. */
  maxPerCommit: number;
}

/**
 * Group commit: callers hand over items and wait; one transaction at a time commits everything that
 * queued up meanwhile, then every caller in it is answered. Concurrent requests share a transaction
 * (and its fsync) instead of each paying for one.
 */
export class GroupCommit<T> {
  private queue: Waiting<T>[] = [];
  private pending = 0;
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly commit: (items: T[]) => Promise<void>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Items accepted and not yet committed. */
  get size(): number {
    return this.pending;
  }

  /** Resolves once `items` are committed; rejects with the commit's error, or QueueFullError when overloaded or closed. */
  write(items: T[]): Promise<void> {
    if (this.closed) return Promise.reject(new QueueFullError('closing'));
    // An empty queue takes any batch, so a batch larger than the limit is not refused forever.
    if (this.pending > 0 && this.pending + items.length > this.options.maxPending) return Promise.reject(new QueueFullError('queue full'));
    this.pending += items.length;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /** Refuses new writes and resolves once everything accepted is committed. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  private async drain() {
    // Let requests that arrived in the same turn of the event loop join the first transaction.
    await nextTurn();
    while (this.queue.length) {
      await this.commitGroup(this.take());
    }
    this.running = undefined;
  }

  private take(): Waiting<T>[] {
    let count = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || count + this.queue[n]!.items.length <= this.options.maxPerCommit)) {
      count += this.queue[n]!.items.length;
      n++;
    }
    return this.queue.splice(0, n);
  }

  private async commitGroup(group: Waiting<T>[]) {
    // `pending` drops before callers hear back, so that a caller's next write sees the room it left.
    const settle = (waiting: Waiting<T>, ...error: [unknown] | []) => {
      this.pending -= waiting.items.length;
      if (error.length) waiting.reject(error[0]);
      else waiting.resolve();
    };
    try {
      await this.commit(group.length === 1 ? group[0]!.items : group.flatMap((w) => w.items));
      for (const waiting of group) settle(waiting);
    } catch (error) {
      // Nobody's items are at fault when the database is gone: every caller hears so at once (503).
      if (group.length === 1 || isUnavailable(error)) {
        for (const waiting of group) settle(waiting, error);
        return;
      }
      // One caller's items must not fail the others: commit each alone, in order.
      for (const waiting of group) {
        try {
          await this.commit(waiting.items);
          settle(waiting);
        } catch (own) {
          settle(waiting, own);
        }
      }
    }
  }
}
