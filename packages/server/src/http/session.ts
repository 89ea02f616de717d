import cookie from '@fastify/cookie';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './errors';

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60_000;

/** The session cookie's name (the web app never reads it: it is httpOnly). */
export const SESSION_COOKIE = 'service_session';
/** The header carrying a session's CSRF token (`Me.csrf_token`) on unsafe requests. */
export const CSRF_HEADER = 'x-csrf-token';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyInstance {
    /** COOKIE_SECURE: true marks the session cookie Secure always; otherwise it is Secure on https requests (X-Forwarded-Proto behind a trusted proxy). */
    cookieSecure: boolean;
  }
}

/** Registers cookie parsing and writing (@fastify/cookie) and `request.principal`. Cookies are parsed only where a session is read, not on every request. */
export async function registerSessionCookies(app: FastifyInstance, options: { cookieSecure?: boolean }) {
  await app.register(cookie, { hook: false });
  app.decorate('cookieSecure', options.cookieSecure === true);
  app.decorateRequest('principal', null);
}

/** The session cookie's value in the request, if any. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header || !header.includes(SESSION_COOKIE)) return undefined;
  try {
    return request.server.parseCookie(header)[SESSION_COOKIE] || undefined;
  } catch {
    return undefined;
  }
}

const cookieOptions = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secure: request.server.cookieSecure || request.protocol === 'https',
});

/** Sends the session cookie, valid for the idle time from now (sent again as the session is used). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  void reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: Math.floor(SESSION_IDLE_MS / 1000) });
  void reply.header('cache-control', 'no-store');
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  void reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}

export const csrfFailed = (detail: string) => new ApiError(403, 'authentication_error', 'csrf_failed', detail);

/** The request's own origin (`https://host:port`, as a proxy we trust reports it), normalized as browsers send Origin. */
export function ownOrigin(request: FastifyRequest): string | undefined {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return undefined;
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Throws 403 `csrf_failed` unless the request comes from a page of this service: its Origin (or, without one, its
 * Referer) must be the service's own origin. With `required` false a request naming neither passes (curl, the tests,
 * a login from a script); one naming another site does not.
 */
export function checkSameOrigin(request: FastifyRequest, required: boolean) {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const claimed = origin !== undefined ? originOf(origin) : referer !== undefined ? originOf(referer) : undefined;
  if (origin === undefined && referer === undefined && !required) return;
  const own = ownOrigin(request);
  if (!claimed || !own || claimed !== own) throw csrfFailed('The request did not come from this service (Origin or Referer is missing or of another site).');
}

/** Throws 403 `csrf_failed` when an unsafe request made with a session lacks the session's CSRF token or comes from another site. */
export function checkCsrf(request: FastifyRequest, csrfToken: string) {
  if (!UNSAFE.has(request.method)) return;
  const sent = request.headers[CSRF_HEADER];
  const given = Buffer.from(typeof sent === 'string' ? sent : '');
  const expected = Buffer.from(csrfToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw csrfFailed(`CSRF token missing or wrong: send the session's csrf_token (GET /api/users/@me) in the X-CSRF-Token header.`);
  }
  checkSameOrigin(request, true);
}
