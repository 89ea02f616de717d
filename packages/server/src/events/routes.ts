import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { JsonObject, PageQuery, ProjectParams, errorResponses, pageOfSchema } from '../http/schemas';
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
    event: Type.Optional(Type.String({ description: 'only events with this name' })),
    distinct_id: Type.Optional(Type.String({ description: 'only events of this distinct id' })),
    after: Type.Optional(Type.String({ description: 'only events after this ISO 8601 time (exclusive)' })),
    before: Type.Optional(Type.String({ description: 'only events before this ISO 8601 time (exclusive)' })),
  }),
]);

/** `/api/projects/:project_id/events/`: stored events, newest first. */
export const eventRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof EventListQuery> }>(
    '/api/projects/:project_id/events',
    {
      onRequest: authorize(services, 'event:read'),
      schema: { tags: ['events'], params: ProjectParams, querystring: EventListQuery, response: { 200: pageOfSchema(EventSchema), ...errorResponses } },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await services.events.list(request.project!.id, request.query, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );
};
