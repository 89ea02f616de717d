import type { FastifyInstance } from 'fastify';
import type { Core, ServerModule } from '../module';
import { llmPromptRoutes } from './routes';
import { sdkPromptRoutes } from './sdk-routes';
import { LlmPromptService, PROMPT_ACTIVITY } from './service';

type Routes = Parameters<typeof llmPromptRoutes>[1] & Parameters<typeof sdkPromptRoutes>[1];

/**
 * LLM prompts: versioned templates with labels (such as `production`) moved between versions, managed through the
 * API and read by `@posthog/ai`'s `Prompts` at the endpoint it calls, so a prompt change ships like a flag change.
 */
export const llmPromptsModule = {
  name: 'llm-prompts',
  services: ({ db }: Pick<Core, 'db'>) => ({ llmPrompts: new LlmPromptService(db) }),
  routes: async (app: FastifyInstance, context: Routes) => {
    await app.register(llmPromptRoutes, context);
    await app.register(sdkPromptRoutes, context);
  },
  activityKinds: { [PROMPT_ACTIVITY]: { object: 'llm' } },
} satisfies ServerModule;
