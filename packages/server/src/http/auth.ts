import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { hasScope, type ApiKey, type ApiKeyService } from '../api-keys/service';
import type { Project, ProjectStore } from '../projects/store';
import { authenticationFailed, notAuthenticated, notFound, permissionDenied } from './errors';

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

/**
 * An onRequest hook (before the body is read) that requires a personal API key with `scope`; on routes with `:project_id` it also
 * checks the key may use that project and loads it into `request.project` (404 when it does not exist).
 */
export function authorize(deps: { keys: ApiKeyService; projects: ProjectStore }, scope: string): onRequestAsyncHookHandler {
  return async (request) => {
    const key = await authenticate(deps.keys, request);
    if (!hasScope(key.scopes, scope)) throw permissionDenied(`API key missing required scope '${scope}'`);
    request.apiKey = key;
    const raw = (request.params as { project_id?: string }).project_id;
    if (raw === undefined) return;
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
    if (id !== undefined && key.project_ids && !key.project_ids.includes(id)) {
      throw permissionDenied(`API key does not have access to the requested project: ID ${id}.`);
    }
    const project = id === undefined ? undefined : await deps.projects.get(id);
    if (!project) throw notFound('Project not found.');
    request.project = project;
  };
}
