import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { captureRoutes } from './capture/routes';
import type { Config } from './config';
import { publicEarlyAccessRoutes } from './early-access/public-routes';
import { earlyAccessRoutes } from './early-access/routes';
import { eventRoutes } from './events/routes';
import { featureFlagRoutes } from './feature-flags/routes';
import { flagsRoutes } from './flags/routes';
import { registerErrorHandling } from './http/error-handler';
import { ApiError, throttled } from './http/errors';
import { personRoutes } from './persons/routes';
import { projectRoutes } from './projects/routes';
import type { Services } from './services';

export type AppConfig = Pick<
  Config,
  'logLevel' | 'bodyLimit' | 'apiRateLimitPerMinute' | 'trustProxy' | 'sdkBodyLimit' | 'publicRateLimitPerMinute' | 'captureBatchBodyLimit' | 'ingestMaxPendingEvents'
>;

/** Builds the service: every route, the error handler, rate limits and the OpenAPI document. No listen. */
export async function buildApp(config: AppConfig, services: Services): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (a malformed URL, say) get the same JSON body as every other error.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(new ApiError(400, 'invalid_request', 'bad_request', error.message).body());
    },
    ajv: { customOptions: { verbose: true, removeAdditional: true, coerceTypes: 'array', useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('apiKey', null);
  app.decorateRequest('project', null);
  registerErrorHandling(app);
  // The REST API takes JSON only; ingestion routes add their own parsers in their own scope.
  app.removeContentTypeParser('text/plain');

  await app.register(swagger, {
    openapi: {
      info: { title: 'Service API', version: '0.1.0', description: 'Feature flags, early access features and product events.' },
      components: { securitySchemes: { PersonalApiKey: { type: 'http', scheme: 'bearer' } } },
      security: [{ PersonalApiKey: [] }],
    },
  });

  await app.register(rateLimit, {
    global: true,
    max: config.apiRateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => {
      const auth = request.headers.authorization;
      return auth ? `key:${createHash('sha256').update(auth).digest('hex')}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) => throttled(Math.max(1, Math.ceil(context.ttl / 1000))),
  });

  await app.register(projectRoutes, { services });
  await app.register(featureFlagRoutes, { services });
  await app.register(earlyAccessRoutes, { services });
  await app.register(flagsRoutes, { services, maxBodyBytes: config.sdkBodyLimit, rateLimitPerMinute: config.publicRateLimitPerMinute });
  await app.register(eventRoutes, { services });
  await app.register(personRoutes, { services });
  await app.register(publicEarlyAccessRoutes, { services, rateLimitPerMinute: config.publicRateLimitPerMinute });
  await app.register(captureRoutes, {
    services,
    bodyLimit: config.sdkBodyLimit,
    batchBodyLimit: config.captureBatchBodyLimit,
    rateLimitPerMinute: config.publicRateLimitPerMinute,
    maxPendingEvents: config.ingestMaxPendingEvents,
  });

  app.get('/api/schema', { schema: { hide: true } }, async () => app.swagger());
  app.get('/_health', { schema: { hide: true }, config: { rateLimit: false } }, async () => ({ status: 'ok' }));
  return app;
}
