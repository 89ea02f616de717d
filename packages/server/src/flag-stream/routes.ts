import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authenticate, requireProject, requireScope, type AuthLookups } from '../http/auth';
import { echoOriginCors, preflight } from '../http/cors';
import { ApiError, throttled } from '../http/errors';
import { perProjectRateLimit, projectByToken, projectTokenOf, type ProjectsByToken } from '../http/project-token';
import { ErrorSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import type { FlagStreamHub } from './hub';

type FlagStreamRouteServices = Pick<AuthLookups, 'keys'> & { projects: ProjectsByToken; flagStream: FlagStreamHub };

/** What a client over the limit waits before it tries again, in seconds: streams of a project end as its pages close. */
const FULL_RETRY_SECONDS = 30;

const missingToken = () => new ApiError(400, 'validation_error', 'required', 'The project token is required: /flags/stream?token=<project token>.', 'token');

/**
 * `GET /flags/stream`: server-sent events telling a project's clients that its flags' answers may have changed (OFREP's
 * `refetchEvaluation` notice), so that they fetch them again at once instead of at their next poll. Browsers open it
 * with the project token (CORS as `/flags`); server SDKs that evaluate locally add `Authorization: Bearer` with a
 * personal API key that reads flags, as `/flags/definitions` takes.
 */
export const flagStreamRoutes: FastifyPluginAsync<RouteContext<FlagStreamRouteServices>> = async (app, opts) => {
  const { services, config } = opts;
  const hub = services.flagStream;

  const projectOf = async (request: FastifyRequest) => {
    const token = projectTokenOf(undefined, request.query as Record<string, unknown>);
    if (request.headers.authorization !== undefined) {
      const key = await authenticate(services.keys, request);
      requireScope(key, 'feature_flag:read');
      if (!token) throw missingToken();
      const project = await projectByToken(services.projects, token);
      requireProject(key, project.id);
      return project;
    }
    if (!token) throw missingToken();
    return projectByToken(services.projects, token);
  };

  // Before the server stops listening: it waits for open responses, and a stream stays open until ended.
  app.addHook('preClose', async () => hub.close());

  app.options('/flags/stream', { schema: { hide: true }, config: { rateLimit: false }, onRequest: echoOriginCors }, preflight);
  app.get(
    '/flags/stream',
    {
      onRequest: echoOriginCors,
      preValidation: async (request) => {
        request.project = await projectOf(request);
      },
      // Opening a stream counts as an SDK request of its project; how many stay open is the hub's limit.
      config: { rateLimit: perProjectRateLimit(config.publicRateLimitPerMinute) },
      schema: {
        tags: ['sdk'],
        summary: 'Server-sent events: a refetchEvaluation notice whenever a change may change the project’s flag answers',
        security: [],
        querystring: Type.Object({ token: Type.Optional(Type.String({ description: 'the project token (required)' })) }),
        response: {
          200: Type.String({ description: 'text/event-stream: `: connected`, then `refetchEvaluation` notices and a `: ping` comment every 25 s' }),
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          429: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const projectId = request.project!.id;
      if (!hub.hasRoom(projectId)) {
        throw throttled(FULL_RETRY_SECONDS, `This project has ${hub.maxPerProject} open streams, the most it may have (STREAM_MAX_CONNECTIONS_PER_TOKEN).`);
      }
      reply.hijack();
      const response = reply.raw;
      // A stream stays quiet between heartbeats longer than an idle connection may (CONNECTION_TIMEOUT_MS).
      request.raw.socket.setTimeout(0);
      // The headers hooks gave the reply (the rate limit's); those set on the response itself (CORS, helmet's) stay.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) response.setHeader(name, value);
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // nginx would otherwise hold the notices in its buffer.
        'x-accel-buffering': 'no',
      });
      const lastEventId = request.headers['last-event-id'];
      hub.add(projectId, response, typeof lastEventId === 'string' ? lastEventId : undefined);
    },
  );
};
