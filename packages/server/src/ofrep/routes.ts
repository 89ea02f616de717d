import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { echoOriginCors, preflight } from '../http/cors';
import { invalidProjectToken, missingProjectToken, permissionDenied } from '../http/errors';
import { perProjectRateLimit, type ProjectsByToken } from '../http/project-token';
import type { RouteContext } from '../module';
import { ofrepErrorHandler, OfrepErrorSchema, OfrepServerErrorSchema } from './errors';
import type { OfrepService } from './service';

/** Largest OFREP body: a context of `MAX_CONTEXT_ATTRIBUTES` attributes fits many times over. */
export const OFREP_BODY_LIMIT_BYTES = 256 * 1024;

/** How long a provider keeps a hidden tab's stream open (OFREP's `inactivityDelaySec`, its default). */
const INACTIVITY_DELAY_SEC = 120;

type OfrepRouteServices = { projects: ProjectsByToken; ofrep: OfrepService };

/** The project token of an OFREP request: `Authorization: Bearer <token>` or `X-API-Key: <token>`. */
function tokenOf(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : undefined;
  const apiKey = request.headers['x-api-key'];
  return bearer || (typeof apiKey === 'string' ? apiKey.trim() : undefined) || undefined;
}

/** Whether `If-None-Match` names the ETag (or `*`), strong or weak. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

const Context = Type.Object(
  { context: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: '{targetingKey, groups?, groupProperties?, ...attributes}' })) },
  { additionalProperties: true },
);
const Evaluation = Type.Object({
  key: Type.String(),
  value: Type.Optional(Type.Unknown({ description: 'absent: use the default in code' })),
  reason: Type.String(),
  variant: Type.Optional(Type.String()),
  metadata: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
});
const errors = {
  400: OfrepErrorSchema,
  401: OfrepErrorSchema,
  403: OfrepErrorSchema,
  413: OfrepErrorSchema,
  415: OfrepErrorSchema,
  429: OfrepErrorSchema,
  500: OfrepServerErrorSchema,
  503: OfrepErrorSchema,
};

/**
 * OpenFeature's remote evaluation protocol (OFREP 0.3): `POST /ofrep/v1/evaluate/flags/{key}` (server providers, one
 * flag a call) and `POST /ofrep/v1/evaluate/flags` (client providers: every flag, ETag / 304, and the stream that says
 * when to fetch again). The project token authenticates; CORS, the rate limit and the failed-auth throttle are those
 * of `/flags`.
 */
export const ofrepRoutes: FastifyPluginAsync<RouteContext<OfrepRouteServices>> = async (app, opts) => {
  const { services, config } = opts;
  app.setErrorHandler(ofrepErrorHandler);

  const authenticate = async (request: FastifyRequest) => {
    const token = tokenOf(request);
    if (!token) throw missingProjectToken();
    // A personal API key is a valid credential, but names no project: it cannot say whose flags to evaluate.
    if (token.startsWith('phx_')) throw permissionDenied('OFREP takes a project token (phc_...), not a personal API key.');
    const project = await services.projects.byToken(token);
    if (!project) throw invalidProjectToken();
    request.project = project;
  };
  const route = {
    onRequest: [echoOriginCors, authenticate],
    bodyLimit: OFREP_BODY_LIMIT_BYTES,
    config: { rateLimit: perProjectRateLimit(config.publicRateLimitPerMinute) },
  };
  // No personal API key: the project token, in `Authorization: Bearer` or `X-API-Key`.
  const security: never[] = [];
  const tags = ['openfeature'];

  for (const path of ['/ofrep/v1/evaluate/flags', '/ofrep/v1/evaluate/flags/:key']) {
    app.options(path, { schema: { hide: true }, config: { rateLimit: false }, onRequest: echoOriginCors }, preflight);
  }

  app.post<{ Params: { key: string } }>(
    '/ofrep/v1/evaluate/flags/:key',
    {
      ...route,
      schema: {
        tags,
        security,
        operationId: 'ofrep_evaluate_flag',
        summary: 'OFREP: evaluate one flag for a context (OpenFeature server providers)',
        params: Type.Object({ key: Type.String() }),
        body: Context,
        response: { 200: Evaluation, 404: OfrepErrorSchema, ...errors },
      },
    },
    async (request) => services.ofrep.evaluateOne(request.project!.id, request.params.key, request.body, request.log),
  );

  app.post(
    '/ofrep/v1/evaluate/flags',
    {
      ...route,
      schema: {
        tags,
        security,
        operationId: 'ofrep_evaluate_flags',
        summary: 'OFREP: evaluate every flag for a context (OpenFeature client providers; ETag / 304)',
        querystring: Type.Object({ flagConfigEtag: Type.Optional(Type.String()), flagConfigLastModified: Type.Optional(Type.String()) }),
        body: Context,
        response: {
          200: Type.Object({ flags: Type.Array(Evaluation), eventStreams: Type.Array(Type.Unknown()) }, { title: 'OfrepBulkEvaluation' }),
          ...errors,
        },
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const token = tokenOf(request)!;
      const eventStreams = [
        { type: 'sse', endpoint: { requestUri: `/flags/stream?token=${encodeURIComponent(token)}` }, inactivityDelaySec: INACTIVITY_DELAY_SEC },
      ];
      const answer = await services.ofrep.evaluateAll(request.project!.id, request.body, { eventStreams });
      void reply.header('etag', answer.etag).header('cache-control', 'private, no-cache').header('access-control-expose-headers', 'ETag');
      if (matches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(answer.body);
    },
  );
};
