/** A `$snapshot` event's data stays under this many bytes of JSON, so each request to `/s/` stays under 1 MB. */
export const MAX_BATCH_BYTES = 900_000

/** Some of the recorded events, and their size as JSON in bytes. */
export interface Batch<T> {
  events: T[]
  bytes: number
}

const encoder = /* @__PURE__ */ new TextEncoder()

/** Bytes of a value as UTF-8 JSON: what it weighs in a request body. */
export const jsonBytes = (v: unknown): number => encoder.encode(JSON.stringify(v)).length

/**
 * Splits recorded events, in order, into batches whose JSON stays under `max` bytes. An event bigger than `max`
 * alone (a full snapshot of a huge page) goes in a batch of its own: an rrweb event cannot be cut.
 * @example split([a, b, c], jsonBytes) // [{ events: [a, b], bytes: 812000 }, { events: [c], bytes: 300 }]
 */
export function split<T>(events: T[], sizeOf: (e: T) => number, max = MAX_BATCH_BYTES): Batch<T>[] {
  const out: Batch<T>[] = []
  // `[` and `]`, and a comma between events: 1 + each event's size + 1
  let cur: Batch<T> = { events: [], bytes: 1 }
  for (const e of events) {
    const size = sizeOf(e) + 1
    if (cur.events.length && cur.bytes + size > max) {
      out.push(cur)
      cur = { events: [], bytes: 1 }
    }
    cur.events.push(e)
    cur.bytes += size
  }
  if (cur.events.length) out.push(cur)
  return out
}
