import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize } from '../http/auth';
import { notFound } from '../http/errors';
import { pageOf, pageParams } from '../http/pagination';
import { JsonObject, PageQuery, ProjectItemParams, ProjectParams, errorResponses, intId, pageOfSchema } from '../http/schemas';
import type { Services } from '../services';

export const FeatureFlagSchema = Type.Object(
  {
    id: Type.Integer(),
    team_id: Type.Integer(),
    name: Type.String(),
    key: Type.String(),
    filters: JsonObject,
    deleted: Type.Boolean(),
    active: Type.Boolean(),
    ensure_experience_continuity: Type.Boolean(),
    version: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
  },
);

const writable = {
  name: Type.String({ maxLength: 10_000 }),
  filters: JsonObject,
  active: Type.Boolean(),
  ensure_experience_continuity: Type.Boolean(),
};
const FlagCreate = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 400 }), ...Type.Partial(Type.Object(writable)).properties },
  { additionalProperties: false },
);
const FlagUpdate = Type.Partial(
  Type.Object({ key: Type.String({ minLength: 1, maxLength: 400 }), ...writable, deleted: Type.Boolean() }),
  { additionalProperties: false },
);
const FlagListQuery = Type.Intersect([PageQuery, Type.Object({ search: Type.Optional(Type.String()), active: Type.Optional(Type.String()) })]);

/** `/api/projects/:project_id/feature_flags/`: list, create, retrieve, update, soft delete (PATCH `deleted: true`). */
export const featureFlagRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const read = authorize(services, 'feature_flag:read');
  const write = authorize(services, 'feature_flag:write');
  const base = '/api/projects/:project_id/feature_flags';
  const tags = ['feature flags'];

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof FlagListQuery> }>(
    base,
    { onRequest: read, schema: { tags, params: ProjectParams, querystring: FlagListQuery, response: { 200: pageOfSchema(FeatureFlagSchema), ...errorResponses } } },
    async (request) => {
      const page = pageParams(request);
      const { active, search } = request.query;
      const { count, results } = await services.flags.list(request.project!.id, {
        ...page,
        search: search || undefined,
        active: active === 'true' ? true : active === 'false' ? false : undefined,
      });
      return pageOf(request, count, results, page);
    },
  );

  app.post<{ Params: Static<typeof ProjectParams>; Body: Static<typeof FlagCreate> }>(
    base,
    { onRequest: write, schema: { tags, params: ProjectParams, body: FlagCreate, response: { 201: FeatureFlagSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await services.flags.create(request.project!.id, request.body)),
  );

  app.get<{ Params: Static<typeof ProjectItemParams> }>(
    `${base}/:id`,
    { onRequest: read, schema: { tags, params: ProjectItemParams, response: { 200: FeatureFlagSchema, ...errorResponses } } },
    async (request) => services.flags.get(request.project!.id, intId(request.params.id) ?? notFoundId()),
  );

  app.patch<{ Params: Static<typeof ProjectItemParams>; Body: Static<typeof FlagUpdate> }>(
    `${base}/:id`,
    { onRequest: write, schema: { tags, params: ProjectItemParams, body: FlagUpdate, response: { 200: FeatureFlagSchema, ...errorResponses } } },
    async (request) => services.flags.update(request.project!.id, intId(request.params.id) ?? notFoundId(), request.body),
  );
};

function notFoundId(): never {
  throw notFound();
}
