import type { FastifyInstance } from 'fastify';
import { throttled } from './errors';

const WINDOW_MS = 60_000;

/**
 * Throttles credential guessing: failed authentications (any 401: a wrong personal API key, an unknown project token)
 * are counted per client address in one-minute windows, and an address past `maxPerMinute` gets 429 with Retry-After
 * on every request until the window ends, whatever it sends, so a right key is not told apart from a wrong one.
 * Routes without a rate limit (`/_health`, CORS preflights) are left alone.
 */
export function throttleAuthFailures(app: FastifyInstance, maxPerMinute: number) {
  let failures = new Map<string, number>();
  let windowEnds = 0;
  const current = () => {
    const now = Date.now();
    if (now >= windowEnds) {
      failures = new Map();
      windowEnds = now + WINDOW_MS;
    }
    return failures;
  };

  // Callback hooks, not async ones: they run on every request, and a promise each is wasted there.
  app.addHook('onRequest', (request, _reply, done) => {
    const throttledNow = request.routeOptions.config?.rateLimit !== false && (current().get(request.ip) ?? 0) >= maxPerMinute;
    done(throttledNow ? throttled(Math.max(1, Math.ceil((windowEnds - Date.now()) / 1000))) : undefined);
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode === 401) {
      const counts = current();
      counts.set(request.ip, (counts.get(request.ip) ?? 0) + 1);
    }
    done();
  });
}
