import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { NotFoundError } from '../errors';
import { authorize, requireProject, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { projectByToken, projectTokenOf, type ProjectsByToken } from '../http/project-token';
import { errorResponses, intId, pageOfSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import { PromptName, ResolvedListQuery, ResolvedPromptSchema, ResolveQuery } from './schemas';
import type { LlmPromptService } from './service';

const NameParams = Type.Object({ name: PromptName });

/**
 * What `@posthog/ai`'s `Prompts` reads: `GET /api/environments/@current/llm_prompts/name/:name/?token=…[&version=][&label=]`
 * (`get()`) and `GET /api/environments/@current/llm_prompts/?token=…[&label=]&content=full` (`getAll()`), with the
 * user's personal API key as Bearer (scope `llm:read`) and the project named by its token. The client caches answers
 * (300 s by default), so a moved label reaches it within that time.
 */
export const sdkPromptRoutes: FastifyPluginAsync<
  RouteContext<AuthLookups & { projects: AuthLookups['projects'] & ProjectsByToken; llmPrompts: LlmPromptService }>
> = async (app, { services }) => {
  const tags = ['sdk'];
  // The key may be limited to some projects: the token's project must be one of them.
  const onRequest = authorize(services, 'llm:read', { projectLimitedKeys: true });
  const projectOfToken = async (request: FastifyRequest) => {
    request.project = await projectByToken(services.projects, projectTokenOf(undefined, request.query as Record<string, unknown>));
    requireProject({ project_ids: request.principal!.projectIds }, request.project.id);
  };
  const base = '/api/environments/@current/llm_prompts';

  app.get<{ Params: Static<typeof NameParams>; Querystring: Static<typeof ResolveQuery> }>(
    `${base}/name/:name`,
    {
      onRequest,
      preValidation: projectOfToken,
      schema: {
        tags,
        summary: "A prompt's version by name: the pinned version, else the label's, else the newest (@posthog/ai Prompts.get)",
        operationId: 'llm_prompts_by_name_retrieve',
        params: NameParams,
        querystring: ResolveQuery,
        response: { 200: ResolvedPromptSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { version, label } = request.query;
      // A version past what a version column holds is one no prompt has (a 404, not a query).
      const pinned = version === undefined ? undefined : (intId(version) ?? 0);
      const resolved = pinned === 0 ? undefined : await services.llmPrompts.resolve(request.project!.id, request.params.name, { version: pinned, label });
      if (!resolved)
        throw new NotFoundError(
          label !== undefined && version === undefined ? `No prompt "${request.params.name}" with label "${label}".` : 'Prompt not found.',
        );
      return resolved;
    },
  );

  app.get<{ Querystring: Static<typeof ResolvedListQuery> }>(
    base,
    {
      onRequest,
      preValidation: projectOfToken,
      schema: {
        tags,
        summary: "Every prompt at its newest version, or at a label's (@posthog/ai Prompts.getAll)",
        operationId: 'llm_prompts_resolved_list',
        querystring: ResolvedListQuery,
        response: { 200: pageOfSchema(ResolvedPromptSchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await services.llmPrompts.resolveAll(request.project!.id, request.query.label, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );
};
