import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { echoOriginCors, preflight } from '../http/cors';
import { perProjectRateLimit, projectByToken, projectTokenOf, type ProjectsByToken } from '../http/project-token';
import { ErrorSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import type { EarlyAccessService } from './service';

const PublicQuery = Type.Object({
  token: Type.Optional(Type.String()),
  api_key: Type.Optional(Type.String()),
  stage: Type.Optional(Type.Array(Type.String())),
});

/**
 * `GET /api/early_access_features/?token=…&stage=…`: the public list posthog-js's `getEarlyAccessFeatures`
 * reads, by project token (default stage `beta`; `stage` repeatable), CORS open.
 */
export const publicEarlyAccessRoutes: FastifyPluginAsync<RouteContext<{ projects: ProjectsByToken; earlyAccess: EarlyAccessService }>> = async (
  app,
  { services, config },
) => {
  app.addHook('onRequest', echoOriginCors);
  const path = '/api/early_access_features';
  app.get<{ Querystring: Static<typeof PublicQuery> }>(
    path,
    {
      schema: {
        tags: ['sdk'],
        summary: "Early access features of the token's project in the given stages (posthog-js getEarlyAccessFeatures)",
        security: [],
        querystring: PublicQuery,
        response: {
          200: Type.Object({
            earlyAccessFeatures: Type.Array(
              Type.Object({
                id: Type.String(),
                name: Type.String(),
                description: Type.String(),
                stage: Type.String(),
                documentationUrl: Type.String(),
                flagKey: Type.Union([Type.String(), Type.Null()]),
                payload: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
              }),
            ),
          }),
          401: ErrorSchema,
          429: ErrorSchema,
        },
      },
      preValidation: async (request: FastifyRequest) => {
        request.project = await projectByToken(services.projects, projectTokenOf(request.body, request.query as Record<string, unknown>));
      },
      config: { rateLimit: perProjectRateLimit(config.publicRateLimitPerMinute) },
    },
    async (request) => ({ earlyAccessFeatures: await services.earlyAccess.publicList(request.project!.id, request.query.stage ?? ['beta']) }),
  );
  app.options(path, { schema: { hide: true }, config: { rateLimit: false } }, preflight);
};
