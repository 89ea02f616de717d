import type { FastifyRequest } from 'fastify';
import type { Project } from '../db/schema';
import { invalidProjectToken, missingProjectToken } from './errors';

/** The project token of an SDK request: body `token` / `api_key` / `$token`, else query `token` / `api_key`. */
export function projectTokenOf(body: unknown, query: Record<string, unknown>): string | undefined {
  if (typeof body === 'object' && body !== null) {
    const fields = body as Record<string, unknown>;
    const token = tokenIn(fields.token) ?? tokenIn(fields.api_key) ?? tokenIn(fields.$token);
    if (token !== undefined) return token;
  }
  return tokenIn(query.token) ?? tokenIn(query.api_key);
}

const tokenIn = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Finds the project of a token (the projects service). */
export interface ProjectsByToken {
  byToken(token: string): Promise<Project | undefined>;
}

/** The project a token names; 401 when it is missing or unknown. */
export async function projectByToken(projects: ProjectsByToken, token: string | undefined): Promise<Project> {
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
