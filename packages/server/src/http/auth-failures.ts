import type { FastifyInstance } from 'fastify';
import { throttled } from './errors';

const WINDOW_MS = 60_000;

/**
 * Throttles credential guessing: failed authentications (any 401: a wrong personal API key, an unknown project token)
 * are counted per client address in one-minute windows, and an address past `maxPerMinute` gets 429 with Retry-After
 * on every request until the window ends, whatever it sends, so a right key is not told apart from a wrong one.
 */
export class AuthFailures {
  private failures = new Map<string, number>();
  private windowEnds = 0;

  constructor(private readonly maxPerMinute: number) {}

  /** The 429 for an address past its failures this minute, else undefined. */
  throttled(ip: string) {
    const count = this.current().get(ip);
    if (count === undefined || count < this.maxPerMinute) return undefined;
    return throttled(Math.max(1, Math.ceil((this.windowEnds - Date.now()) / 1000)));
  }

  /** Counts an answer: a 401 is a failure of its address. */
  answered(ip: string, status: number) {
    if (status !== 401) return;
    const counts = this.current();
    counts.set(ip, (counts.get(ip) ?? 0) + 1);
  }

  private current() {
    const now = Date.now();
    if (now >= this.windowEnds) {
      this.failures = new Map();
      this.windowEnds = now + WINDOW_MS;
    }
    return this.failures;
  }
}

/**
 * `AuthFailures` on every route of the app but those without a rate limit: `/_health` and CORS preflights, and the
 * `/flags` endpoint, which limits and counts by itself.
 */
export function throttleAuthFailures(app: FastifyInstance, failures: AuthFailures) {
  // Callback hooks, not async ones: they run on every request, and a promise each is wasted there.
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.routeOptions.config?.rateLimit !== false ? failures.throttled(request.ip) : undefined);
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.routeOptions.config?.rateLimit !== false) failures.answered(request.ip, reply.statusCode);
    done();
  });
}
