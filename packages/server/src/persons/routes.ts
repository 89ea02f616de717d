import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { JsonObject, PageQuery, ProjectParams, errorResponses, pageOfSchema } from '../http/schemas';
import type { Services } from '../services';

const PersonSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  distinct_ids: Type.Array(Type.String()),
  properties: JsonObject,
  is_identified: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

const PersonListQuery = Type.Intersect([PageQuery, Type.Object({ distinct_id: Type.Optional(Type.String({ description: 'only the person behind this distinct id' })) })]);

/** `/api/projects/:project_id/persons/`: persons made by ingestion, newest first. */
export const personRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof PersonListQuery> }>(
    '/api/projects/:project_id/persons',
    {
      onRequest: authorize(services, 'person:read'),
      schema: { tags: ['persons'], params: ProjectParams, querystring: PersonListQuery, response: { 200: pageOfSchema(PersonSchema), ...errorResponses } },
    },
    async (request) => {
      const page = pageParams(request);
      const distinctId = request.query.distinct_id || undefined;
      const { count, results } = await services.persons.list(request.project!.id, { distinctId }, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );
};
