import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authenticate, requireProject, requireScope, type AuthLookups } from '../http/auth';
import { echoOriginCors, preflight } from '../http/cors';
import { perProjectRateLimit, projectByToken, projectTokenOf, type ProjectsByToken } from '../http/project-token';
import { ErrorSchema, JsonObject } from '../http/schemas';
import type { RouteContext } from '../module';
import { FLAGS_QUERY_FIELDS, FlagsEndpoint, REMOTE_CONFIG, type RecordingConfigs, type RunningSurveys } from './endpoint';
import type { FlagsService } from './service';

const FlagsQuery = Type.Object(Object.fromEntries(FLAGS_QUERY_FIELDS.map((field) => [field, Type.Optional(Type.String())])));

type FlagsRouteServices = Pick<AuthLookups, 'keys'> & {
  projects: ProjectsByToken;
  flagsEvaluation: FlagsService;
  surveys: RunningSurveys;
  replay: RecordingConfigs;
};

/**
 * Public SDK flag routes (`/flags`, `/decide`, remote config; CORS open) and the definitions for local evaluation
 * (personal API key, no CORS). `POST /flags` and `/decide` are answered by the `FlagsEndpoint` at the app's front door.
 */
export const flagsRoutes: FastifyPluginAsync<RouteContext<FlagsRouteServices>> = async (app, opts) => {
  const { services, config, frontDoor } = opts;
  const rateLimitPerMinute = config.publicRateLimitPerMinute;
  const endpoint = new FlagsEndpoint({
    services,
    maxBodyBytes: config.sdkBodyLimit,
    largeBodies: opts.largeBodies,
    rateLimitPerMinute,
    authFailures: opts.authFailures,
    log: opts.log,
  });

  const schema = {
    tags: ['sdk'],
    security: [],
    querystring: FlagsQuery,
    body: JsonObject,
    response: { 400: ErrorSchema, 401: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema, 429: ErrorSchema, 503: ErrorSchema },
  };
  for (const path of ['flags', 'decide'] as const) {
    app.options(`/${path}`, { schema: { hide: true }, config: { rateLimit: false }, onRequest: echoOriginCors }, preflight);
    const summary = path === 'flags' ? 'Evaluate every flag for a distinct id (PostHog /flags?v=2)' : 'Legacy /decide (v=3 legacy, v=4 as /flags v2)';
    frontDoor.post(app, `/${path}`, { ...schema, summary }, (request, response, query, ip) => endpoint.handle(request, response, path, query, ip));
  }

  // posthog-js reads its remote config before anything else: the npm and full bundles load the script
  // `/array/<token>/config.js` (a 404 there is an error in the console of every page), then, if it set no config, the
  // JSON `/array/<token>/config`.
  const remoteConfig = async (token: string, projectId: number) => {
    const [surveys, recording] = await Promise.all([services.surveys.anyRunning(projectId), services.replay.remoteConfig(projectId)]);
    return {
      token,
      hasFeatureFlags: true,
      ...REMOTE_CONFIG,
      // posthog-js loads its recorder (`/static/lazy-recorder.js`) only when `sessionRecording` is an object.
      ...recording,
      // posthog-js loads its surveys (the list, then the script) only when this says some run.
      surveys,
    };
  };
  const configRoute = {
    onRequest: echoOriginCors,
    preValidation: async (request: FastifyRequest) => {
      request.project = await projectByToken(services.projects, (request.params as { token: string }).token);
    },
    config: { rateLimit: perProjectRateLimit(rateLimitPerMinute) },
  };
  const configSchema = { tags: ['sdk'], security: [], params: Type.Object({ token: Type.String() }) };
  app.get<{ Params: { token: string } }>(
    '/array/:token/config',
    {
      ...configRoute,
      schema: { ...configSchema, summary: 'Remote config for posthog-js: the features this service offers', response: { 401: ErrorSchema, 429: ErrorSchema } },
    },
    async (request) => remoteConfig(request.params.token, request.project!.id),
  );
  // The script PostHog serves: it puts the config (and no site apps) where posthog-js reads it, by project token. The
  // token is a known project's (an unknown one is a 401), written as a JSON string.
  app.get<{ Params: { token: string } }>(
    '/array/:token/config.js',
    {
      ...configRoute,
      schema: {
        ...configSchema,
        summary: 'Remote config for posthog-js as a script (sets window._POSTHOG_REMOTE_CONFIG[token])',
        response: { 200: Type.String({ description: 'JavaScript' }), 401: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const entry = JSON.stringify({ config: await remoteConfig(token, request.project!.id), siteApps: [] });
      return reply
        .type('text/javascript; charset=utf-8')
        .send(`(function(){var c=window._POSTHOG_REMOTE_CONFIG=window._POSTHOG_REMOTE_CONFIG||{};c[${JSON.stringify(token)}]=${entry}})();\n`);
    },
  );

  const definitions = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await authenticate(services.keys, request);
    requireScope(key, 'feature_flag:read');
    const project = await projectByToken(services.projects, projectTokenOf(undefined, request.query as Record<string, unknown>));
    requireProject(key, project.id);
    const flags = await services.flagsEvaluation.definitions.get(project.id);
    void reply.header('etag', flags.etag).header('cache-control', 'private, must-revalidate');
    if (request.headers['if-none-match'] === flags.etag) return reply.code(304).send();
    return reply.type('application/json').send(flags.definitionsBody);
  };
  const definitionsSchema = {
    tags: ['feature flags'],
    summary: 'Flag definitions, group type mapping and cohorts for local evaluation (ETag / 304)',
    querystring: Type.Object({
      token: Type.Optional(Type.String({ description: 'the project token (required)' })),
      send_cohorts: Type.Optional(Type.String()),
    }),
    response: { 401: ErrorSchema, 403: ErrorSchema },
  };
  // Every server SDK instance polls this; it gets the public budget, not the REST API's, per key.
  const polling = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };
  app.get('/flags/definitions', { schema: definitionsSchema, config: polling }, definitions);
  app.get('/api/feature_flag/local_evaluation', { schema: definitionsSchema, config: polling }, definitions);
};
