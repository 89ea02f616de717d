import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { parse as parseQuery } from 'fast-querystring';
import type { AuthFailures } from '../http/auth-failures';
import { corsHeaders, SDK_SECURITY_HEADERS } from '../http/cors';
import { logsWithRequest, toApiError } from '../http/error-handler';
import { logRequest } from '../http/log';
import { projectByToken, projectTokenOf, type ProjectsByToken } from '../http/project-token';
import { FixedWindowLimit } from '../http/rate-limit';
import { bodyLeftUnread, checkBeforeBody, readSdkBody, type BodyRequest, type LargeBodySlots, type SdkBodyOptions } from '../http/sdk-body';
import { ValidationError } from '../errors';
import { isObject } from '../json';
import { parseFlagsRequest } from './request';
import type { FlagsService } from './service';
import { asciiJson, renderBody, type Shape } from './wire';

export type FlagsPath = 'flags' | 'decide';

/** Config fields posthog-js reads from `/decide` and `/flags?config=true`: the features this service offers. */
export const REMOTE_CONFIG = {
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

/** Whether a project has a survey running (the surveys module answers it): the remote config's `surveys`. */
export interface RunningSurveys {
  anyRunning(projectId: number): Promise<boolean>;
}

/** What a project's recording settings set in the remote config (the session-replay module answers it). */
export interface ReplayConfigFields {
  sessionRecording: object | false;
  capturePerformance: object | false;
}

/** A project's recording config (the session-replay module's `replay`): the same object until its settings change. */
export interface RecordingConfigs {
  remoteConfig(projectId: number): Promise<ReplayConfigFields>;
}

/** The remote config's fields as a JSON object's inside, ASCII only; built once for each recording config and `surveys`. */
const fieldsOf = (replay: ReplayConfigFields, surveys: boolean) => asciiJson({ ...REMOTE_CONFIG, ...replay, surveys }).slice(1, -1);
const configFields = new WeakMap<ReplayConfigFields, [string, string]>();

/** The remote config's fields for a project's recording config and whether a survey runs. */
export function remoteConfigFields(replay: ReplayConfigFields, surveys: boolean): string {
  let built = configFields.get(replay);
  if (!built) configFields.set(replay, (built = [fieldsOf(replay, false), fieldsOf(replay, true)]));
  return built[surveys ? 1 : 0];
}

/** The query fields of `/flags` (each a string when given; anything else is ignored). */
export const FLAGS_QUERY_FIELDS = ['v', 'config', 'compression', 'token', 'only_evaluate_survey_feature_flags'] as const;

/** Response shape by path and `v`, as PostHog's flags service chooses it. */
function shapeOf(path: FlagsPath, v: number): Shape {
  if (path === 'flags') return v >= 2 ? 'v2' : 'legacy';
  if (v >= 4) return 'v2';
  if (v === 3) return 'legacy';
  return v === 2 ? 'enabled-map' : 'enabled-list';
}

const JSON_TYPE = 'application/json; charset=utf-8';

export interface FlagsEndpointOptions {
  services: { projects: ProjectsByToken; flagsEvaluation: FlagsService; surveys: RunningSurveys; replay: RecordingConfigs };
  /** Largest body, on the wire and decoded (SDK_BODY_LIMIT_BYTES). */
  maxBodyBytes: number;
  largeBodies: LargeBodySlots;
  /** Requests a minute per project on each of `/flags` and `/decide` (PUBLIC_RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute: number;
  authFailures: AuthFailures;
  log: FastifyBaseLogger;
}

/**
 * `POST /flags` and `/decide`, the request every page load of every user of our users makes, answered on Node's own
 * request and response at the app's front door (`http/front-door.ts`), however the request arrives. It does what the
 * app's hooks and Fastify's lifecycle would, in their order, with the same answers and errors: security and CORS
 * headers, the failed-auth throttle, the SDK body checks and decoding, the project by its token, the schema's checks
 * of the body and query, the per-project rate limit, then evaluation; and one log line per request.
 */
export class FlagsEndpoint {
  private readonly limits: Record<FlagsPath, FixedWindowLimit>;
  private readonly bodies: SdkBodyOptions;

  constructor(private readonly options: FlagsEndpointOptions) {
    this.limits = { flags: new FixedWindowLimit(options.rateLimitPerMinute), decide: new FixedWindowLimit(options.rateLimitPerMinute) };
    this.bodies = {
      maxBytes: options.maxBodyBytes,
      largeBodies: options.largeBodies,
      tokenField: 'token',
      checkToken: (token) => projectByToken(options.services.projects, token),
    };
  }

  /** Answers one request; `ip` is the client's address as the app sees it (with TRUST_PROXY, from X-Forwarded-For). */
  handle(request: IncomingMessage, response: ServerResponse, path: FlagsPath, queryString: string, ip: string): void {
    const started = performance.now();
    // The answer's headers, sent at once by `writeHead` (a header an error sets with `setHeader` joins them).
    const headers: Array<string | number> = [...SDK_SECURITY_HEADERS, ...corsHeaders(request.headers)];
    // Every body is ASCII (`renderBody`, `asciiJson`): its length is its bytes', and no UTF-8 encoding is needed.
    const done = (status: number, body: string, error?: unknown) => {
      if (!response.headersSent) {
        headers.push('content-type', JSON_TYPE, 'content-length', body.length);
        response.writeHead(status, headers);
      }
      response.end(body, 'latin1');
      this.options.authFailures.answered(ip, status);
      if (error !== undefined) this.logError(error, status);
      logRequest(this.options.log, null, 'POST', request.url ?? '', status, performance.now() - started);
    };
    const fail = (error: unknown) => {
      const apiError = toApiError(error as Error);
      if (!apiError) return done(500, JSON.stringify({ type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null }), error);
      for (const [name, value] of Object.entries(apiError.headers)) headers.push(name, value);
      done(apiError.statusCode, asciiJson(apiError.body()), logsWithRequest(apiError, error) ? error : undefined);
    };
    this.answer(request, response, headers, path, queryString, ip)
      .then((body) => done(200, body), fail)
      // Writing the answer failed: nothing is left to tell the client, and the process goes on.
      .catch((error: unknown) => this.options.log.error({ err: error }, 'unhandled error'));
  }

  private async answer(
    request: IncomingMessage,
    response: ServerResponse,
    headers: Array<string | number>,
    path: FlagsPath,
    queryString: string,
    ip: string,
  ): Promise<string> {
    const throttledNow = this.options.authFailures.throttled(ip);
    if (throttledNow) throw throttledNow;
    const query = queryString === '' ? {} : (parseQuery(queryString) as Record<string, unknown>);
    const body = await this.read(request, { headers: request.headers, query, response });
    const project = await projectByToken(this.options.services.projects, projectTokenOf(body, query));
    // What the routes' schema checks (body first, then the query), then the rate limit, as Fastify orders them.
    if (!isObject(body)) throw new ValidationError('Invalid data. Expected a dictionary.', null);
    for (const field of FLAGS_QUERY_FIELDS) {
      if (Array.isArray(query[field])) throw new ValidationError('Not a valid string.', field);
    }
    const limited = this.limits[path].take(`project:${project.id}`, headers);
    if (limited) throw limited;
    const flagsRequest = parseFlagsRequest(body);
    if (query.only_evaluate_survey_feature_flags === 'true') flagsRequest.onlySurveyFlags = true;
    const rendered = await this.options.services.flagsEvaluation.evaluate(project.id, flagsRequest);
    const version = typeof query.v === 'string' ? Number(query.v) : path === 'flags' ? 2 : 1;
    const withConfig = path === 'decide' || query.config === 'true' || (query.v === undefined && query.config === undefined);
    const config = withConfig ? await this.configFields(project.id) : '';
    return renderBody(rendered, shapeOf(path, Number.isFinite(version) ? version : 1), config);
  }

  private async configFields(projectId: number): Promise<string> {
    const { surveys, replay } = this.options.services;
    const [running, recording] = await Promise.all([surveys.anyRunning(projectId), replay.remoteConfig(projectId)]);
    return remoteConfigFields(recording, running);
  }

  /** The decoded body; a body that could not be read whole closes the connection after the answer, as Fastify does. */
  private async read(request: IncomingMessage, body: BodyRequest): Promise<unknown> {
    try {
      await checkBeforeBody(body, this.bodies);
    } catch (error) {
      if (bodyLeftUnread(body, this.bodies)) body.response.setHeader('connection', 'close');
      throw error;
    }
    try {
      return await readSdkBody(request, body, this.bodies);
    } catch (error) {
      body.response.setHeader('connection', 'close');
      throw error;
    }
  }

  private logError(error: unknown, status: number) {
    if (status === 500) this.options.log.error({ err: error }, 'unhandled error');
    else this.options.log.warn({ err: error }, 'database unavailable');
  }
}
