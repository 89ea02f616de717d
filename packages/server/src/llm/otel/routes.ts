import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { IngestService } from '../../capture/ingest';
import { AI_EVENT_MAX_BYTES } from '../../capture/routes';
import { ValidationError } from '../../errors';
import { badBody, readBody } from '../../http/content-encoding';
import { echoOriginCors, preflight } from '../../http/cors';
import { perProjectRateLimit, projectByToken, type ProjectsByToken } from '../../http/project-token';
import { ErrorSchema } from '../../http/schemas';
import { bodyLeftUnread, checkBeforeBody, type BodyRequest, type SdkBodyOptions } from '../../http/sdk-body';
import { parseJsonBytes } from '../../http/sliced-json';
import type { RouteContext } from '../../module';
import { eventsOfSpans } from './events';
import { decodeTraceRequest } from './proto';
import { readSpans, type Refusal } from './spans';

const JSON_TYPE = 'application/json';
const PROTOBUF_TYPES = ['application/x-protobuf', 'application/protobuf'];
/** An `ExportTraceServiceResponse` without a partial success, in protobuf: no bytes at all. */
const EMPTY_RESPONSE = Buffer.alloc(0);
/** Refused spans named in an error's detail; the rest are counted. */
const REASONS_SHOWN = 3;

const isProtobuf = (request: FastifyRequest) => PROTOBUF_TYPES.some((type) => (request.headers['content-type'] ?? '').toLowerCase().startsWith(type));

/** The project token: `Authorization: Bearer <token>` (what OTLP exporters send as a header), else `?token=`. */
function tokenOf(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  const query = (request.query as Record<string, unknown>).token;
  return bearer ?? (typeof query === 'string' && query !== '' ? query : undefined);
}

/** 400 naming the refused spans, in the export's order. */
const refusedSpans = (refused: Refusal[], total: number) => {
  refused.sort((a, b) => a.order - b.order);
  const shown = refused.slice(0, REASONS_SHOWN).map(({ at, reason }) => `${at.replaceAll('__', '.')}: ${reason}`);
  const more = refused.length > REASONS_SHOWN ? `; and ${refused.length - REASONS_SHOWN} more` : '';
  return new ValidationError(
    `${refused.length} of ${total} spans were refused (the others were stored): ${shown.join('; ')}${more}.`,
    refused[0]!.at,
    'invalid_spans',
  );
};

const schema = {
  tags: ['sdk'],
  summary: 'Ingest OpenTelemetry traces (OTLP/HTTP): GenAI spans become generations, the spans above them spans and traces',
  description:
    'An OTLP `ExportTraceServiceRequest`, JSON or protobuf, with the project token as `Authorization: Bearer <token>` (or `?token=`). ' +
    'Spans with `gen_ai.*` attributes and the Vercel AI SDK’s `ai.*.doGenerate`/`doStream` are stored as `$ai_generation` ' +
    '(`$ai_embedding`) events, the LLM spans and the spans above them in the export as `$ai_span` (a root: `$ai_trace`); ' +
    'other spans are left out. 200 once stored; 400 naming the spans refused (the others are stored).',
  security: [],
  consumes: [JSON_TYPE, ...PROTOBUF_TYPES],
  querystring: Type.Object({ token: Type.Optional(Type.String({ description: 'the project token, when not sent as a Bearer token' })) }),
  body: Type.Unknown({ description: 'an OTLP `ExportTraceServiceRequest`: `{"resourceSpans": [...]}` (JSON), or its protobuf encoding' }),
  response: {
    200: Type.Object({}, { description: 'an `ExportTraceServiceResponse` (no bytes in protobuf)' }),
    400: ErrorSchema,
    401: ErrorSchema,
    413: ErrorSchema,
    415: ErrorSchema,
    429: ErrorSchema,
    503: ErrorSchema,
  },
};

/**
 * `POST /i/v0/ai/otel` and `/i/v0/ai/otel/v1/traces` (the path OTLP exporters append to a base URL): OpenTelemetry
 * traces from the Vercel AI SDK, OpenLLMetry or any GenAI instrumentation, stored as the events the wrappers send
 * (`events.ts`) through the ingestion pipeline. Bodies up to the `/i/v0/ai/batch/` limit, in a `Content-Encoding` or
 * none.
 */
export const otelRoutes: FastifyPluginAsync<RouteContext<{ ingest: IngestService; projects: ProjectsByToken }>> = async (app, opts) => {
  const { services, config } = opts;
  const maxBytes = Math.max(config.captureBatchBodyLimit, AI_EVENT_MAX_BYTES);
  const eventMaxBytes = Math.max(config.eventMaxBytes, AI_EVENT_MAX_BYTES);
  const bodies: SdkBodyOptions = {
    maxBytes,
    largeBodies: opts.largeBodies,
    tokenField: 'token',
    checkToken: (token) => projectByToken(services.projects, token),
  };
  app.addHook('onRequest', echoOriginCors);
  // The project is known before a byte of the body is read: an unknown token costs no reading.
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (request.method !== 'POST') return payload;
    const body: BodyRequest = { headers: request.headers, query: {}, response: reply.raw };
    try {
      request.project = await projectByToken(services.projects, tokenOf(request));
      await checkBeforeBody(body, bodies);
    } catch (error) {
      if (bodyLeftUnread(body, bodies)) void reply.header('connection', 'close');
      throw error;
    }
    return payload;
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPE, async (request: FastifyRequest, payload: IncomingMessage) => {
    const bytes = await readBody(payload, request.headers, maxBytes);
    try {
      return await parseJsonBytes(bytes);
    } catch {
      throw badBody('Body is not valid JSON.');
    }
  });
  app.addContentTypeParser(PROTOBUF_TYPES, async (request: FastifyRequest, payload: IncomingMessage) => {
    const bytes = await readBody(payload, request.headers, maxBytes);
    try {
      return await decodeTraceRequest(bytes);
    } catch {
      throw badBody('Body is not a protobuf ExportTraceServiceRequest.');
    }
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const { spans, refused, total } = await readSpans(request.body);
    request.body = undefined;
    const mapped = await eventsOfSpans(spans);
    refused.push(...mapped.refused);
    if (mapped.events.length) {
      const items = mapped.events.map(({ item }) => item);
      const normalized = await services.ingest.normalize({ items, batch: {} }, {}, eventMaxBytes);
      for (const error of normalized.refused) {
        const span = mapped.events[Number(error.attr?.split('__')[1])]!.span;
        refused.push({
          at: span.at,
          order: span.order,
          reason: error.code === 'event_too_large' ? `as an event it is over ${eventMaxBytes} bytes` : 'its attributes are nested too deeply',
        });
      }
      if (normalized.events.length) await services.ingest.capture(request.project!.id, normalized.events);
    }
    if (refused.length) throw refusedSpans(refused, total);
    return isProtobuf(request) ? reply.type(PROTOBUF_TYPES[0]!).send(EMPTY_RESPONSE) : {};
  };
  for (const path of ['/i/v0/ai/otel', '/i/v0/ai/otel/v1/traces']) {
    app.post(path, { schema, bodyLimit: maxBytes, config: { rateLimit: perProjectRateLimit(config.publicRateLimitPerMinute) } }, handler);
    app.options(path, { schema: { hide: true }, config: { rateLimit: false } }, preflight);
  }
};
