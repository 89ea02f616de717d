import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { projectRoutes } from '../http/project-routes';
import { JsonObject, PageQuery, Text } from '../http/schemas';
import type { Services } from '../services';

const PersonSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  distinct_ids: Type.Array(Type.String()),
  properties: JsonObject,
  is_identified: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

const PersonListQuery = Type.Intersect([
  PageQuery,
  Type.Object({
    distinct_id: Type.Optional(Text({ description: 'only the person behind this distinct id' })),
    search: Type.Optional(
      Text({ maxLength: 1000, description: 'only persons with a distinct id or a property value (not a key) containing this, ignoring case' }),
    ),
  }),
]);

/** `/api/projects/:project_id/persons/`: persons made by ingestion, newest first. */
export const personRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  projectRoutes(app, services, { collection: 'persons', object: 'person', tags: ['persons'] }).list(PersonListQuery, PersonSchema, (projectId, query, page) =>
    services.persons.list(projectId, { distinctId: query.distinct_id || undefined, search: query.search || undefined }, page.limit, page.offset),
  );
};
