import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * CPU-bound work on a request (parsing a large body, normalizing its events) runs in slices with turns of the event
 * loop between them, so that no request holds the event loop for long.
 *
 * By default a slice runs for up to SLICE_MS, then yields with `setImmediate`: the next turn of the event loop runs a
 * slice of every request waiting, and a request's work begins as soon as its body has arrived. With `shareTurns(true)`
 * (the service on PostgreSQL: `createServices`), work begins and goes on in turns handed out one per turn of the event
 * loop, in the order they were asked for, in slices of up to SHARED_SLICE_MS: the I/O between two turns (the next
 * statement of the ingest transaction, say) then waits for one slice rather than for a slice of every request in
 * flight, and the database works while the service parses (more events a second: bench/RESULTS.md). On SQLite the
 * database's work runs in the event loop itself, and requests that finish together commit together under one fsync:
 * turns handed out one at a time would make its transactions much smaller and ingestion slower, so it keeps the default.
 */

const SLICE_MS = 10;
const SHARED_SLICE_MS = 2;

let shared = false;

/** Whether work takes its turns one at a time (see above); process-wide. */
export function shareTurns(on: boolean): void {
  shared = on;
}

const waiting: Array<() => void> = [];
let handingOut = false;

/** Lets the first in line run, and the next one on the next turn of the event loop. */
function handOut() {
  const run = waiting.shift()!;
  if (waiting.length) setImmediate(handOut);
  else handingOut = false;
  run();
}

function queuedTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!handingOut) {
      handingOut = true;
      setImmediate(handOut);
    }
  });
}

/** The slices of one piece of work: `await begin()` before the first; between two, `if (slices.over) await slices.next()`. */
export class Slices {
  private since = performance.now();

  async begin(): Promise<void> {
    if (shared) await queuedTurn();
    this.since = performance.now();
  }

  /** Whether the slice running has had its time. */
  get over(): boolean {
    return performance.now() - this.since >= (shared ? SHARED_SLICE_MS : SLICE_MS);
  }

  /** Waits for the next turn, where the next slice starts. */
  async next(): Promise<void> {
    await (shared ? queuedTurn() : nextTurn());
    this.since = performance.now();
  }
}
