import { createHash } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { activityRoutes } from './activity/routes';
import { captureRoutes } from './capture/routes';
import { DEFAULT_SOURCEMAP_MAX_BYTES, type Config } from './config';
import { publicEarlyAccessRoutes } from './early-access/public-routes';
import { enrollmentRoutes } from './early-access/enrollment-routes';
import { earlyAccessRoutes } from './early-access/routes';
import { errorTrackingRoutes } from './error-tracking/routes';
import { sourceMapRoutes } from './error-tracking/sourcemaps/routes';
import { eventRoutes } from './events/routes';
import { experimentResultsRoutes } from './experiments/results-routes';
import { experimentRoutes } from './experiments/routes';
import { featureFlagRoutes } from './feature-flags/routes';
import { FlagsEndpoint } from './flag-evaluation/endpoint';
import { flagsRoutes } from './flag-evaluation/routes';
import { AuthFailures, throttleAuthFailures } from './http/auth-failures';
import { registerErrorHandling, sendClientError } from './http/error-handler';
import { ApiError, throttled } from './http/errors';
import { LargeBodySlots } from './http/sdk-body';
import { restJsonParser } from './http/json-body';
import { loggerOptions, RequestLog } from './http/log';
import { registerOpenApi } from './http/openapi';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSessionCookies, sessionToken } from './http/session';
import { personRoutes } from './persons/routes';
import { WebhookDeliveryWorker } from './webhooks/delivery-worker';
import { projectRoutes } from './projects/routes';
import { personalApiKeyRoutes } from './api-keys/routes';
import { userRoutes } from './users/routes';
import type { Services } from './services';
import { staticRoutes } from './static/routes';
import { webhookRoutes } from './webhooks/routes';
import { webRoutes } from './web/routes';

export type AppConfig = Pick<
  Config,
  | 'logLevel'
  | 'bodyLimit'
  | 'apiRateLimitPerMinute'
  | 'trustProxy'
  | 'sdkBodyLimit'
  | 'publicRateLimitPerMinute'
  | 'captureBatchBodyLimit'
  | 'ingestMaxPendingEvents'
  | 'eventMaxBytes'
  | 'sdkMaxConcurrentLargeBodies'
  | 'authFailureLimitPerMinute'
  | 'headersTimeoutMs'
  | 'requestTimeoutMs'
  | 'keepAliveTimeoutMs'
  | 'connectionTimeoutMs'
> &
  Partial<Pick<Config, 'webhookAllowPrivate' | 'webhookPollMs' | 'webhookRetryBaseMs' | 'sourcemapMaxBytes' | 'runsJobs'>> & {
    /** Where `/static/` files are read from; default the installed service-js package's dist/static (tests use their own). */
    staticDir?: string;
    /** Where the built web app (index.html, assets/) is read from; default the server package's web-dist/ (tests use their own). */
    webDir?: string;
    /** COOKIE_SECURE: the session cookie is Secure on every response, not only on https requests. */
    cookieSecure?: boolean;
  };

const trustAll = () => true;

