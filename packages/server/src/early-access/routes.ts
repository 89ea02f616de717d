import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { actorOf } from '../http/actor';
import { projectRoutes } from '../http/project-routes';
import { FlagSummarySchema } from '../feature-flags/routes';
import { Id, JsonObject, PageQuery, Text } from '../http/schemas';
import type { AuthLookups } from '../http/auth';
import type { RouteContext } from '../module';
import { STAGES, type EarlyAccessService } from './service';

const featureFields = {
  id: Type.String({ format: 'uuid' }),
  feature_flag: Type.Union([FlagSummarySchema, Type.Null()]),
  name: Type.String(),
  description: Type.String(),
  stage: Type.Enum([...STAGES], { title: 'Stage' }),
  documentation_url: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  payload: Type.Union([JsonObject, Type.Null()]),
};
const FeatureSchema = Type.Object(featureFields, { title: 'EarlyAccessFeature' });
const CreatedSchema = Type.Object({ ...featureFields, feature_flag_id: Type.Integer() }, { title: 'CreatedEarlyAccessFeature' });

const editable = {
  name: Text({ minLength: 1, maxLength: 200 }),
  description: Text({ maxLength: 100_000 }),
  stage: Type.Enum([...STAGES]),
  documentation_url: Text({ maxLength: 800 }),
  payload: Type.Union([JsonObject, Type.Null()], { description: 'a JSON object for the SDKs (at most 64 KB as JSON); null clears it' }),
};
const FeatureCreate = Type.Object(
  {
    name: editable.name,
    stage: editable.stage,
    description: Type.Optional(editable.description),
    documentation_url: Type.Optional(editable.documentation_url),
    payload: Type.Optional(editable.payload),
    feature_flag_id: Type.Optional(Type.Union([Id({ minimum: 0, description: '0 or null: a new flag named after the feature' }), Type.Null()])),
  },
  { additionalProperties: false },
);
const FeatureUpdate = Type.Partial(Type.Object(editable), { additionalProperties: false });

/** `/api/projects/:project_id/early_access_feature/`: the five operations of the spec. */
export const earlyAccessRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { earlyAccess: EarlyAccessService }>> = async (app, { services }) => {
  const routes = projectRoutes(app, services, { collection: 'early_access_feature', object: 'early_access_feature', tags: ['early access features'] });
  routes.list(PageQuery, FeatureSchema, (projectId, _query, page) => services.earlyAccess.list(projectId, page.limit, page.offset));
  routes.create(FeatureCreate, CreatedSchema, (projectId, body, request) => services.earlyAccess.create(projectId, body, actorOf(request)));
  routes.get(FeatureSchema, (projectId, id) => services.earlyAccess.get(projectId, id));
  routes.update(FeatureUpdate, FeatureSchema, (projectId, id, body, request) => services.earlyAccess.update(projectId, id, body, actorOf(request)));
  routes.delete((projectId, id, request) => services.earlyAccess.delete(projectId, id, actorOf(request)));
};
