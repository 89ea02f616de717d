import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { projectRoutes } from '../http/project-routes';
import { JsonObject, PageQuery, Text } from '../http/schemas';
import type { Services } from '../services';

const EventSchema = Type.Object({
  id: Type.String({ format: 'uuid', description: "the event's uuid (sent by the SDK, or made at ingestion)" }),
  event: Type.String(),
  distinct_id: Type.String(),
  properties: JsonObject,
  timestamp: Type.String({ format: 'date-time', description: 'when it happened, client clock corrected' }),
});

const EventListQuery = Type.Intersect([
  PageQuery,
  Type.Object({
    event: Type.Optional(Text({ description: 'only events with this name' })),
    distinct_id: Type.Optional(Text({ description: 'only events of this distinct id' })),
    after: Type.Optional(Type.String({ description: 'only events after this ISO 8601 time (exclusive)' })),
    before: Type.Optional(Type.String({ description: 'only events before this ISO 8601 time (exclusive)' })),
  }),
]);

/** `/api/projects/:project_id/events/`: stored events, newest first. */
export const eventRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  projectRoutes(app, services, { collection: 'events', object: 'event', tags: ['events'] }).list(EventListQuery, EventSchema, (projectId, query, page) =>
    services.events.list(projectId, query, page.limit, page.offset),
  );
};
