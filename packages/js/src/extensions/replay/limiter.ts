import type { eventWithTime } from '@rrweb/types'

/** A node's bucket: this many changes at once, then `REFILL` a second (posthog-js's MutationRateLimiter's figures). */
export const BUCKET = 100
export const REFILL = 10

interface Mutation {
  source: number
  texts: { id: number }[]
  attributes: { id: number }[]
  removes: unknown[]
  adds: unknown[]
}

/**
 * A per-node rate limit on rrweb's text and attribute changes, as posthog-js has: each node has a bucket of
 * `BUCKET` changes refilled by `REFILL` a second; a change of a node whose bucket is empty is dropped (and counted),
 * so a page that changes the same nodes without end (an animation, a ticking counter) costs the recorder, the
 * queue and the network a bounded amount. Only texts and attributes: each holds a node's whole new value, so the
 * next change kept puts the replay right, whereas a dropped added or removed node would leave it wrong for good.
 * `limit` returns the event to keep (its changes filtered) or `undefined` when nothing is left of it.
 * @example const l = mutationLimiter(); const kept = l.limit(event, Date.now())
 */
export function mutationLimiter(bucket = BUCKET, refill = REFILL) {
  /** Node id → [changes left, when counted]; a node is forgotten once its bucket is full again. */
  let nodes = new Map<number, [number, number]>()
  let dropped = 0
  const limited = new Set<number>()

  const allow = ({ id }: { id: number }, now: number) => {
    const [left, at] = nodes.get(id) ?? [bucket, now]
    const avail = Math.min(bucket, left + ((now - at) / 1000) * refill)
    if (avail < 1) {
      dropped++
      limited.add(id)
      nodes.set(id, [avail, now])
      return false
    }
    nodes.set(id, [avail - 1, now])
    return true
  }

  return {
    limit(e: eventWithTime, now = e.timestamp): eventWithTime | undefined {
      const d = e.data as Mutation
      // rrweb's incremental snapshot (3) of a mutation (source 0)
      if (e.type !== 3 || d.source !== 0) return e
      const before = d.texts.length + d.attributes.length
      const texts = d.texts.filter((t) => allow(t, now))
      const attributes = d.attributes.filter((a) => allow(a, now))
      if (texts.length + attributes.length === before) return e
      if (!texts.length && !attributes.length && !d.adds.length && !d.removes.length) return undefined
      return { ...e, data: { ...d, texts, attributes } } as eventWithTime
    },
    /** The changes dropped, and the nodes they were of, since the last call; nodes whose bucket is full are forgotten. */
    take(now: number): { dropped: number; nodes: number[] } | undefined {
      nodes = new Map([...nodes].filter(([, [left, at]]) => left + ((now - at) / 1000) * refill < bucket))
      if (!dropped) return undefined
      const out = { dropped, nodes: [...limited] }
      dropped = 0
      limited.clear()
      return out
    },
  }
}
