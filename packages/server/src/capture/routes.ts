import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { echoOriginCors, preflight } from '../http/cors';
import { perProjectRateLimit, projectByToken } from '../http/project-token';
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
      schema: { hide: true },
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
      scope.post(path, options, handler);
      scope.get(path, options, handler);
      scope.options(path, { schema: { hide: true }, config: { rateLimit: false } }, preflight);
    }
  };
  await app.register(routes(['/e', '/i/v0/e', '/capture'], opts.bodyLimit));
  await app.register(routes(['/batch'], opts.batchBodyLimit));
};
