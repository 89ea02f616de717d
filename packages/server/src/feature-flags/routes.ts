import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { NotFoundError } from '../errors';
import { actorOf } from '../http/actor';
import { projectRoutes } from '../http/project-routes';
import { JsonObject, PageQuery, Text, intId } from '../http/schemas';
import type { AuthLookups } from '../http/auth';
import type { RouteContext } from '../module';
import type { FeatureFlagService } from './service';

/** A flag as an early access feature shows it (`feature_flag`): the flag without its version and creation time. */
export const FlagSummarySchema = Type.Object(
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
  { title: 'FlagSummary' },
);

export const FeatureFlagSchema = Type.Object(
  {
    ...FlagSummarySchema.properties,
    version: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'FeatureFlag' },
);

/** A flag with what uses it, as one flag is read. */
const FeatureFlagDetailSchema = Type.Object(
  {
    ...FeatureFlagSchema.properties,
    used_by: Type.Array(
      Type.Object(
        {
          type: Type.Enum(['early_access_feature', 'experiment', 'survey']),
          id: Type.Union([Type.Integer(), Type.String()]),
          name: Type.String(),
          status: Type.String({ description: "an early access feature's stage, an experiment's or a survey's status" }),
        },
        { title: 'FlagUse' },
      ),
      { description: 'the early access feature and the experiments that use the flag, the survey that made it' },
    ),
  },
  { title: 'FeatureFlagDetail' },
);

/** The longest flag name; a longer search matches nothing (and would pass SQLite's 50,000-byte LIKE pattern limit). */
const MAX_NAME = 10_000;
const writable = {
  name: Text({ maxLength: MAX_NAME }),
  filters: JsonObject,
  active: Type.Boolean(),
  ensure_experience_continuity: Type.Boolean(),
};
const FlagCreate = Type.Object(
  { key: Text({ minLength: 1, maxLength: 400 }), ...Type.Partial(Type.Object(writable)).properties },
  { additionalProperties: false },
);
const FlagUpdate = Type.Partial(Type.Object({ key: Text({ minLength: 1, maxLength: 400 }), ...writable, deleted: Type.Boolean() }), {
  additionalProperties: false,
});
const FlagListQuery = Type.Intersect([
  PageQuery,
  Type.Object({
    search: Type.Optional(Text({ maxLength: MAX_NAME, description: 'flags whose key or name contains this, ignoring case' })),
    active: Type.Optional(Type.String({ description: 'true: only active flags; false: only inactive ones' })),
    type: Type.Optional(Type.Enum(['boolean', 'multivariant'], { description: 'multivariant: flags with variants; boolean: flags without' })),
    has_early_access: Type.Optional(Type.Boolean({ description: 'true: only flags an early access feature uses; false: only the others' })),
  }),
]);

/** `/api/projects/:project_id/feature_flags/`: list, create, retrieve, update, soft delete (PATCH `deleted: true`). */
export const featureFlagRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { flags: FeatureFlagService }>> = async (app, { services }) => {
  const routes = projectRoutes(app, services, { collection: 'feature_flags', object: 'feature_flag', tags: ['feature flags'] });
  routes.list(FlagListQuery, FeatureFlagSchema, (projectId, { active, search, type, has_early_access }, page) =>
    services.flags.list(projectId, {
      ...page,
      search: search || undefined,
      active: active === 'true' ? true : active === 'false' ? false : undefined,
      type,
      hasEarlyAccess: has_early_access,
    }),
  );
  routes.create(FlagCreate, FeatureFlagSchema, (projectId, body, request) => services.flags.create(projectId, body, actorOf(request)));
  routes.get(FeatureFlagDetailSchema, (projectId, id) => services.flags.get(projectId, intId(id) ?? notFoundId()));
  routes.update(FlagUpdate, FeatureFlagSchema, (projectId, id, body, request) =>
    services.flags.update(projectId, intId(id) ?? notFoundId(), body, actorOf(request)),
  );
};

function notFoundId(): never {
  throw new NotFoundError();
}
