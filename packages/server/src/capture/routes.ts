import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { echoOriginCors, preflight } from '../http/cors';
import { perProjectRateLimit, projectByToken } from '../http/project-token';
import { ErrorSchema } from '../http/schemas';
import { decodeSdkBody, sdkBodyParsers } from '../http/sdk-body';
import type { Services } from '../services';
import { IngestService, captureTokenOf, normalizeEvents } from './service';

export interface CaptureOptions {
  services: Services;
  /** Largest body on /e/, /i/v0/e/ and /capture/ (compressed or not), in bytes. */
  bodyLimit: number;
  /** Largest body on /batch/, in bytes. */
  batchBodyLimit: number;
  rateLimitPerMinute: number;
  maxPendingEvents: number;
}

type Query = Record<string, string | undefined>;

const tokenQuery = {
  token: Type.Optional(Type.String({ description: 'the project token (or `api_key`; also accepted in the body)' })),
  compression: Type.Optional(Type.String({ description: '`gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes' })),
  beacon: Type.Optional(Type.String({ description: '`1`: answer 204 instead of 200' })),
};
const responses = { 200: Type.Object({ status: Type.Literal(1) }), 400: ErrorSchema, 401: ErrorSchema, 413: ErrorSchema, 429: ErrorSchema, 503: ErrorSchema };
const postSchema = {
  tags: ['sdk'],
  summary: 'Capture events (PostHog capture protocol); 200 once they are stored',
  security: [],
  querystring: Type.Object(tokenQuery),
  body: Type.Unknown({ description: 'one event, a list of events, or `{api_key, batch: [...]}`; JSON, gzip, base64 or a `data=` form' }),
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
export const captureRoutes: FastifyPluginAsync<CaptureOptions> = async (app, opts) => {
  const { services } = opts;
  const ingest = new IngestService(services.db, services.changes, { maxPendingEvents: opts.maxPendingEvents });
  app.addHook('onClose', () => ingest.close());
  app.addHook('onRequest', echoOriginCors);

  const routes = (paths: string[], bodyLimit: number) => async (scope: FastifyInstance) => {
    sdkBodyParsers(scope, bodyLimit);
    const options = {
      preValidation: async (request: FastifyRequest) => {
        const query = request.query as Query;
        if (request.method === 'GET' && query.data) {
          // A query string turns "+" into a space; base64 has no spaces, so they were plus signs.
          request.body = await decodeSdkBody(request, Buffer.from(query.data.replaceAll(' ', '+')), bodyLimit);
        }
        request.project = await projectByToken(services.projects, captureTokenOf(request.body, query));
      },
      config: { rateLimit: perProjectRateLimit(opts.rateLimitPerMinute) },
    };
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as Query;
      await ingest.capture(request.project!.id, normalizeEvents(request.body, query));
      if (query.beacon === '1') return reply.code(204).send();
      return { status: 1 };
    };
    for (const path of paths) {
      scope.post(path, { ...options, schema: postSchema }, handler);
      scope.get(path, { ...options, schema: getSchema }, handler);
      scope.options(path, { schema: { hide: true }, config: { rateLimit: false } }, preflight);
    }
  };
  await app.register(routes(['/e', '/i/v0/e', '/capture'], opts.bodyLimit));
  await app.register(routes(['/batch'], opts.batchBodyLimit));
};
