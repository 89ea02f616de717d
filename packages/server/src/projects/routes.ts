import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { PageQuery, ProjectParams, Text, errorResponses, pageOfSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import type { ProjectService } from './service';

const ProjectSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    api_token: Type.String({ description: 'public project token for SDKs' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Project' },
);

const ProjectBody = Type.Object({ name: Text({ minLength: 1, maxLength: 200 }) });

/** `/api/projects/`: the projects the key can see, the way to obtain `:project_id`; creating and renaming (scope project:write). */
export const projectRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { projects: ProjectService }>> = async (app, { services }) => {
  const read = authorize(services, 'project:read');
  // A key limited to some projects lists those; it cannot create one (an organization-level route).
  const list = authorize(services, 'project:read', { projectLimitedKeys: true });
  // Project settings: admins and owners.
  const write = authorize(services, 'project:write');
  const tags = ['projects'];

  app.get(
    '/api/projects',
    { onRequest: list, schema: { tags, querystring: PageQuery, response: { 200: pageOfSchema(ProjectSchema), ...errorResponses } } },
    async (request) => {
      const page = pageParams(request);
      const { count, rows } = await services.projects.page(request.principal!.projectIds, page.limit, page.offset);
      return pageOf(request, count, rows, page);
    },
  );

  app.get<{ Params: Static<typeof ProjectParams> }>(
    '/api/projects/:project_id',
    { onRequest: read, schema: { tags, params: ProjectParams, response: { 200: ProjectSchema, ...errorResponses } } },
    async (request) => request.project!,
  );

  app.post<{ Body: Static<typeof ProjectBody> }>(
    '/api/projects',
    { onRequest: write, schema: { tags, body: ProjectBody, response: { 201: ProjectSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await services.projects.create(request.body.name, actorOf(request))),
  );

  app.patch<{ Params: Static<typeof ProjectParams>; Body: Static<typeof ProjectBody> }>(
    '/api/projects/:project_id',
    { onRequest: write, schema: { tags, params: ProjectParams, body: ProjectBody, response: { 200: ProjectSchema, ...errorResponses } } },
    async (request) => services.projects.rename(request.project!.id, request.body.name, actorOf(request)),
  );
};
