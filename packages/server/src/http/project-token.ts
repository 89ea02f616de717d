import type { FastifyRequest } from 'fastify';
import type { ProjectService } from '../projects/service';
import type { Project } from '../projects/store';
import { invalidProjectToken, missingProjectToken } from './errors';

/** The project token of an SDK request: body `token` / `api_key` / `$token`, else query `token` / `api_key`. */
export function projectTokenOf(request: FastifyRequest): string | undefined {
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
  const query = request.query as Record<string, unknown>;
  const token = [body.token, body.api_key, body.$token, query.token, query.api_key].find((t) => typeof t === 'string' && t !== '');
  return token as string | undefined;
}

/** The project a token names; 401 when it is missing or unknown. */
export async function projectByToken(projects: ProjectService, token: string | undefined): Promise<Project> {
  if (!token) throw missingProjectToken();
  const project = await projects.byToken(token);
  if (!project) throw invalidProjectToken();
  return project;
}

/** Per-project rate limit for public SDK routes, applied once the project is known (after the body is read). */
export const perProjectRateLimit = (max: number) => ({
  hook: 'preHandler' as const,
  max,
  timeWindow: '1 minute',
  keyGenerator: (request: FastifyRequest) => `project:${request.project?.id ?? request.ip}`,
});
