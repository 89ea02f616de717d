import { createHash } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { AuthFailures, throttleAuthFailures } from './http/auth-failures';
import { registerErrorHandling, sendClientError } from './http/error-handler';
import { ApiError, throttled } from './http/errors';
import { FrontDoor } from './http/front-door';
import { restJsonParser } from './http/json-body';
import { loggerOptions, RequestLog } from './http/log';
import { registerOpenApi } from './http/openapi';
import { LargeBodySlots } from './http/sdk-body';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSessionCookies, sessionToken } from './http/session';
import type { Config } from './config';
import type { RouteContext, RoutesConfig, ServerModule } from './module';
import { MODULES } from './modules';
import type { Services } from './services';

export type AppConfig = RoutesConfig &
  Pick<
    Config,
    | 'logLevel'
    | 'bodyLimit'
    | 'apiRateLimitPerMinute'
    | 'trustProxy'
    | 'ingestMaxPendingEvents'
    | 'sdkMaxConcurrentLargeBodies'
    | 'authFailureLimitPerMinute'
    | 'headersTimeoutMs'
    | 'requestTimeoutMs'
    | 'keepAliveTimeoutMs'
    | 'connectionTimeoutMs'
  > &
  Partial<Pick<Config, 'runsJobs'>> & {
    /** COOKIE_SECURE: the session cookie is Secure on every response, not only on https requests. */
    cookieSecure?: boolean;
  };

/** Every module, each part of it given the services. */
const modules: readonly ServerModule<Services>[] = MODULES;

const trustAll = () => true;

/** Builds the service: every module's routes and jobs, the error handler, rate limits and the OpenAPI document. No listen. */
export async function buildApp(config: AppConfig, services: Services): Promise<FastifyInstance> {
  // Routes answered before Fastify routes anything (`POST /flags`), which the modules register.
  const frontDoor = new FrontDoor();
  const clientIp = (request: IncomingMessage) => (config.trustProxy ? proxyAddr(request, trustAll) : (request.socket.remoteAddress ?? ''));
  const app = Fastify({
    // The server Fastify would make, with slow clients cut off (once the app listens; Node checks the headers and
    // request timeouts every second at most), and the front door of `/flags`.
    serverFactory: (handler) => {
      const server = http.createServer(
        { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs) },
        (request, response) => {
          if (!frontDoor.answer(request, response, clientIp)) handler(request, response);
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
  const authFailures = new AuthFailures(config.authFailureLimitPerMinute);
  // One budget of large SDK bodies for the whole app.
  const largeBodies = new LargeBodySlots(config.sdkMaxConcurrentLargeBodies);
  const shared: RouteContext<Services> = { services, config, largeBodies, authFailures, frontDoor, log: app.log };
  // What the modules must finish (accepted events committed) before the app, and then its database, closes.
  for (const { close } of modules) if (close) app.addHook('onClose', () => close(services));
  // On SQLite with several workers one of them runs the jobs (`runsJobs`); on PostgreSQL every worker shares the work.
  if (config.runsJobs !== false) {
    for (const job of modules.flatMap((module) => module.jobs?.(shared) ?? [])) {
      app.addHook('onReady', async () => job.start());
      app.addHook('onClose', async () => job.stop());
    }
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

  for (const { routes } of modules) if (routes) await app.register(routes, shared);

  app.get('/api/schema', { schema: { hide: true } }, async () => app.swagger());
  // Says which dependency is down: 503 while the database does not answer (within its timeout), or its disk is full.
  app.get('/_health', { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) => {
    if (!(await services.db.ping())) return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    if (services.db.disk.isFull) return reply.code(503).send({ status: 'unavailable', database: 'disk_full' });
    return { status: 'ok', database: 'ok' };
  });
  return app;
}
