import type { FastifyInstance } from 'fastify';
import { clientNetwork } from './client-network';
import { throttled } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's URL carries a secret (an invite link's token): its 404, a wrong secret, is a failed authentication. */
    secretInUrl?: boolean;
  }
}

const WINDOW_MS = 60_000;

/**
 * Throttles credential guessing: failed authentications (any 401: a wrong personal API key or password, an unknown
 * project token; and a 404 for a secret in a URL) are counted per client (`clientNetwork`) in one-minute windows, and
 * a client past `maxPerMinute` gets 429 with Retry-After on every request until the window ends, whatever it sends,
 * so a right key is not told apart from a wrong one. The counts live in each process's memory: a short window that
 * every worker and instance keeps for itself, where the login throttle (`users/login-throttle.ts`) is in the database.
 */
export class AuthFailures {
  private failures = new Map<string, number>();
  private windowEnds = 0;

  constructor(private readonly maxPerMinute: number) {}

  /** The 429 for a client past its failures this minute, else undefined. */
  throttled(ip: string) {
    const counts = this.current();
    if (counts.size === 0) return undefined;
    const count = counts.get(clientNetwork(ip));
    if (count === undefined || count < this.maxPerMinute) return undefined;
    return throttled(Math.max(1, Math.ceil((this.windowEnds - Date.now()) / 1000)));
  }

  /** Counts an answer: a 401, or a 404 where the URL carries a secret, is a failure of its client. */
  answered(ip: string, status: number, secretInUrl = false) {
    if (status !== 401 && !(status === 404 && secretInUrl)) return;
    const counts = this.current();
    const client = clientNetwork(ip);
    counts.set(client, (counts.get(client) ?? 0) + 1);
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
    const config = request.routeOptions.config;
    if (config?.rateLimit !== false) failures.answered(request.ip, reply.statusCode, config?.secretInUrl);
    done();
  });
}
