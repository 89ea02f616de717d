import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { PageQuery, ProjectParams, errorResponses, pageOfSchema } from '../http/schemas';
import type { Services } from '../services';

const ProjectSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  api_token: Type.String({ description: 'public project token for SDKs' }),
  created_at: Type.String({ format: 'date-time' }),
});

/** `/api/projects/`: the projects the key can see; the way to obtain `:project_id`. */
export const projectRoutes: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const read = authorize(services, 'project:read');
  const tags = ['projects'];

  app.get(
    '/api/projects',
    { onRequest: read, schema: { tags, querystring: PageQuery, response: { 200: pageOfSchema(ProjectSchema), ...errorResponses } } },
    async (request) => {
      const page = pageParams(request);
      const { count, rows } = await services.projects.page(request.apiKey!.project_ids, page.limit, page.offset);
      return pageOf(request, count, rows, page);
    },
  );

  app.get<{ Params: Static<typeof ProjectParams> }>(
    '/api/projects/:project_id',
    { onRequest: read, schema: { tags, params: ProjectParams, response: { 200: ProjectSchema, ...errorResponses } } },
    async (request) => request.project!,
  );
};
