import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { hasScope, type ApiKey, type ApiKeyService } from '../api-keys/service';
import type { ProjectService } from '../projects/service';
import type { Project } from '../projects/store';
import { NotFoundError } from '../errors';
import { authenticationFailed, notAuthenticated, permissionDenied } from './errors';
import { intId } from './schemas';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKey | null;
    project: Project | null;
  }
}

const BEARER = /^Bearer\s+(\S.+)$/;

/** The personal API key of the request: `Authorization: Bearer <key>`. */
export async function authenticate(keys: ApiKeyService, request: FastifyRequest): Promise<ApiKey> {
  const header = request.headers.authorization;
  if (!header) throw notAuthenticated();
  const secret = BEARER.exec(header)?.[1]?.trim();
  const key = secret ? await keys.verify(secret) : undefined;
  if (!key) throw authenticationFailed('Personal API key found in request Authorization header is invalid.');
  return key;
}

/** Throws 403 unless the key carries `scope`. */
export function requireScope(key: ApiKey, scope: string) {
  if (!hasScope(key.scopes, scope)) throw permissionDenied(`API key missing required scope '${scope}'`);
}

/** Throws 403 when the key is limited to other projects. */
export function requireProject(key: ApiKey, projectId: number) {
  if (key.project_ids && !key.project_ids.includes(projectId)) {
    throw permissionDenied(`API key does not have access to the requested project: ID ${projectId}.`);
  }
}

/**
 * An onRequest hook (before the body is read) that requires a personal API key with `scope`; on routes with `:project_id` it also
 * checks the key may use that project and loads it into `request.project` (404 when it does not exist).
 */
export function authorize(deps: { keys: ApiKeyService; projects: ProjectService }, scope: string): onRequestAsyncHookHandler {
  return async (request) => {
    const key = await authenticate(deps.keys, request);
    requireScope(key, scope);
    request.apiKey = key;
    const raw = (request.params as { project_id?: string }).project_id;
    if (raw === undefined) return;
    const id = intId(raw);
    if (id !== undefined) requireProject(key, id);
    const project = id === undefined ? undefined : await deps.projects.get(id);
    if (!project) throw new NotFoundError('Project not found.');
    request.project = project;
  };
}
