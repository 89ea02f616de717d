import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Content-Security-Policy of the JSON API: a response loads nothing and may not be framed. Pages of a web app, once the
 * service serves one, set their own `content-security-policy` header, which replaces this one.
 */
const API_CSP = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"], frameAncestors: ["'none'"] },
};

/**
 * Content-Security-Policy of the API reference at `/api/docs` (swagger-ui): its scripts, styles and images from the
 * service itself, its data: images, and requests ("Try it out") to the service only.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Helmet's headers on every response (`X-Content-Type-Options: nosniff`, HSTS, `X-Frame-Options`, `Referrer-Policy`,
 * same-origin `Cross-Origin-Resource-Policy` / `-Opener-Policy`, the API's CSP) and `Cache-Control: no-store` on `/api/`
 * unless the route sets its own. Public SDK routes allow cross-origin reads in `echoOriginCors`. Helmet's middleware is
 * built once here, not per request as @fastify/helmet builds it (a noticeable part of a `/flags` request), and what it
 * does is recorded once and replayed.
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    // A front door route (`front-door.ts`) sends its own headers.
    if (request.routeOptions.config?.frontDoor) return done();
    if (request.url.startsWith('/api/')) void reply.header('cache-control', 'no-store');
    setSecurityHeaders(reply.raw);
    done();
  });
}

/**
 * What helmet's middleware does to a response, recorded once (a header set, or removed: null): with these options it
 * does not look at the request, and replaying its dozen header changes costs a fraction of running its chain of
 * middlewares on every request. Recording fails at start, loudly, should a helmet release ever read the request.
 */
const SECURITY_HEADER_CHANGES = recordHeaders(helmet({ contentSecurityPolicy: API_CSP }));

/**
 * The headers helmet sets: what a response built without `setHeader` (`/flags`) starts from. Helmet's removals
 * concern headers such a response never had.
 */
export const SECURITY_HEADERS = SECURITY_HEADER_CHANGES.filter((change): change is [string, string] => change[1] !== null);

/** Sets helmet's headers on a response, as recorded. */
export function setSecurityHeaders(response: ServerResponse) {
  for (const [name, value] of SECURITY_HEADER_CHANGES) {
    if (value === null) response.removeHeader(name);
    else response.setHeader(name, value);
  }
}

function recordHeaders(middleware: ReturnType<typeof helmet>): Array<[string, string | null]> {
  const changes: Array<[string, string | null]> = [];
  const response = {
    setHeader: (name: string, value: unknown) => void changes.push([name, String(value)]),
    removeHeader: (name: string) => void changes.push([name, null]),
  };
  const request = new Proxy(
    {},
    {
      get: () => {
        throw new Error('helmet reads the request: its headers can no longer be recorded once (src/http/security-headers.ts)');
      },
    },
  );
  let finished = false;
  middleware(request as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not finish at once: its headers can no longer be recorded (src/http/security-headers.ts)');
  return changes;
}
