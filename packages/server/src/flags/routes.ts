import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authenticate, requireProject, requireScope } from '../http/auth';
import { echoOriginCors, preflight } from '../http/cors';
import { perProjectRateLimit, projectByToken, projectTokenOf } from '../http/project-token';
import { ErrorSchema, JsonObject } from '../http/schemas';
import { sdkBodyParsers } from '../http/sdk-body';
import type { Services } from '../services';
import { parseFlagsRequest } from './service';
import { renderBody, type Shape } from './wire';

/** Config fields posthog-js reads from `/decide` and `/flags?config=true`: the features this service offers. */
const REMOTE_CONFIG = {
  supportedCompression: ['gzip', 'gzip-js'],
  autocapture_opt_out: false,
  capturePerformance: false,
  sessionRecording: false,
  heatmaps: false,
  surveys: false,
  siteApps: [],
  toolbarParams: {},
  isAuthenticated: false,
  config: { enable_collect_everything: true },
};

/** Response shape by path and `v`, as PostHog's flags service chooses it. */
function shapeOf(path: 'flags' | 'decide', v: number): Shape {
  if (path === 'flags') return v >= 2 ? 'v2' : 'legacy';
  if (v >= 4) return 'v2';
  if (v === 3) return 'legacy';
  return v === 2 ? 'enabled-map' : 'enabled-list';
}

const CONFIG_FIELDS = JSON.stringify(REMOTE_CONFIG).slice(1, -1);

const FlagsQuery = Type.Object({
  v: Type.Optional(Type.String()),
  config: Type.Optional(Type.String()),
  compression: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
});

/** Public SDK flag routes (`/flags`, `/decide`, CORS open) and the definitions for local evaluation. */
export const flagsRoutes: FastifyPluginAsync<{ services: Services; maxBodyBytes: number; rateLimitPerMinute: number }> = async (app, opts) => {
  const { services } = opts;
  app.addHook('onRequest', echoOriginCors);
  sdkBodyParsers(app, opts.maxBodyBytes);

  const evaluate = (path: 'flags' | 'decide') => async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as { v?: string; config?: string };
    const flagsRequest = parseFlagsRequest(request.body as Record<string, unknown>); // an object: the schema says so
    const rendered = await services.flagsEvaluation.evaluate(request.project!.id, flagsRequest);
    const v = Number(query.v ?? (path === 'flags' ? 2 : 1));
    const withConfig = path === 'decide' || query.config === 'true' || (query.v === undefined && query.config === undefined);
    return reply.type('application/json; charset=utf-8').send(renderBody(rendered, shapeOf(path, Number.isFinite(v) ? v : 1), withConfig ? CONFIG_FIELDS : ''));
  };

  const schema = {
    tags: ['sdk'],
    security: [],
    querystring: FlagsQuery,
    body: JsonObject,
    response: { 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema },
  };
  for (const path of ['flags', 'decide'] as const) {
    app.options(`/${path}`, { schema: { hide: true }, config: { rateLimit: false } }, preflight);
    app.post(
      `/${path}`,
      {
        schema: { ...schema, summary: path === 'flags' ? 'Evaluate every flag for a distinct id (PostHog /flags?v=2)' : 'Legacy /decide (v=3 legacy, v=4 as /flags v2)' },
        preValidation: async (request) => {
          request.project = await projectByToken(services.projects, projectTokenOf(request));
        },
        config: { rateLimit: perProjectRateLimit(opts.rateLimitPerMinute) },
      },
      evaluate(path),
    );
  }

  // posthog-js reads its remote config from here before anything else (and tolerates its absence).
  app.get<{ Params: { token: string } }>(
    '/array/:token/config',
    {
      schema: {
        tags: ['sdk'],
        summary: 'Remote config for posthog-js: the features this service offers',
        security: [],
        params: Type.Object({ token: Type.String() }),
        response: { 401: ErrorSchema, 429: ErrorSchema },
      },
      preValidation: async (request) => {
        request.project = await projectByToken(services.projects, (request.params as { token: string }).token);
      },
      config: { rateLimit: perProjectRateLimit(opts.rateLimitPerMinute) },
    },
    async (request) => ({ token: request.params.token, hasFeatureFlags: true, ...REMOTE_CONFIG }),
  );

  const definitions = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await authenticate(services.keys, request);
    requireScope(key, 'feature_flag:read');
    const project = await projectByToken(services.projects, projectTokenOf(request));
    requireProject(key, project.id);
    const flags = await services.flagsEvaluation.definitions.get(project.id);
    void reply.header('etag', flags.etag).header('cache-control', 'private, must-revalidate');
    if (request.headers['if-none-match'] === flags.etag) return reply.code(304).send();
    return reply.type('application/json').send(flags.definitionsBody);
  };
  const definitionsSchema = {
    tags: ['feature flags'],
    summary: 'Flag definitions, group type mapping and cohorts for local evaluation (ETag / 304)',
    querystring: Type.Object({ token: Type.Optional(Type.String({ description: 'the project token (required)' })), send_cohorts: Type.Optional(Type.String()) }),
    response: { 401: ErrorSchema, 403: ErrorSchema },
  };
  // Every server SDK instance polls this; it gets the public budget, not the REST API's, per key.
  const polling = { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: '1 minute' } };
  app.get('/flags/definitions', { schema: definitionsSchema, config: polling }, definitions);
  app.get('/api/feature_flag/local_evaluation', { schema: definitionsSchema, config: polling }, definitions);
};
