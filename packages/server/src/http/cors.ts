import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { SECURITY_HEADERS } from './security-headers';

/** An Origin as browsers send one: visible ASCII, no spaces. Anything else is not echoed (it may not even be a valid header value). */
const ORIGIN = /^[\x21-\x7e]+$/;
/** A header list as browsers send one in Access-Control-Request-Headers. */
const HEADER_LIST = /^[\w\-, ]+$/;

/**
 * CORS of the public SDK endpoints (capture, /flags, /decide, remote config, public early access features), as PostHog
 * answers them: the request's Origin echoed, with credentials, on every response (errors too). Without an Origin
 * header no CORS header is sent. `Cross-Origin-Resource-Policy: cross-origin` lets browsers read them from any site.
 * Add as an `onRequest` hook of these routes only: routes taking a personal API key get no CORS.
 */
export function echoOriginCors(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
  // A callback hook: it runs for every SDK request, and a promise each is wasted there.
  reply.raw.setHeader(...CROSS_ORIGIN);
  const headers = corsHeaders(request.headers);
  for (let i = 0; i < headers.length; i += 2) reply.raw.setHeader(headers[i], headers[i + 1]);
  done();
}

const CROSS_ORIGIN = ['cross-origin-resource-policy', 'cross-origin'] as const;

/**
 * Helmet's headers as the SDK endpoints send them, a flat name, value list (`writeHead`'s form; `/flags` starts from
 * it): `Cross-Origin-Resource-Policy: cross-origin` in place of helmet's.
 */
export const SDK_SECURITY_HEADERS: readonly string[] = [...SECURITY_HEADERS.filter(([name]) => name.toLowerCase() !== CROSS_ORIGIN[0]), CROSS_ORIGIN].flat();

/** The headers that echo a request's Origin (none without one), as a flat name, value list. */
export function corsHeaders(headers: IncomingHttpHeaders): string[] {
  const origin = headers.origin;
  if (!origin || !ORIGIN.test(origin)) return [];
  const requested = headers['access-control-request-headers'];
  return [
    'access-control-allow-origin',
    origin,
    'access-control-allow-credentials',
    'true',
    'access-control-allow-methods',
    'GET, POST, OPTIONS',
    'access-control-allow-headers',
    requested && HEADER_LIST.test(requested) ? requested : 'X-Requested-With, Content-Type',
    'vary',
    'Origin',
  ];
}

/** The answer to a preflight request (the CORS headers come from `echoOriginCors`). */
export async function preflight(_request: FastifyRequest, reply: FastifyReply) {
  return reply.code(204).send();
}
