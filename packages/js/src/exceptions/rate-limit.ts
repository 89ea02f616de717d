/** posthog-js's limit: a bucket of 10 exceptions per type, refilled with one every 10 seconds. */
export const BUCKET_SIZE = 10
export const REFILL_MS = 10_000

/** Buckets kept: past them the oldest goes (types are few; a page naming its errors after data may not be). */
const MAX_KEYS = 1000

/**
 * A token bucket per key (the exception type), so that an error thrown in a loop cannot flood the service
 * while other errors still get through. Returns whether one more may be sent at `now` (ms; the time of the
 * exception, which may come a little late from the client).
 */
export function rateLimiter(): (key: string, now: number) => boolean {
  const buckets = new Map<string, { tokens: number; at: number }>()
  return (key, now) => {
    const b = buckets.get(key) ?? { tokens: BUCKET_SIZE, at: now }
    if (buckets.size >= MAX_KEYS && !buckets.has(key)) buckets.delete(buckets.keys().next().value!)
    const refill = Math.floor((now - b.at) / REFILL_MS)
    if (refill > 0) {
      b.tokens = Math.min(BUCKET_SIZE, b.tokens + refill)
      b.at += refill * REFILL_MS
    }
    buckets.set(key, b)
    if (b.tokens < 1) return false
    b.tokens--
    return true
  }
}
