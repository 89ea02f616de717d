import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { storable } from '../db/text';
import { ValidationError } from '../errors';
import { authenticate, requireProject, requireScope } from '../http/auth';
import { echoOriginCors, preflight } from '../http/cors';
import { perProjectRateLimit, projectByToken, projectTokenOf } from '../http/project-token';
import { ErrorSchema, JsonObject } from '../http/schemas';
import { sdkBodyParsers, type LargeBodySlots } from '../http/sdk-body';
import { deepJsonError, isObject } from '../json';
import type { Properties } from '../persons/store';
import type { Services } from '../services';
import type { FlagsRequest } from './service';
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

/** Public SDK flag routes (`/flags`, `/decide`, remote config; CORS open) and the definitions for local evaluation (personal API key, no CORS). */
export const flagsRoutes: FastifyPluginAsync<{ services: Services; maxBodyBytes: number; rateLimitPerMinute: number; largeBodies: LargeBodySlots }> = async (
  app,
  opts,
) => {
  const { services } = opts;
  sdkBodyParsers(app, {
    maxBytes: opts.maxBodyBytes,
    largeBodies: opts.largeBodies,
    tokenField: 'token',
    checkToken: (token) => projectByToken(services.projects, token),
  });

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
    response: { 400: ErrorSchema, 401: ErrorSchema, 413: ErrorSchema, 429: ErrorSchema, 503: ErrorSchema },
  };
  for (const path of ['flags', 'decide'] as const) {
    app.options(`/${path}`, { schema: { hide: true }, config: { rateLimit: false }, onRequest: echoOriginCors }, preflight);
    app.post(
      `/${path}`,
      {
        schema: {
          ...schema,
          summary: path === 'flags' ? 'Evaluate every flag for a distinct id (PostHog /flags?v=2)' : 'Legacy /decide (v=3 legacy, v=4 as /flags v2)',
        },
        onRequest: echoOriginCors,
        // A callback hook, not an async one: it runs on every request.
        preValidation: (request, _reply, done) => {
          projectByToken(services.projects, projectTokenOf(request)).then((project) => {
            request.project = project;
            done();
          }, done);
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
      onRequest: echoOriginCors,
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
    querystring: Type.Object({
      token: Type.Optional(Type.String({ description: 'the project token (required)' })),
      send_cohorts: Type.Optional(Type.String()),
    }),
    response: { 401: ErrorSchema, 403: ErrorSchema },
  };
  // Every server SDK instance polls this; it gets the public budget, not the REST API's, per key.
  const polling = { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: '1 minute' } };
  app.get('/flags/definitions', { schema: definitionsSchema, config: polling }, definitions);
  app.get('/api/feature_flag/local_evaluation', { schema: definitionsSchema, config: polling }, definitions);
};

/** An absent object field (never handed out: callers get a fresh `{}`). */
const NONE: Record<string, unknown> = Object.freeze({});

/** The first of a field's values (its name's, then its alias's) that is not null or undefined, as an object; 400 if not one. */
function objectField(name: string, value: unknown, alias: unknown): Record<string, unknown> {
  const given = value !== undefined && value !== null ? value : alias;
  if (given === undefined || given === null) return NONE;
  if (!isObject(given)) throw new ValidationError(`${name} must be an object.`, name);
  return given;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);

/**
 * Reads a decoded `/flags` body, accepting PostHog's aliases; a bad body is a 400 naming the field. Distinct ids, group
 * types and group keys are read as capture stores them (NUL replaced, cut to 200 characters).
 */
export function parseFlagsRequest(body: Record<string, unknown>): FlagsRequest {
  const tooDeep = deepJsonError(body);
  if (tooDeep) throw tooDeep;
  const distinctId = str(body.distinct_id ?? body.$distinct_id);
  if (distinctId === undefined || distinctId === '') throw new ValidationError('distinct_id is required.', 'distinct_id', 'required');
  const personProperties = objectField('person_properties', body.person_properties, body.$properties);
  const groups: Record<string, string> = {};
  const groupKeys = objectField('groups', body.groups, body.$groups);
  if (groupKeys !== NONE) {
    for (const [type, key] of Object.entries(groupKeys)) {
      const value = str(key);
      if (value !== undefined) groups[storable(type)] = storable(value);
    }
  }
  const groupProperties: Record<string, Properties> = {};
  const groupProps = objectField('group_properties', body.group_properties, body.$group_properties);
  if (groupProps !== NONE) {
    for (const [type, props] of Object.entries(groupProps)) {
      if (!isObject(props)) throw new ValidationError('group_properties must map group types to objects.', 'group_properties');
      groupProperties[storable(type)] = props;
    }
  }
  const keys = body.flag_keys_to_evaluate ?? body.flag_keys;
  if (keys !== undefined && keys !== null && !(Array.isArray(keys) && keys.every((k) => typeof k === 'string'))) {
    throw new ValidationError('flag_keys_to_evaluate must be a list of flag keys.', 'flag_keys_to_evaluate');
  }
  return {
    distinctId: storable(distinctId),
    personProperties: personProperties === NONE ? {} : personProperties,
    groups,
    groupProperties,
    anonDistinctId: str(body.$anon_distinct_id ?? body.anon_distinct_id),
    deviceId: str(body.$device_id ?? body.device_id ?? personProperties.$device_id),
    flagKeys: (keys as string[] | null | undefined) ?? undefined,
    disableFlags: body.disable_flags === true,
  };
}
