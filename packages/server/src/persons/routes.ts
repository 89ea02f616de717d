import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize } from '../http/auth';
import { projectRoutes } from '../http/project-routes';
import { JsonObject, PageQuery, ProjectParams, Text, errorResponses } from '../http/schemas';
import type { AuthLookups } from '../http/auth';
import type { RouteContext } from '../module';
import { MAX_GROUP_TYPES } from './ingest';
import { MAX_PROPERTY_NAMES, PROPERTY_NAME_SAMPLE, type PersonService } from './service';

const PersonSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    distinct_ids: Type.Array(Type.String()),
    properties: JsonObject,
    is_identified: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Person' },
);

const PersonListQuery = Type.Intersect([
  PageQuery,
  Type.Object({
    distinct_id: Type.Optional(Text({ description: 'only the person behind this distinct id' })),
    search: Type.Optional(
      Text({ maxLength: 1000, description: 'only persons with a distinct id or a property value (not a key) containing this, ignoring case' }),
    ),
  }),
]);

const PropertyNamesQuery = Type.Object({
  search: Type.Optional(Text({ maxLength: 400, description: 'only names containing this, ignoring case' })),
});
const PropertyNamesSchema = Type.Object({
  results: Type.Array(Type.String(), {
    description: `the top-level property names of the project's ${PROPERTY_NAME_SAMPLE.toLocaleString('en')} newest persons, sorted, at most ${MAX_PROPERTY_NAMES}`,
  }),
});

const GroupTypesSchema = Type.Object({
  results: Type.Array(
    Type.Object(
      {
        group_type_index: Type.Integer({ description: 'what flags name it by (`aggregation_group_type_index`, `group_type_index`)' }),
        group_type: Type.String({ description: 'its name, as SDKs send it (`$groups`: `{"company": "acme"}`)' }),
      },
      { title: 'GroupType' },
    ),
    { description: `by index; at most ${MAX_GROUP_TYPES}, made by the first events of each type` },
  ),
});

/**
 * `/api/projects/:project_id/persons/`: persons made by ingestion, newest first; `…/person_property_names/`: the
 * names their properties have, for pickers; `…/group_types/`: the project's group types by index.
 */
export const personRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { persons: PersonService }>> = async (app, { services }) => {
  projectRoutes(app, services, { collection: 'persons', object: 'person', tags: ['persons'] }).list(PersonListQuery, PersonSchema, (projectId, query, page) =>
    services.persons.list(projectId, { distinctId: query.distinct_id || undefined, search: query.search || undefined }, page.limit, page.offset),
  );

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof PropertyNamesQuery> }>(
    '/api/projects/:project_id/person_property_names',
    {
      onRequest: authorize(services, 'person:read'),
      schema: {
        tags: ['persons'],
        summary: 'The names of the properties persons have',
        params: ProjectParams,
        querystring: PropertyNamesQuery,
        response: { 200: PropertyNamesSchema, ...errorResponses },
      },
    },
    async (request) => services.persons.propertyNames(request.project!.id, request.query.search || undefined),
  );

  app.get<{ Params: Static<typeof ProjectParams> }>(
    '/api/projects/:project_id/group_types',
    {
      onRequest: authorize(services, 'person:read'),
      schema: {
        tags: ['persons'],
        summary: "The project's group types, by index",
        params: ProjectParams,
        response: { 200: GroupTypesSchema, ...errorResponses },
      },
    },
    async (request) => services.persons.groupTypes(request.project!.id),
  );
};
