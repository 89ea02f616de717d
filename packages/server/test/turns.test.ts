// Slices of requests' CPU work (src/turns.ts): by default every request waiting runs a slice in the same turn of the
// event loop; with shared turns (the service on PostgreSQL) one slice runs a turn, in order, so that I/O between turns
// waits for one slice only.
import { afterEach, describe, expect, it } from 'vitest';
import { shareTurns, Slices } from '../src/turns';

/** The number of the event loop's turn we are in: a chain of `setImmediate` counts one a turn. */
function turnCounter() {
  let turn = 0;
  let counting = true;
  const tick = () => {
    turn++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => (counting = false) };
}

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/** Work of `count` slices of `ms` each; logs its name and the turn of each slice. */
async function work(name: string, count: number, ms: number, log: [string, number][], turns: { now: () => number }) {
  const slices = new Slices();
  await slices.begin();
  for (let i = 0; i < count; i++) {
    log.push([name, turns.now()]);
    busy(ms);
    if (i < count - 1 && slices.over) await slices.next();
  }
}

afterEach(() => shareTurns(false));

describe('slices of CPU work', () => {
  it('by default run a slice of every piece of work waiting in the same turn', async () => {
    const turns = turnCounter();
    const log: [string, number][] = [];
    // Past the 10 ms a slice runs by default.
    await Promise.all([work('a', 2, 11, log, turns), work('b', 2, 11, log, turns)]);
    turns.stop();
    expect(log.map(([name]) => name)).toEqual(['a', 'b', 'a', 'b']);
    const [a1, b1, a2, b2] = log.map(([, turn]) => turn);
    expect(b1).toBe(a1);
    expect(b2).toBe(a2);
    expect(a2).toBeGreaterThan(a1!);
  });

  it('with shared turns run one slice a turn, in the order asked, each piece of work in its turn', async () => {
    shareTurns(true);
    const turns = turnCounter();
    const log: [string, number][] = [];
    // Past the 2 ms a slice runs with shared turns; c, asked for last, runs after a's and b's first slices.
    await Promise.all([work('a', 3, 3, log, turns), work('b', 3, 3, log, turns), work('c', 1, 3, log, turns)]);
    turns.stop();
    expect(log.map(([name]) => name)).toEqual(['a', 'b', 'c', 'a', 'b', 'a', 'b']);
    const numbers = log.map(([, turn]) => turn);
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBeGreaterThan(numbers[i - 1]!);
  });

  it('with shared turns let other callbacks of the event loop run between two slices', async () => {
    shareTurns(true);
    const log: string[] = [];
    let arriving: Promise<void> | undefined;
    const slices = new Slices();
    await slices.begin();
    for (let i = 0; i < 3; i++) {
      log.push(`slice ${i}`);
      // An answer from the database, say: it arrives while the first slice runs and is handled before the next.
      arriving ??= new Promise<void>((resolve) =>
        setTimeout(() => {
          log.push('callback');
          resolve();
        }, 1),
      );
      busy(3);
      if (slices.over) await slices.next();
    }
    await arriving;
    expect(log).toEqual(['slice 0', 'callback', 'slice 1', 'slice 2']);
  });
});
