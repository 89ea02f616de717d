import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { JsonObject, PageQuery, ProjectParams, Text, errorResponses } from '../http/schemas';
import type { RouteContext } from '../module';
import { MAX_TIMELINE_EVENTS, type RecordingsService } from './recordings';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const count = (description: string) => Type.Integer({ description });

const recordingFields = {
  id: Type.String({ description: 'the session id (`$session_id`)' }),
  distinct_id: Type.String({ description: 'the distinct id of its first batch' }),
  person: Nullable(
    Type.Object(
      {
        id: Type.String({ description: "the person's id, as the persons API names them" }),
        name: Nullable(Type.String({ description: 'their email or name property' })),
        distinct_ids: Type.Array(Type.String(), { description: 'some of their distinct ids' }),
      },
      { title: 'SessionRecordingPerson' },
    ),
  ),
  start_time: Type.String({ format: 'date-time' }),
  end_time: Type.String({ format: 'date-time' }),
  duration: Type.Number({ description: 'seconds from the first to the last recorded event' }),
  active_seconds: Type.Number({ description: 'seconds with user interaction (gaps up to 5 s)' }),
  click_count: count('clicks and double clicks'),
  keypress_count: count('inputs typed'),
  console_log_count: count('console logs recorded'),
  console_warn_count: count('console warnings recorded'),
  console_error_count: count('console errors recorded'),
  exception_count: count('`$exception` events of the session'),
  start_url: Nullable(Type.String({ description: 'the first URL recorded' })),
  event_count: count('rrweb events stored'),
  size_bytes: count('bytes its stored blocks take'),
  ongoing: Type.Boolean({ description: 'a batch arrived in the last 5 minutes' }),
};

const SessionRecordingSchema = Type.Object(recordingFields, { title: 'SessionRecording' });
const SessionRecordingDetailSchema = Type.Object(
  {
    ...recordingFields,
    urls: Type.Array(Type.String(), { description: 'URLs visited (up to 100)' }),
    skipped_count: count('rrweb events skipped at ingest (a compressed field that could not be read)'),
    block_count: count('stored blocks'),
  },
  { title: 'SessionRecordingDetail' },
);
const SessionRecordingListSchema = Type.Object(
  {
    count: Type.Integer(),
    next: Nullable(Type.String()),
    previous: Nullable(Type.String()),
    results: Type.Array(SessionRecordingSchema),
  },
  { title: 'SessionRecordingList' },
);
const SessionRecordingEventsSchema = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          uuid: Type.String(),
          event: Type.String(),
          timestamp: Type.String({ format: 'date-time' }),
          properties: Type.Object(
            {
              $current_url: Type.Optional(Type.Unknown()),
              $pathname: Type.Optional(Type.Unknown()),
              $event_type: Type.Optional(Type.Unknown()),
              $el_text: Type.Optional(Type.Unknown()),
              $exception_types: Type.Optional(Type.Unknown()),
              $exception_message: Type.Optional(Type.Unknown()),
            },
            { description: 'only what a timeline shows' },
          ),
        },
        { title: 'SessionRecordingEvent' },
      ),
      { description: `in time order, at most ${MAX_TIMELINE_EVENTS}` },
    ),
  },
  { title: 'SessionRecordingEvents' },
);

const text = (description: string) => Type.Optional(Text({ maxLength: 1000, description }));
const RecordingsQuerySchema = Type.Intersect([
  PageQuery,
  Type.Object({
    person_id: text("the person's id, as the persons API names them"),
    distinct_id: text('the distinct id the session was recorded under'),
    date_from: text('started from this date (`2026-01-31`, UTC), date-time, or time ago (`-7d`, `-12h`), inclusive'),
    date_to: text('started before this date (the whole day counts), date-time, or time ago, exclusive'),
    duration_min: text('lasted at least this many seconds'),
    duration_max: text('lasted at most this many seconds'),
    has_errors: text('`true`: with exceptions or console errors; `false`: without'),
    url: text('visited a URL containing this, ignoring case'),
    flag: text('an event of the session had this flag on (`$feature/<flag>`), or `variant` with `variant`'),
    variant: text('the variant of `flag` (`true` for a boolean flag on)'),
  }),
]);

const SessionParams = Type.Object({ project_id: Type.String(), session_id: Text({ maxLength: 400 }) });
type Session = { Params: Static<typeof SessionParams> };

/**
 * `/api/projects/:project_id/session_recordings/`: recorded sessions, newest first, filtered and paged; a recording's
 * metadata, its rrweb events (streamed), its events for a timeline; DELETE forgets it.
 */
export const recordingRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { recordings: RecordingsService }>> = async (app, { services }) => {
  const base = '/api/projects/:project_id/session_recordings';
  const tags = ['session recordings'];
  const read = authorize(services, 'session_recording:read');
  const { recordings } = services;

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof RecordingsQuerySchema> }>(
    base,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'List session recordings, newest first',
        params: ProjectParams,
        querystring: RecordingsQuerySchema,
        response: { 200: SessionRecordingListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await recordings.list(request.project!.id, request.query, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );

  app.get<Session>(
    `${base}/:session_id`,
    {
      onRequest: read,
      schema: { tags, summary: 'Retrieve a session recording', params: SessionParams, response: { 200: SessionRecordingDetailSchema, ...errorResponses } },
    },
    async (request) => recordings.get(request.project!.id, request.params.session_id),
  );

  app.get<Session>(
    `${base}/:session_id/snapshots`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: "A recording's rrweb events, in time order, each once (streamed; what is stored so far while it is recorded)",
        params: SessionParams,
        response: { 200: Type.Array(JsonObject, { title: 'SessionRecordingSnapshots', description: 'plain rrweb events' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const stream = await recordings.snapshots(request.project!.id, request.params.session_id);
      return reply.type('application/json; charset=utf-8').header('cache-control', 'private, no-cache').send(stream);
    },
  );

  app.get<Session>(
    `${base}/:session_id/events`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: "A recording's session events for its timeline (pageviews, clicks, custom events, exceptions)",
        params: SessionParams,
        response: { 200: SessionRecordingEventsSchema, ...errorResponses },
      },
    },
    async (request) => recordings.events(request.project!.id, request.params.session_id),
  );

  app.delete<Session>(
    `${base}/:session_id`,
    {
      onRequest: authorize(services, 'session_recording:write'),
      schema: {
        tags,
        summary: 'Delete a session recording (its stored events and metadata)',
        params: SessionParams,
        response: { 204: Type.Null({ description: 'deleted; empty body' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await recordings.delete(request.project!.id, request.params.session_id, actorOf(request));
      return reply.code(204).send();
    },
  );
};
