import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CORS of the public SDK endpoints (capture, public early access features), as PostHog answers them:
 * the request's Origin echoed, with credentials, on every response (errors too). Without an Origin
 * header no CORS header is sent. Add as an `onRequest` hook of the routes' scope.
 */
export async function echoOriginCors(request: FastifyRequest, reply: FastifyReply) {
  const origin = request.headers.origin;
  if (!origin) return;
  void reply.headers({
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': request.headers['access-control-request-headers'] || 'X-Requested-With, Content-Type',
    vary: 'Origin',
  });
}

/** The answer to a preflight request (the CORS headers come from `echoOriginCors`). */
export async function preflight(_request: FastifyRequest, reply: FastifyReply) {
  return reply.code(204).send();
}
