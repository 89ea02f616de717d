import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { NotFoundError } from '../errors';
import { echoOriginCors, preflight } from '../http/cors';
import { perProjectRateLimit, projectByToken, projectTokenOf, type ProjectsByToken } from '../http/project-token';
import { ErrorSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import { PublicSurveyListSchema } from './schemas';
import type { SurveyService } from './service';
import { posthogSurveysScript, type SurveysScript } from './surveys-script';

const PublicQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'the project token' })),
  api_key: Type.Optional(Type.String()),
});

/** True when an `If-None-Match` header names this ETag (or is `*`); weak forms count, as for a GET. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/**
 * `GET /api/surveys/?token=…`: the running in-app surveys of the token's project, as posthog-js reads them
 * (`{surveys: [...]}`), CORS open, per-project rate limit, ETag / 304. And `/static/surveys.js`: posthog-js's own
 * surveys bundle, which posthog-js loads from its `api_host` when a survey runs (its version and SRI hash pinned
 * with the package the service depends on).
 */
export const publicSurveyRoutes: FastifyPluginAsync<RouteContext<{ projects: ProjectsByToken; surveys: SurveyService }> & { script?: SurveysScript }> = async (
  app,
  { services, config, script = posthogSurveysScript() },
) => {
  const path = '/api/surveys';
  app.get<{ Querystring: Static<typeof PublicQuery> }>(
    path,
    {
      onRequest: echoOriginCors,
      schema: {
        tags: ['sdk'],
        summary: "The running surveys of the token's project (posthog-js getSurveys); ETag / 304",
        // The project's survey (`GET /api/projects/:project_id/surveys/:id/`) is `surveys_retrieve`.
        operationId: 'public_surveys_retrieve',
        security: [],
        querystring: PublicQuery,
        response: { 200: PublicSurveyListSchema, 304: Type.Null({ description: 'not modified' }), 401: ErrorSchema, 429: ErrorSchema },
      },
      preValidation: async (request: FastifyRequest) => {
        request.project = await projectByToken(services.projects, projectTokenOf(undefined, request.query as Record<string, unknown>));
      },
      config: { rateLimit: perProjectRateLimit(config.publicRateLimitPerMinute) },
    },
    async (request, reply) => {
      const list = await services.surveys.publicList(request.project!.id);
      // Revalidated each time: a survey that starts or stops shows at once.
      void reply.header('etag', list.etag).header('cache-control', 'no-cache');
      if (matchesEtag(request.headers['if-none-match'], list.etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(list.body);
    },
  );
  app.options(path, { schema: { hide: true }, config: { rateLimit: false }, onRequest: echoOriginCors }, preflight);

  const serve = (immutable: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.headers({
      'content-type': 'text/javascript; charset=utf-8',
      // A version's file never changes; the unversioned name may, when the service's pinned posthog-js is upgraded.
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=86400',
      'cross-origin-resource-policy': 'cross-origin',
      'access-control-allow-origin': '*',
      etag: `"${script.integrity}"`,
      // The hash for `<script integrity>` (posthog-js's `prepare_external_dependency_script` can set it).
      'x-integrity': script.integrity,
    });
    if (matchesEtag(request.headers['if-none-match'], `"${script.integrity}"`)) return reply.code(304).send();
    return reply.send(script.bytes);
  };
  // posthog-js asks for `/static/surveys.js?v=<its version>`; with `strict_script_versioning`, `/static/<version>/surveys.js`.
  app.get<{ Querystring: { v?: string } }>('/static/surveys.js', { schema: { hide: true } }, (request, reply) =>
    serve(request.query.v === script.version)(request, reply),
  );
  // The parameter shares its name with the static files' route (`/static/:file`), whose path segment it is too.
  app.get<{ Params: { file: string } }>('/static/:file/surveys.js', { schema: { hide: true } }, async (request, reply) => {
    if (request.params.file !== script.version) throw new NotFoundError(`This service serves the surveys.js of posthog-js ${script.version}.`);
    return serve(true)(request, reply);
  });
};
