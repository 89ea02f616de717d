import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { captureTokenOf, eventsOf, type CaptureBody } from '../capture/body';
import { DEFAULT_REPLAY_BODY_LIMIT } from '../config';
import { storable } from '../db/text';
import { ValidationError, type DomainError } from '../errors';
import { echoOriginCors, preflight } from '../http/cors';
import { apiErrorOf } from '../http/errors';
import { perProjectRateLimit, projectByToken, type ProjectsByToken } from '../http/project-token';
import { ErrorSchema } from '../http/schemas';
import { sdkBodyParsers } from '../http/sdk-body';
import { isObject } from '../json';
import type { RouteContext } from '../module';
import { decodeSnapshots } from './decode';
import type { ReplayStorage, SnapshotBatch } from './storage';

type Query = Record<string, string | undefined>;

const Stored = Type.Object({
  status: Type.Literal(1),
  refused: Type.Optional(Type.Array(ErrorSchema, { description: 'events not stored, each with why (`attr`: `batch__<index>`); only when there are some' })),
});
const schema = {
  tags: ['sdk'],
  summary: 'Session recordings (posthog-js `$snapshot` events); 200 once they are stored',
  security: [],
  querystring: Type.Object({
    token: Type.Optional(Type.String({ description: 'the project token (or `api_key`; also accepted in the body)' })),
    compression: Type.Optional(Type.String({ description: '`gzip`, `gzip-js` or `base64`; gzip is also detected by its magic bytes' })),
    beacon: Type.Optional(Type.String({ description: '`1`: answer 204 instead of 200' })),
  }),
  body: Type.Unknown({
    description:
      '`$snapshot` events (one, a list, or `{api_key, batch: [...]}`), each with `properties.$snapshot_data` (a list of rrweb events, ' +
      "per-event compressed ones `cv: '2024-10'` too), `$session_id`, `$window_id`; JSON, gzip, base64 or a `data=` form",
  }),
  response: { 200: Stored, 400: ErrorSchema, 401: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema, 429: ErrorSchema, 503: ErrorSchema },
};

/** A `$snapshot` event of the body, checked, its rrweb events not decoded yet. */
interface SnapshotEvent {
  batchId: string;
  sessionId: string;
  windowId: string;
  distinctId: string;
  data: unknown[];
  currentUrl: string | undefined;
}

const nonEmpty = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The `i`th event of the body as a `$snapshot` event, or why it is refused. */
function snapshotEventOf(item: unknown, i: number): SnapshotEvent | DomainError {
  const refuse = (detail: string, field?: string) => new ValidationError(`Event ${i} ${detail}`, field ? `batch__${i}__${field}` : `batch__${i}`);
  if (!isObject(item)) return refuse('is not an event object.');
  if (item.event !== '$snapshot') return refuse('is not a $snapshot event: /s/ takes session recordings; send other events to /e/.', 'event');
  const properties = isObject(item.properties) ? item.properties : {};
  const sessionId = nonEmpty(properties.$session_id);
  if (!sessionId) return refuse('has no $session_id.', 'properties__$session_id');
  const rawId = item.distinct_id ?? properties.distinct_id;
  if (typeof rawId !== 'string' && typeof rawId !== 'number') return refuse('has no distinct_id.', 'distinct_id');
  const data = properties.$snapshot_data;
  // Old posthog-js versions sent one rrweb event per `$snapshot`, not a list.
  const list = Array.isArray(data) ? data : isObject(data) ? [data] : undefined;
  if (!list) return refuse('has no $snapshot_data list.', 'properties__$snapshot_data');
  return {
    batchId: typeof item.uuid === 'string' && item.uuid !== '' ? item.uuid.slice(0, 100) : randomUUID(),
    sessionId: storable(sessionId),
    windowId: storable(nonEmpty(properties.$window_id) ?? ''),
    distinctId: storable(String(rawId)),
    data: list,
    currentUrl: nonEmpty(properties.$current_url),
  };
}

/** The body's `$snapshot` events, decoded and grouped into one batch per session, window and distinct id; and the refused. */
export async function snapshotBatchesOf(items: readonly unknown[]): Promise<{ batches: SnapshotBatch[]; refused: DomainError[] }> {
  const refused: DomainError[] = [];
  const events: SnapshotEvent[] = [];
  items.forEach((item, i) => {
    const event = snapshotEventOf(item, i);
    if (event instanceof Error) refused.push(event);
    else events.push(event);
  });
  const decoded = await decodeSnapshots(events.map((event) => event.data));
  const batches = new Map<string, SnapshotBatch>();
  events.forEach((event, i) => {
    const key = JSON.stringify([event.sessionId, event.windowId, event.distinctId]);
    let batch = batches.get(key);
    if (!batch) batches.set(key, (batch = { sessionId: event.sessionId, windowId: event.windowId, distinctId: event.distinctId, parts: [] }));
    batch.parts.push({ batchId: event.batchId, ...decoded[i]!, currentUrl: event.currentUrl });
  });
  return { batches: [...batches.values()], refused };
}

/**
 * `POST /s/`: session recordings as posthog-js sends them (and service-js's recorder): `$snapshot` events in the capture
 * protocol's envelope and body codings, with CORS and the rate limit of the other SDK routes. Per-event compressed
 * rrweb events are decoded so that every reader gets plain ones. Events other than `$snapshot`, and `$snapshot` events
 * without a `$session_id`, are refused one by one (listed in `refused`); with none left the request is refused (400).
 * 200 `{"status": 1}` once the batches are stored (`ReplayStorage.store`); 204 with `?beacon=1`.
 */
export const replayIngestRoutes: FastifyPluginAsync<RouteContext<{ replayStorage: ReplayStorage; projects: ProjectsByToken }>> = async (app, opts) => {
  const { services, config } = opts;
  app.addHook('onRequest', echoOriginCors);
  sdkBodyParsers(app, {
    maxBytes: config.replayBodyLimit ?? DEFAULT_REPLAY_BODY_LIMIT,
    largeBodies: opts.largeBodies,
    tokenField: 'api_key',
    checkToken: (token: string) => projectByToken(services.projects, token),
  });
  const options = {
    preValidation: async (request: FastifyRequest) => {
      request.body = eventsOf(request.body);
      request.project = await projectByToken(services.projects, captureTokenOf(request.body as CaptureBody, request.query as Query));
    },
    config: { rateLimit: perProjectRateLimit(config.publicRateLimitPerMinute) },
  };
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as CaptureBody;
    if (body.invalid) throw body.invalid;
    const { batches, refused } = await snapshotBatchesOf(body.items);
    request.body = undefined;
    if (!batches.length) throw refused[0] ?? new ValidationError('No $snapshot events in the batch.', 'batch', 'required');
    await services.replayStorage.store(request.project!.id, batches);
    if (refused.length) request.log.warn({ refused: refused.map((e) => e.detail) }, 'replay: refused events were dropped');
    if ((request.query as Query).beacon === '1') return reply.code(204).send();
    return refused.length ? { status: 1, refused: refused.map((e) => apiErrorOf(e).body()) } : { status: 1 };
  };
  app.post('/s', { ...options, schema }, handler);
  app.options('/s', { schema: { hide: true }, config: { rateLimit: false } }, preflight);
};
