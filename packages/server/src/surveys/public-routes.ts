import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { echoOriginCors, preflight } from '../http/cors';
import { perProjectRateLimit, projectByToken, projectTokenOf, type ProjectsByToken } from '../http/project-token';
import { matchesEtag, posthogScript, servePosthogScript, type PosthogScript } from '../http/posthog-script';
import { ErrorSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import { PublicSurveyListSchema } from './schemas';
import type { SurveyService } from './service';

const PublicQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'the project token' })),
  api_key: Type.Optional(Type.String()),
});

/**
 * `GET /api/surveys/?token=…`: the running in-app surveys of the token's project, as posthog-js reads them
 * (`{surveys: [...]}`), CORS open, per-project rate limit, ETag / 304. And `/static/surveys.js`: posthog-js's own
 * surveys bundle, which posthog-js loads from its `api_host` when a survey runs (its version and SRI hash pinned
 * with the package the service depends on).
 */
export const publicSurveyRoutes: FastifyPluginAsync<RouteContext<{ projects: ProjectsByToken; surveys: SurveyService }> & { script?: PosthogScript }> = async (
  app,
  { services, config, script = posthogScript('surveys.js') },
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

  servePosthogScript(app, script);
};
