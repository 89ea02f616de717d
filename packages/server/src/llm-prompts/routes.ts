import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { projectRoutes } from '../http/project-routes';
import { ProjectItemParams, errorResponses } from '../http/schemas';
import type { RouteContext } from '../module';
import { LabelName, LabelSet, PromptCreate, PromptListQuery, PromptSchema, PromptVersionList, VersionCreate } from './schemas';
import type { LlmPromptService } from './service';

const LabelParams = Type.Object({ project_id: Type.String(), id: Type.String(), label: LabelName });

/**
 * `/api/projects/:project_id/llm_prompts/`: prompts (list, create, retrieve, delete), their versions (a new one with
 * POST `…/versions/`, all of them with GET) and labels moved between versions (PUT / DELETE `…/labels/:label/`).
 * Scope `llm:read` / `llm:write`, as the rest of LLM observability.
 */
export const llmPromptRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { llmPrompts: LlmPromptService }>> = async (app, { services }) => {
  const tags = ['llm_prompts'];
  const prompts = services.llmPrompts;
  const routes = projectRoutes(app, services, { collection: 'llm_prompts', object: 'llm', tags });
  routes.list(PromptListQuery, PromptSchema, (projectId, { search }, page) => prompts.list(projectId, search || undefined, page.limit, page.offset));
  routes.create(PromptCreate, PromptSchema, (projectId, body, request) => prompts.create(projectId, body, actorOf(request)));
  routes.get(PromptSchema, (projectId, id) => prompts.get(projectId, id));
  routes.delete((projectId, id, request) => prompts.delete(projectId, id, actorOf(request)));

  const base = '/api/projects/:project_id/llm_prompts/:id';
  app.get<{ Params: Static<typeof ProjectItemParams> }>(
    `${base}/versions`,
    {
      onRequest: authorize(services, 'llm:read'),
      schema: { tags, summary: "A prompt's versions, newest first", params: ProjectItemParams, response: { 200: PromptVersionList, ...errorResponses } },
    },
    async (request) => ({ results: await prompts.versions(request.project!.id, request.params.id) }),
  );
  app.post<{ Params: Static<typeof ProjectItemParams>; Body: Static<typeof VersionCreate> }>(
    `${base}/versions`,
    {
      onRequest: authorize(services, 'llm:write'),
      schema: {
        tags,
        summary: 'Store the next version of a prompt (and move labels onto it)',
        params: ProjectItemParams,
        body: VersionCreate,
        response: { 201: PromptSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await prompts.addVersion(request.project!.id, request.params.id, request.body, actorOf(request))),
  );
  app.put<{ Params: Static<typeof LabelParams>; Body: Static<typeof LabelSet> }>(
    `${base}/labels/:label`,
    {
      onRequest: authorize(services, 'llm:write'),
      schema: {
        tags,
        summary: 'Point a label (such as production) at a version',
        params: LabelParams,
        body: LabelSet,
        response: { 200: PromptSchema, ...errorResponses },
      },
    },
    async (request) => prompts.setLabel(request.project!.id, request.params.id, request.params.label, request.body.version, actorOf(request)),
  );
  app.delete<{ Params: Static<typeof LabelParams> }>(
    `${base}/labels/:label`,
    {
      onRequest: authorize(services, 'llm:write'),
      schema: { tags, summary: 'Remove a label from a prompt', params: LabelParams, response: { 200: PromptSchema, ...errorResponses } },
    },
    async (request) => prompts.removeLabel(request.project!.id, request.params.id, request.params.label, actorOf(request)),
  );
};
