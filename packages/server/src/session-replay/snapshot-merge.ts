/** A stored block as the read path sees it: its first and last event times, and where its lines are. */
export interface BlockRef {
  first: number;
  last: number;
  key: string;
}

interface Line {
  ts: number;
  json: string;
}

/** A block's line `<timestamp>\t<event JSON>` (JSON has no raw tab: it escapes control characters). */
function parseLine(line: string): Line | undefined {
  const tab = line.indexOf('\t');
  if (tab < 0) return undefined;
  const ts = Number(line.slice(0, tab));
  return Number.isFinite(ts) ? { ts, json: line.slice(tab + 1) } : undefined;
}

/** Two lists sorted by time merged into one; among equal times `a`'s come first (the block that starts earlier). */
function merge(a: Line[], b: Line[]): Line[] {
  if (!a.length) return b;
  if (!b.length) return a;
  const out: Line[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(b[j]!.ts < a[i]!.ts ? b[j++]! : a[i++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/**
 * The events of blocks (sorted by their first time) as one stream in timestamp order, each exact duplicate once.
 * Blocks are read one at a time: an event is yielded as soon as no block not yet read can start before it, so the first
 * block's events go out before the second block is read, and overlapping blocks (a window's batches interleaved with
 * another's, or batches that arrived late) are merged.
 */
export async function* mergeBlocks(blocks: readonly BlockRef[], read: (key: string) => Promise<string[]>): AsyncIterable<string> {
  let pending: Line[] = [];
  let lastTs = -Infinity;
  let atLastTs = new Set<string>();
  function* emitBefore(limit: number): Generator<string> {
    let i = 0;
    for (; i < pending.length && pending[i]!.ts < limit; i++) {
      const { ts, json } = pending[i]!;
      if (ts !== lastTs) {
        lastTs = ts;
        atLastTs = new Set();
      }
      if (atLastTs.has(json)) continue;
      atLastTs.add(json);
      yield json;
    }
    pending = i ? pending.slice(i) : pending;
  }
  for (let b = 0; b < blocks.length; b++) {
    const lines: Line[] = [];
    for (const raw of await read(blocks[b]!.key)) {
      const line = parseLine(raw);
      if (line) lines.push(line);
    }
    // Written in time order; sorted again only if a block was not (stable: its own order kept among equal times).
    if (lines.some((line, i) => i > 0 && line.ts < lines[i - 1]!.ts)) lines.sort((x, y) => x.ts - y.ts);
    pending = merge(pending, lines);
    yield* emitBefore(b + 1 < blocks.length ? blocks[b + 1]!.first : Infinity);
  }
}
