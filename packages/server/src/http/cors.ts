import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

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
  setCorsHeaders(request.headers, reply.raw);
  done();
}

/** `echoOriginCors` on a response, for SDK endpoints served outside Fastify's hooks (`/flags`). */
export function setCorsHeaders(headers: IncomingHttpHeaders, response: ServerResponse) {
  response.setHeader('cross-origin-resource-policy', 'cross-origin');
  const origin = headers.origin;
  if (origin && ORIGIN.test(origin)) {
    const requested = headers['access-control-request-headers'];
    response.setHeader('access-control-allow-origin', origin);
    response.setHeader('access-control-allow-credentials', 'true');
    response.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    response.setHeader('access-control-allow-headers', requested && HEADER_LIST.test(requested) ? requested : 'X-Requested-With, Content-Type');
    response.setHeader('vary', 'Origin');
  }
}

/** The answer to a preflight request (the CORS headers come from `echoOriginCors`). */
export async function preflight(_request: FastifyRequest, reply: FastifyReply) {
  return reply.code(204).send();
}
