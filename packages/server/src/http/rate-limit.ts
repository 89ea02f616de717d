import { throttled, type ApiError } from './errors';

/**
 * Requests per key in fixed windows (a minute by default), in memory, counted and answered as @fastify/rate-limit
 * does for the REST API: `x-ratelimit-limit`, `-remaining` and `-reset` (seconds) on every counted response, and 429
 * with `retry-after` past the limit. For the endpoints served outside Fastify's hooks (`/flags`), one instance per
 * endpoint.
 */
export class FixedWindowLimit {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /**
   * Counts a request of `key`, adds its headers to `headers` (a flat name, value list, as `writeHead` takes it), and
   * returns the 429 to answer when it is over the limit.
   */
  take(key: string, headers: Array<string | number>): ApiError | undefined {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (!window && this.windows.size >= 10_000) this.sweep(now);
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    const resetSeconds = Math.ceil((window.endsAt - now) / 1000);
    headers.push('x-ratelimit-limit', this.max, 'x-ratelimit-remaining', Math.max(0, this.max - window.count), 'x-ratelimit-reset', resetSeconds);
    return window.count > this.max ? throttled(resetSeconds) : undefined;
  }

  /** Drops the windows that have ended (keys are projects: few, but not bounded by this class). */
  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
