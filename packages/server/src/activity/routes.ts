import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize, can, type AuthLookups } from '../http/auth';
import { permissionDenied } from '../http/errors';
import { pageOf, pageParams } from '../http/pagination';
import { Id, PageQuery, ProjectParams, Text, errorResponses, pageOfSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import type { ActivityService } from './service';

const ActorType = (options: { description?: string } = {}) =>
  Type.Union([Type.Literal('user'), Type.Literal('personal_api_key'), Type.Literal('command_line')], options);

const Nullable = <T extends ReturnType<typeof Type.Object> | ReturnType<typeof Type.Array>>(schema: T) => Type.Union([schema, Type.Null()]);

const entrySchema = (scopes: readonly string[]) =>
  Type.Object(
    {
      id: Type.Integer(),
      scope: Type.String({ description: scopes.join(' | ') }),
      item_id: Type.String(),
      activity: Type.String({ description: 'created | updated | deleted (a personal API key revoked: deleted)' }),
      user: Nullable(
        Type.Object(
          { id: Type.Integer(), email: Type.String(), name: Type.String() },
          { description: 'the user of the session that made the change; null for a personal API key, the command line, or a removed user' },
        ),
      ),
      actor: Type.Object({
        type: ActorType(),
        name: Type.String({ description: "the user's name or the key's label when the change was made" }),
        user_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the user, or the owner of the key used' }),
        api_key_id: Type.Union([Type.String(), Type.Null()]),
      }),
      created_at: Type.String({ format: 'date-time' }),
      detail: Type.Object({
        name: Type.Union([Type.String(), Type.Null()], { description: "the item's name (key, label, email) at the time" }),
        changes: Nullable(
          Type.Array(Type.Object({ field: Type.String(), before: Type.Unknown(), after: Type.Unknown() }), {
            description: 'the changed fields only (on create: every field, before null); secrets show as "[hidden]"; null on delete',
          }),
        ),
      }),
    },
    { title: 'ActivityEntry' },
  );

const LogQuery = Type.Object({
  ...PageQuery.properties,
  scope: Type.Optional(Text({ maxLength: 100, description: 'only entries of this kind of item' })),
  item_id: Type.Optional(Text({ maxLength: 200, description: 'only entries of this item' })),
  user_id: Type.Optional(Id({ description: "only changes made by this user: in the web app or with one of the user's keys" })),
  actor_type: Type.Optional(ActorType({ description: 'only changes made in the web app (user), with a personal API key, or by the command line' })),
});
type LogQuery = Static<typeof LogQuery>;

/**
 * The activity log: `GET /api/projects/:project_id/activity_log/` (flags, early access features, webhooks, the
 * project) and `GET /api/organization/activity_log/` (personal API keys, members, invites). Readable with scope
 * `activity_log:read`, or with the `:read` scope of the item kind asked for with `scope`.
 */
export const activityRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { activity: ActivityService }>> = async (app, { services }) => {
  const tags = ['activity log'];
  const { activity } = services;
  const authenticated = authorize(services, null);
  const response = { 200: pageOfSchema(entrySchema([...activity.projectScopes, ...activity.organizationScopes])), ...errorResponses };

  const checkReadable = (request: FastifyRequest, scope: string | undefined) => {
    const principal = request.principal!;
    if (can(principal, 'activity_log:read')) return;
    const itemScope = scope === undefined ? undefined : activity.readScopeOf(scope);
    if (itemScope && can(principal, itemScope)) return;
    const needed = itemScope ? `'activity_log:read' or '${itemScope}'` : "'activity_log:read'";
    throw permissionDenied(
      principal.via === 'key' ? `API key missing required scope ${needed}` : `Your role (${principal.role}) does not allow this (scope ${needed}).`,
    );
  };

  const list = async (request: FastifyRequest<{ Querystring: LogQuery }>, projectId: number | null) => {
    const { scope, item_id, user_id, actor_type } = request.query;
    checkReadable(request, scope || undefined);
    const page = pageParams(request);
    const { count, results } = await activity.list(projectId, {
      scope: scope || undefined,
      itemId: item_id || undefined,
      userId: user_id,
      actorType: actor_type,
      ...page,
    });
    return pageOf(request, count, results, page);
  };

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: LogQuery }>(
    '/api/projects/:project_id/activity_log',
    {
      onRequest: authenticated,
      schema: {
        tags,
        summary: "List a project's activity log, newest first",
        description: `scope: ${activity.projectScopes.join(', ')}`,
        params: ProjectParams,
        querystring: LogQuery,
        response,
      },
    },
    (request) => list(request, request.project!.id),
  );

  app.get<{ Querystring: LogQuery }>(
    '/api/organization/activity_log',
    {
      onRequest: authenticated,
      schema: {
        tags,
        summary: "List the organization's activity log (personal API keys, members, invites), newest first",
        description: `scope: ${activity.organizationScopes.join(', ')}`,
        querystring: LogQuery,
        response,
      },
    },
    (request) => list(request, null),
  );
};
