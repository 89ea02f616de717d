/**
 * A token bucket per key (an exception type), as posthog-node's exception autocapture: `size` captures at once,
 * then one more every `refillMs`. A loop that throws the same error captures 10, then one per 10 s, while other
 * errors still get through. Computed from timestamps, no timers; at most `maxKeys` buckets are kept.
 */
export class BucketRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly size = 10,
    private readonly refillMs = 10_000,
    private readonly maxKeys = 1_000,
  ) {}

  /** Whether one more capture of `key` may go now (and counts it). */
  take(key: string, now = Date.now()): boolean {
    let bucket = this.buckets.get(key);
    if (bucket) {
      const refills = Math.floor((now - bucket.at) / this.refillMs);
      if (refills > 0) bucket = { tokens: Math.min(this.size, bucket.tokens + refills), at: bucket.at + refills * this.refillMs };
      this.buckets.delete(key); // re-inserted below: now the most recently used
    } else {
      bucket = { tokens: this.size, at: now };
    }
    if (bucket.tokens >= this.size) bucket.at = now; // a full bucket does not save up refills
    const allowed = bucket.tokens > 0;
    if (allowed) bucket.tokens--;
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return allowed;
  }
}
