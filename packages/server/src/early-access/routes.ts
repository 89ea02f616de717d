import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { JsonObject, PageQuery, ProjectItemParams, ProjectParams, errorResponses, pageOfSchema } from '../http/schemas';
import type { Services } from '../services';
import { STAGES } from './service';

const FlagSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    team_id: Type.Integer(),
    name: Type.String(),
    key: Type.String(),
    filters: JsonObject,
    deleted: Type.Boolean(),
    active: Type.Boolean(),
    ensure_experience_continuity: Type.Boolean(),
  },
);

const featureFields = {
  id: Type.String({ format: 'uuid' }),
  feature_flag: Type.Union([FlagSummarySchema, Type.Null()]),
  name: Type.String(),
  description: Type.String(),
  stage: Type.Enum([...STAGES]),
  documentation_url: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
};
const FeatureSchema = Type.Object(featureFields);
const CreatedSchema = Type.Object({ ...featureFields, feature_flag_id: Type.Integer() });

const editable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 100_000 }),
  stage: Type.Enum([...STAGES]),
  documentation_url: Type.String({ maxLength: 800 }),
};
const FeatureCreate = Type.Object(
  {
    name: editable.name,
    stage: editable.stage,
    description: Type.Optional(editable.description),
    documentation_url: Type.Optional(editable.documentation_url),
    feature_flag_id: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  },
  { additionalProperties: false },
);
const FeatureUpdate = Type.Partial(Type.Object(editable), { additionalProperties: false });

/** `/api/projects/:project_id/early_access_feature/`: the five operations of the spec. */
export const earlyAccessRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const read = authorize(services, 'early_access_feature:read');
  const write = authorize(services, 'early_access_feature:write');
  const base = '/api/projects/:project_id/early_access_feature';
  const tags = ['early access features'];

  app.get<{ Params: Static<typeof ProjectParams> }>(
    base,
    { onRequest: read, schema: { tags, params: ProjectParams, querystring: PageQuery, response: { 200: pageOfSchema(FeatureSchema), ...errorResponses } } },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await services.earlyAccess.list(request.project!.id, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );

  app.post<{ Params: Static<typeof ProjectParams>; Body: Static<typeof FeatureCreate> }>(
    base,
    { onRequest: write, schema: { tags, params: ProjectParams, body: FeatureCreate, response: { 201: CreatedSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await services.earlyAccess.create(request.project!.id, request.body)),
  );

  app.get<{ Params: Static<typeof ProjectItemParams> }>(
    `${base}/:id`,
    { onRequest: read, schema: { tags, params: ProjectItemParams, response: { 200: FeatureSchema, ...errorResponses } } },
    async (request) => services.earlyAccess.get(request.project!.id, request.params.id),
  );

  app.patch<{ Params: Static<typeof ProjectItemParams>; Body: Static<typeof FeatureUpdate> }>(
    `${base}/:id`,
    { onRequest: write, schema: { tags, params: ProjectItemParams, body: FeatureUpdate, response: { 200: FeatureSchema, ...errorResponses } } },
    async (request) => services.earlyAccess.update(request.project!.id, request.params.id, request.body),
  );

  app.delete<{ Params: Static<typeof ProjectItemParams> }>(
    `${base}/:id`,
    { onRequest: write, schema: { tags, params: ProjectItemParams, response: { 204: Type.Null({ description: 'deleted; empty body' }), ...errorResponses } } },
    async (request, reply) => {
      await services.earlyAccess.delete(request.project!.id, request.params.id);
      return reply.code(204).send();
    },
  );
};
