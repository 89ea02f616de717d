import type { IngestService } from '../capture/ingest';
import type { AuthLookups } from '../http/auth';
import type { ProjectsByToken } from '../http/project-token';
import type { Core, RouteContext, ServerModule } from '../module';
import { llmEventsStep } from './ingest';
import { otelRoutes } from './otel/routes';
import { llmRoutes } from './routes';
import { LlmService, PRICES_ACTIVITY } from './service';
import { TracesService } from './traces';
import { UsageService } from './usage';

type RouteServices = AuthLookups & {
  llm: LlmService;
  llmUsage: UsageService;
  llmTraces: TracesService;
  ingest: IngestService;
  projects: ProjectsByToken;
};

/**
 * LLM observability: every `$ai_generation`, `$ai_embedding`, `$ai_span` and `$ai_trace` event (from `/batch/` or
 * `/i/v0/ai/batch/`, or made of OpenTelemetry spans at `/i/v0/ai/otel`) gets a row with its tokens, cost, latency and
 * place in its trace, in the event's transaction; the API lists generations and traces, shows a trace as a tree and adds
 * usage up per day, model, provider or flag variant.
 */
export const llmModule = {
  name: 'llm',
  services: ({ db, ingest }: Pick<Core, 'db'> & { ingest: IngestService }) => {
    ingest.pipeline.use(llmEventsStep(db));
    const llm = new LlmService(db);
    return { llm, llmUsage: new UsageService(db, llm), llmTraces: new TracesService(db, llm) };
  },
  routes: async (app, context: RouteContext<RouteServices>) => {
    await app.register(llmRoutes, context);
    await app.register(otelRoutes, context);
  },
  activityKinds: { [PRICES_ACTIVITY]: { object: 'llm' } },
} satisfies ServerModule;
