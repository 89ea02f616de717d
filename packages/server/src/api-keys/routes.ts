import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, can, canOrganizationWide, type Principal, type AuthLookups } from '../http/auth';
import { Id, Text, errorResponses } from '../http/schemas';
import { NotFoundError } from '../errors';
import type { RouteContext } from '../module';
import { SCOPE_OBJECTS } from '../http/scopes';
import type { KeyManager, ApiKeyService } from './service';

const keyFields = {
  id: Type.String(),
  label: Type.String(),
  mask_value: Type.String({ description: 'the first and last characters of the key' }),
  scopes: Type.Array(Type.String()),
  project_ids: Type.Union([Type.Array(Type.Integer()), Type.Null()], { description: 'null: every project' }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  user: Type.Union([Type.Object({ id: Type.Integer(), email: Type.String(), name: Type.String() }), Type.Null()], {
    description: "whose key it is; null: made by the command line (the first start's key, `service keys create`)",
  }),
};
const KeySchema = Type.Object(keyFields, { title: 'PersonalApiKey' });
const CreatedKeySchema = Type.Object(
  { ...keyFields, value: Type.String({ description: 'the key itself, shown this once' }) },
  { title: 'CreatedPersonalApiKey' },
);

const CreateBody = Type.Object({
  label: Text({ minLength: 1, maxLength: 100 }),
  scopes: Type.Array(Text({ maxLength: 100 }), {
    minItems: 1,
    maxItems: 100,
    description: `\`*\` or \`<object>:<read|write>\`, objects: ${SCOPE_OBJECTS.join(', ')}; at most the scopes of your role`,
  }),
  project_ids: Type.Optional(
    Type.Union([Type.Array(Id(), { maxItems: 1000 }), Type.Null()], {
      description: 'limit the key to these projects (it then has no organization-level access); null or absent: every project',
    }),
  ),
});
const IdParams = Type.Object({ id: Type.String() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const noKey = () => new NotFoundError('No such live personal API key of yours.');

const shown = ({ id, label, mask_value, scopes, project_ids, created_at, last_used_at, user }: Static<typeof KeySchema>) => ({
  id,
  label,
  mask_value,
  scopes,
  project_ids,
  created_at,
  last_used_at,
  user,
});

/** What the request's user (or command-line key) may do with keys: admins (and `*` command-line keys) manage every key. */
const managerOf = (principal: Principal): KeyManager => ({
  userId: principal.userId,
  allowed: (scope) => can(principal, scope),
  projectIds: principal.projectIds,
  everyKey: canOrganizationWide(principal, 'organization_member:write'),
});

/**
 * `/api/personal_api_keys/`: a user's own keys; for admins and owners every key of the organization, the command line's
 * (the first start's among them) included. Secrets are shown once, at creation.
 */
export const personalApiKeyRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { keys: ApiKeyService }>> = async (app, { services }) => {
  const tags = ['personal API keys'];
  // A key limited to some projects reaches the keys it could have made (`reaches`), itself among them.
  const read = authorize(services, 'personal_api_key:read', { projectLimitedKeys: true });
  const write = authorize(services, 'personal_api_key:write', { projectLimitedKeys: true });

  app.get(
    '/api/personal_api_keys',
    { onRequest: read, schema: { tags, response: { 200: Type.Object({ results: Type.Array(KeySchema) }), ...errorResponses } } },
    async (request) => ({ results: (await services.keys.listOf(managerOf(request.principal!))).map(shown) }),
  );

  app.post<{ Body: Static<typeof CreateBody> }>(
    '/api/personal_api_keys',
    { onRequest: write, schema: { tags, body: CreateBody, response: { 201: CreatedKeySchema, ...errorResponses } } },
    async (request, reply) => {
      const { key, secret } = await services.keys.createPersonal(managerOf(request.principal!), {
        label: request.body.label,
        scopes: request.body.scopes,
        projectIds: request.body.project_ids ?? null,
        projectExists: async (id) => Boolean(await services.projects.get(id)),
        actor: actorOf(request),
      });
      return reply.code(201).send({ ...shown(key), value: secret });
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/personal_api_keys/:id',
    {
      onRequest: write,
      schema: { tags, params: IdParams, response: { 204: Type.Null({ description: 'revoked: requests with it get 401' }), ...errorResponses } },
    },
    async (request, reply) => {
      const manager = managerOf(request.principal!);
      if (!UUID.test(request.params.id) || !(await services.keys.revokeOwn(request.params.id, manager, actorOf(request)))) throw noKey();
      return reply.code(204).send();
    },
  );
};
