import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize, type AuthLookups } from '../http/auth';
import { projectRoutes } from '../http/project-routes';
import { JsonObject, PageQuery, ProjectParams, Text, errorResponses } from '../http/schemas';
import type { RouteContext } from '../module';
import { MAX_COUNT_DAYS, MAX_COUNT_HOUR_DAYS, MAX_EVENT_NAMES, MAX_SERIES, type EventService } from './service';

const EventSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: "the event's uuid (sent by the SDK, or made at ingestion)" }),
    event: Type.String(),
    distinct_id: Type.String(),
    properties: JsonObject,
    timestamp: Type.String({ format: 'date-time', description: 'when it happened, client clock corrected' }),
  },
  { title: 'Event' },
);

const PropertiesFilter = Type.String({
  description:
    'only events with these property values: a JSON list `[{"key": "$feature_flag", "value": "my-flag"}]`, exact equality compared as text (`true` matches `"true"`, `3` matches `"3"`), ANDed (a list as `value` matches any of its values; `null` matches an absent property)',
});

const EventListQuery = Type.Intersect([
  PageQuery,
  Type.Object({
    event: Type.Optional(Text({ description: 'only events with this name' })),
    distinct_id: Type.Optional(Text({ description: 'only events of this distinct id' })),
    after: Type.Optional(Type.String({ description: 'only events after this ISO 8601 time (exclusive)' })),
    before: Type.Optional(Type.String({ description: 'only events before this ISO 8601 time (exclusive)' })),
    properties: Type.Optional(PropertiesFilter),
  }),
]);

const EventCountsQuery = Type.Object({
  event: Text({ minLength: 1, maxLength: 1000, description: 'the event counted (exact name)' }),
  after: Type.String({ description: 'from this ISO 8601 date (UTC midnight) or date-time (inclusive)' }),
  before: Type.Optional(Type.String({ description: 'until this ISO 8601 date or date-time (exclusive); default now' })),
  interval: Type.Optional(
    Type.Enum(['day', 'hour'], {
      description: `buckets: UTC days (default; at most ${MAX_COUNT_DAYS}) or hours (at most ${MAX_COUNT_HOUR_DAYS} days of them)`,
    }),
  ),
  breakdown: Type.Optional(Text({ maxLength: 1000, description: 'one series per value of this event property, e.g. $feature_flag_response' })),
  properties: Type.Optional(PropertiesFilter),
});

const EventCountsSchema = Type.Object(
  {
    interval: Type.Enum(['day', 'hour']),
    days: Type.Array(Type.String(), { description: 'every bucket of the range, with or without events: `2026-11-23` by day, `2026-11-23T14:00:00Z` by hour' }),
    series: Type.Array(
      Type.Object({
        breakdown_value: Type.Union([Type.String(), Type.Null()], {
          description: 'the property value as text (`true`, `3`, `control`); null: without the property (or without breakdown); `$other`: the rest',
        }),
        counts: Type.Array(Type.Integer(), { description: 'one per bucket' }),
        total: Type.Integer(),
      }),
      { description: `most events first; at most ${MAX_SERIES}, the smallest summed into \`$other\` (last)` },
    ),
  },
  { title: 'EventCounts' },
);

const EventNamesQuery = Type.Object({
  search: Type.Optional(Text({ maxLength: 400, description: 'only names containing this, ignoring case' })),
});
const EventNamesSchema = Type.Object(
  {
    results: Type.Array(Type.String(), { description: `the names of the project's stored events, sorted, at most ${MAX_EVENT_NAMES}` }),
  },
  { title: 'EventNames' },
);

/**
 * `/api/projects/:project_id/events/`: stored events, newest first; `…/event_counts/`: one event's counts over time;
 * `…/event_names/`: the names events have, for pickers.
 */
export const eventRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { events: EventService }>> = async (app, { services }) => {
  projectRoutes(app, services, { collection: 'events', object: 'event', tags: ['events'] }).list(EventListQuery, EventSchema, (projectId, query, page) =>
    services.events.list(projectId, query, page.limit, page.offset),
  );

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof EventCountsQuery> }>(
    '/api/projects/:project_id/event_counts',
    {
      onRequest: authorize(services, 'event:read'),
      schema: {
        tags: ['events'],
        summary: "One event's counts per UTC day or hour, optionally by one property's values",
        params: ProjectParams,
        querystring: EventCountsQuery,
        response: { 200: EventCountsSchema, ...errorResponses },
      },
    },
    async (request) => services.events.counts(request.project!.id, request.query),
  );

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof EventNamesQuery> }>(
    '/api/projects/:project_id/event_names',
    {
      onRequest: authorize(services, 'event:read'),
      schema: {
        tags: ['events'],
        summary: "The names of the project's events",
        params: ProjectParams,
        querystring: EventNamesQuery,
        response: { 200: EventNamesSchema, ...errorResponses },
      },
    },
    async (request) => services.events.names(request.project!.id, request.query.search || undefined),
  );
};
