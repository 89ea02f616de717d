import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Project } from '../db/schema';
import { NotFoundError } from '../errors';
import { authenticationFailed, notAuthenticated, permissionDenied } from './errors';
import { isRole, roleHasScope, ROLE_SCOPES, type Role } from './roles';
import { intId } from './schemas';
import { hasScope } from './scopes';
import { checkCsrf, clearSessionCookie, sessionToken, setSessionCookie } from './session';

/** A personal API key that authenticated a request, with its user's role (null without a user): a user's key never exceeds the role. */
export interface AuthKey {
  id: string;
  label: string;
  scopes: string[];
  /** The projects the key is limited to; null for every project. */
  project_ids: number[] | null;
  /** The user who made the key; null for keys made by the command line. */
  user_id: number | null;
  role: string | null;
}

/** The user of a session. */
export interface SessionUser {
  id: number;
  email: string;
  name: string;
  role: Role;
}

/** A session found by its cookie. */
export interface FoundSession {
  user: SessionUser;
  /** The CSRF token its unsafe requests must send. */
  csrfToken: string;
  /** True when this request moved the session's idle deadline (the cookie is sent again with its new expiry). */
  touched: boolean;
}

/**
 * What authentication looks up, given by the app (the personal API keys, sessions and projects services): a key by its
 * secret, a session by its cookie's token, a project by its id.
 */
export interface AuthLookups {
  keys: { verify(secret: string): Promise<AuthKey | undefined> };
  sessions: { verify(token: string): Promise<FoundSession | undefined> };
  projects: { get(id: number): Promise<Project | undefined> };
}

/**
 * Who a request acts for: a personal API key (with its user, or none for a key made by the command line) or a session
 * (its user). Scopes are the key's, cut down to its user's role; a session has its role's.
 */
export interface Principal {
  via: 'key' | 'session';
  /** The user's id; null for a command-line key. */
  userId: number | null;
  /** The user's role; null for a command-line key (its scopes alone count). */
  role: Role | null;
  scopes: readonly string[];
  /** The projects the key is limited to; null for every project. */
  projectIds: number[] | null;
  /** The session's user (sessions only). */
  user: SessionUser | null;
  /** The session's CSRF token (sessions only). */
  csrfToken: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: AuthKey | null;
    project: Project | null;
    principal: Principal | null;
  }
}

/** True when the principal carries `scope`: granted by its key or session, and by its user's role. */
export function can(principal: Pick<Principal, 'scopes' | 'role'>, scope: string): boolean {
  return hasScope(principal.scopes as string[], scope) && (principal.role === null || roleHasScope(principal.role, scope));
}

/**
 * True when the principal carries `scope` across the organization (over other users' keys, say): never for a key limited
 * to some projects, which acts on its projects only.
 */
export const canOrganizationWide = (principal: Principal, scope: string) => principal.projectIds === null && can(principal, scope);

/** Has an owner's rights: an owner, or a command-line key with scope `*`. */
export const isOwner = (principal: Pick<Principal, 'scopes' | 'role'>) => can(principal, '*');

const BEARER = /^Bearer\s+(\S.+)$/;

/** The personal API key of the request: `Authorization: Bearer <key>`. */
export async function authenticate(keys: AuthLookups['keys'], request: FastifyRequest): Promise<AuthKey> {
  const header = request.headers.authorization;
  if (!header) throw notAuthenticated();
  const secret = BEARER.exec(header)?.[1]?.trim();
  const key = secret ? await keys.verify(secret) : undefined;
  if (!key) throw authenticationFailed('Personal API key found in request Authorization header is invalid.');
  return key;
}

const keyPrincipal = (key: AuthKey): Principal => ({
  via: 'key',
  userId: key.user_id,
  role: key.role !== null && isRole(key.role) ? key.role : null,
  scopes: key.scopes,
  projectIds: key.project_ids,
  user: null,
  csrfToken: null,
});

/** Throws 403 unless the key carries `scope` (and, for a user's key, the user's role does too). */
export function requireScope(key: Pick<AuthKey, 'scopes' | 'role'>, scope: string) {
  if (!can({ scopes: key.scopes, role: key.role && isRole(key.role) ? key.role : null }, scope)) {
    throw permissionDenied(`API key missing required scope '${scope}'`);
  }
}

/** Throws 403 when the key is limited to other projects. */
export function requireProject(key: Pick<AuthKey, 'project_ids'>, projectId: number) {
  if (key.project_ids && !key.project_ids.includes(projectId)) {
    throw permissionDenied(`API key does not have access to the requested project: ID ${projectId}.`);
  }
}

/**
 * Who the request acts for: `Authorization: Bearer <personal API key>` when the header is there (no CSRF check), else
 * the session cookie, whose unsafe requests need the session's CSRF token and a same-origin Origin (403 `csrf_failed`).
 * 401 without either, or with an unknown, revoked or expired one (an expired session's cookie is cleared).
 */
export async function authenticatePrincipal(deps: Pick<AuthLookups, 'keys' | 'sessions'>, request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  if (request.headers.authorization !== undefined) {
    const key = await authenticate(deps.keys, request);
    request.apiKey = key;
    return (request.principal = keyPrincipal(key));
  }
  const token = sessionToken(request);
  if (!token) throw notAuthenticated();
  const session = await deps.sessions.verify(token);
  if (!session) {
    clearSessionCookie(request, reply);
    throw authenticationFailed('The session has ended; log in again.');
  }
  checkCsrf(request, session.csrfToken);
  if (session.touched) setSessionCookie(request, reply, token);
  return (request.principal = {
    via: 'session',
    userId: session.user.id,
    role: session.user.role,
    scopes: ROLE_SCOPES[session.user.role],
    projectIds: null,
    user: session.user,
    csrfToken: session.csrfToken,
  });
}

/** What a route says of itself to `authorize`. */
export interface RouteAccess {
  /**
   * An organization-level route (no `:project_id`) that keys limited to some projects may use too, because it answers
   * within their reach: the projects they may use, their own keys, their user. Every other organization-level route
   * (members, invites, new projects, the organization's activity log) refuses such a key.
   */
  projectLimitedKeys?: boolean;
}

/**
 * An onRequest hook (before the body is read) that requires a personal API key or a session with `scope` (null: any
 * authenticated request). On routes with `:project_id` it also checks the key may use that project and loads it into
 * `request.project` (404 when it does not exist); every other route is organization-level, which a key limited to some
 * projects may use only when the route says so (`access.projectLimitedKeys`).
 */
export function authorize(deps: AuthLookups, scope: string | null, access: RouteAccess = {}): onRequestAsyncHookHandler {
  return async (request, reply) => {
    const principal = await authenticatePrincipal(deps, request, reply);
    if (scope !== null && !can(principal, scope)) {
      throw permissionDenied(
        principal.via === 'key' ? `API key missing required scope '${scope}'` : `Your role (${principal.role}) does not allow this (scope '${scope}').`,
      );
    }
    const raw = (request.params as { project_id?: string }).project_id;
    if (raw === undefined) {
      if (principal.projectIds && !access.projectLimitedKeys) {
        throw permissionDenied(`API key is limited to projects (${principal.projectIds.join(', ')}) and has no organization-level access.`);
      }
      return;
    }
    const id = intId(raw);
    if (id !== undefined) requireProject({ project_ids: principal.projectIds }, id);
    const project = id === undefined ? undefined : await deps.projects.get(id);
    if (!project) throw new NotFoundError('Project not found.');
    request.project = project;
  };
}
