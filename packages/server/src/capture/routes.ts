import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { echoOriginCors, preflight } from '../http/cors';
import { apiErrorOf } from '../http/errors';
import { perProjectRateLimit, projectByToken, type ProjectsByToken } from '../http/project-token';
import { ErrorSchema } from '../http/schemas';
import { decodeSdkBody, sdkBodyParsers } from '../http/sdk-body';
import type { RouteContext } from '../module';
import { captureTokenOf, eventsOf, type CaptureBody } from './body';
import type { IngestService } from './ingest';

type Query = Record<string, string | undefined>;

/** The largest event `/i/v0/ai/batch/` takes, serialized: LLM events carry whole prompts and completions. */
export const AI_EVENT_MAX_BYTES = 8 * 1024 * 1024;

const tokenQuery = {
  token: Type.Optional(Type.String({ description: 'the project token (or `api_key`; also accepted in the body)' })),
  compression: Type.Optional(Type.String({ description: '`gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes' })),
  beacon: Type.Optional(Type.String({ description: '`1`: answer 204 instead of 200' })),
};
const Stored = Type.Object({
  status: Type.Literal(1),
  refused: Type.Optional(Type.Array(ErrorSchema, { description: 'events not stored, each with why (`attr`: `batch__<index>`); only when there are some' })),
});
const responses = { 200: Stored, 400: ErrorSchema, 401: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema, 429: ErrorSchema, 503: ErrorSchema };
const postSchema = {
  tags: ['sdk'],
  summary: 'Capture events (PostHog capture protocol); 200 once they are stored',
  security: [],
  querystring: Type.Object(tokenQuery),
  body: Type.Unknown({
    description:
      'one event, a list of events, or `{api_key, batch: [...]}`; JSON, gzip, base64 or a `data=` form, in a `Content-Encoding` (gzip, deflate, deflate-raw, br) or none',
  }),
  response: responses,
};
const getSchema = {
  tags: ['sdk'],
  summary: 'Capture events sent in the query string',
  security: [],
  querystring: Type.Object({ ...tokenQuery, data: Type.Optional(Type.String({ description: 'the events, base64 (or base64 of gzip)' })) }),
  response: responses,
};

/**
 * Event ingestion, PostHog's capture protocol: `POST /e/`, `/i/v0/e/`, `/capture/` and `/batch/` take one
 * event, a list, or `{batch: [...]}`, as JSON, gzip, base64 or a `data=` form; `GET` takes `?data=`.
 * 200 `{"status": 1}` once the events are committed (204 with `?beacon=1`).
 */
export const captureRoutes: FastifyPluginAsync<RouteContext<{ ingest: IngestService; projects: ProjectsByToken }>> = async (app, opts) => {
  const { services, config } = opts;
  app.addHook('onRequest', echoOriginCors);

  const routes =
    (paths: string[], bodyLimit: number, eventMaxBytes = config.eventMaxBytes) =>
    async (scope: FastifyInstance) => {
      const bodies = {
        maxBytes: bodyLimit,
        largeBodies: opts.largeBodies,
        tokenField: 'api_key' as const,
        checkToken: (token: string) => projectByToken(services.projects, token),
      };
      sdkBodyParsers(scope, bodies);
      const options = {
        preValidation: async (request: FastifyRequest) => {
          const query = request.query as Query;
          // Before validation: the query is as sent (`data` twice is an array, which the schema then refuses).
          if (request.method === 'GET' && typeof query.data === 'string' && query.data) {
            // A query string turns "+" into a space; base64 has no spaces, so they were plus signs.
            request.body = await decodeSdkBody(request, Buffer.from(query.data.replaceAll(' ', '+')), bodies);
          }
          // Read once: the token lookup here and normalizing in the handler both use the events it finds.
          request.body = eventsOf(request.body);
          request.project = await projectByToken(services.projects, captureTokenOf(request.body as CaptureBody, query));
        },
        config: { rateLimit: perProjectRateLimit(config.publicRateLimitPerMinute) },
      };
      const handler = async (request: FastifyRequest, reply: FastifyReply) => {
        const query = request.query as Query;
        const { events, refused } = await services.ingest.normalize(request.body as CaptureBody, query, eventMaxBytes);
        // The decoded body is dropped here, so that a request waiting for its commit holds only its events as they will be
        // stored: the garbage collector then copies less meanwhile (a batch of exceptions decodes to several times its
        // JSON's size).
        request.body = undefined;
        // Nothing to store: the request is refused as a whole, for its first event's reason.
        if (!events.length) throw refused[0]!;
        await services.ingest.capture(request.project!.id, events);
        if (refused.length)
          request.log.warn({ refused: refused.map((e) => e.detail) }, 'capture: refused events (too large or too deeply nested) were dropped');
        if (query.beacon === '1') return reply.code(204).send();
        return refused.length ? { status: 1, refused: refused.map((e) => apiErrorOf(e).body()) } : { status: 1 };
      };
      for (const path of paths) {
        scope.post(path, { ...options, schema: postSchema }, handler);
        scope.get(path, { ...options, schema: getSchema }, handler);
        scope.options(path, { schema: { hide: true }, config: { rateLimit: false } }, preflight);
      }
    };
  // Bodies of SDK_BODY_LIMIT_BYTES, and of CAPTURE_BATCH_BODY_LIMIT_BYTES on /batch/; events of EVENT_MAX_BYTES serialized.
  await app.register(routes(['/e', '/i/v0/e', '/capture'], config.sdkBodyLimit));
  await app.register(routes(['/batch'], config.captureBatchBodyLimit));
  // `@posthog/ai`'s full-capture lane: the same envelope, with events up to 8 MiB (prompts and completions whole).
  const aiEventMaxBytes = Math.max(config.eventMaxBytes, AI_EVENT_MAX_BYTES);
  await app.register(routes(['/i/v0/ai/batch'], Math.max(config.captureBatchBodyLimit, aiEventMaxBytes), aiEventMaxBytes));
};