/** Builds the service: every route, the error handler, rate limits and the OpenAPI document. No listen. */
export async function buildApp(config: AppConfig, services: Services): Promise<FastifyInstance> {
  // `POST /flags` and `/decide` go to their endpoint before Fastify routes anything (see FlagsEndpoint); it is made below.
  const frontDoor: { flags?: FlagsEndpoint } = {};
  const clientIp = (request: IncomingMessage) => (config.trustProxy ? proxyAddr(request, trustAll) : (request.socket.remoteAddress ?? ''));
  const app = Fastify({
    // The server Fastify would make, with slow clients cut off (once the app listens; Node checks the headers and
    // request timeouts every second at most), and the front door of `/flags`.
    serverFactory: (handler) => {
      const server = http.createServer(
        { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs) },
        (request, response) => {
          const route = frontDoor.flags && FlagsEndpoint.routeOf(request.method, request.url);
          if (route) frontDoor.flags!.handle(request, response, route.path, route.query, clientIp(request));
          else handler(request, response);
        },
      );
      server.keepAliveTimeout = config.keepAliveTimeoutMs;
      server.requestTimeout = config.requestTimeoutMs;
      server.setTimeout(config.connectionTimeoutMs);
      return server;
    },
    logger: config.logLevel === 'silent' ? false : loggerOptions(config.logLevel),
    logController: new RequestLog(),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler: sendClientError,
    // Errors raised before routing (a malformed URL, say) get the same JSON body as every other error.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(new ApiError(400, 'invalid_request', 'bad_request', error.message).body());
    },
    ajv: { customOptions: { verbose: true, removeAdditional: true, coerceTypes: 'array', useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('apiKey', null);
  app.decorateRequest('project', null);
  registerErrorHandling(app);
  // Accepted events are committed before the app (and then its database) closes.
  app.addHook('onClose', () => services.ingest.close());
  // Regrouping after a source map upload stops between two steps; a later upload of the release runs it again.
  app.addHook('onClose', () => services.errorTracking.close());
  // The webhook outbox is sent while the app runs; attempts under way are cut short on close and retried at the next start.
  const webhookWorker = new WebhookDeliveryWorker(services.db, {
    allowPrivate: config.webhookAllowPrivate ?? false,
    pollMs: config.webhookPollMs ?? 1000,
    retryBaseMs: config.webhookRetryBaseMs ?? 30_000,
    log: app.log,
  });
  // On SQLite with several workers one of them sends (`runsJobs`); on PostgreSQL every worker shares the work.
  if (config.runsJobs !== false) {
    app.addHook('onReady', async () => webhookWorker.start());
    app.addHook('onClose', () => webhookWorker.stop());
  }
  // A full disk is told as it starts and as it ends, not in a line for every write it refuses.
  const { db } = services;
  const unwatchDisk = db.disk.onChange((full) => {
    if (full) app.log.error(`The disk of the database (${db.location}) is full: writes are refused with 503 until there is room again.`);
    else app.log.info(`The disk of the database (${db.location}) has room again: writes are stored.`);
  });
  app.addHook('onClose', async () => unwatchDisk());
  // The REST API takes JSON only; ingestion routes add their own parsers in their own scope.
  app.removeContentTypeParser('text/plain');
  restJsonParser(app);

  await registerOpenApi(app);

  registerSecurityHeaders(app);
  await registerSessionCookies(app, { cookieSecure: config.cookieSecure });
  const authFailures = new AuthFailures(config.authFailureLimitPerMinute);
  throttleAuthFailures(app, authFailures);
  await app.register(rateLimit, {
    global: true,
    max: config.apiRateLimitPerMinute,
    timeWindow: '1 minute',
    // Per key, per live session (users behind one address do not share a budget), else per address: a made-up
    // cookie counts against its address.
    keyGenerator: async (request) => {
      const auth = request.headers.authorization;
      if (auth) return `key:${createHash('sha256').update(auth).digest('hex')}`;
      const token = sessionToken(request);
      const live = token ? await services.sessions.isLive(token).catch(() => false) : false;
      return live ? `session:${createHash('sha256').update(token!).digest('hex')}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) => throttled(Math.max(1, Math.ceil(context.ttl / 1000))),
  });

  await app.register(projectRoutes, { services });
  await app.register(userRoutes, { services });
  await app.register(personalApiKeyRoutes, { services });
  await app.register(featureFlagRoutes, { services });
  await app.register(earlyAccessRoutes, { services });
  await app.register(experimentRoutes, { services });
  await app.register(experimentResultsRoutes, { services });
  await app.register(enrollmentRoutes, { services });
  await app.register(webhookRoutes, { services });
  await app.register(activityRoutes, { services });
  await app.register(errorTrackingRoutes, { services });
  await app.register(sourceMapRoutes, { services, maxBytes: config.sourcemapMaxBytes ?? DEFAULT_SOURCEMAP_MAX_BYTES });
  // One budget of large SDK bodies for the whole app (issue 10).
  const largeBodies = new LargeBodySlots(config.sdkMaxConcurrentLargeBodies);
  frontDoor.flags = new FlagsEndpoint({
    services,
    maxBodyBytes: config.sdkBodyLimit,
    largeBodies,
    rateLimitPerMinute: config.publicRateLimitPerMinute,
    authFailures,
    log: app.log,
  });
  await app.register(flagsRoutes, { services, rateLimitPerMinute: config.publicRateLimitPerMinute, endpoint: frontDoor.flags });
  await app.register(eventRoutes, { services });
  await app.register(personRoutes, { services });
  await app.register(publicEarlyAccessRoutes, { services, rateLimitPerMinute: config.publicRateLimitPerMinute });
  await app.register(captureRoutes, {
    services,
    largeBodies,
    bodyLimit: config.sdkBodyLimit,
    batchBodyLimit: config.captureBatchBodyLimit,
    rateLimitPerMinute: config.publicRateLimitPerMinute,
    eventMaxBytes: config.eventMaxBytes,
  });
  // The lazy extensions of service-js's script-tag build, for `<script>` tags on any site.
  await app.register(staticRoutes, { dir: config.staticDir });
  // The web app at / (its pages fall back to index.html) and its hashed build files at /assets/.
  await app.register(webRoutes, { dir: config.webDir });

  app.get('/api/schema', { schema: { hide: true } }, async () => app.swagger());
  // Says which dependency is down: 503 while the database does not answer (within its timeout), or its disk is full.
  app.get('/_health', { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) => {
    if (!(await services.db.ping())) return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    if (services.db.disk.isFull) return reply.code(503).send({ status: 'unavailable', database: 'disk_full' });
    return { status: 'ok', database: 'ok' };
  });
  return app;
}
