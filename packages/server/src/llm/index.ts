import type { IngestService } from '../capture/ingest';
import type { Core, ServerModule } from '../module';
import { llmEventsStep } from './ingest';
import { llmRoutes } from './routes';
import { LlmService, PRICES_ACTIVITY } from './service';
import { TracesService } from './traces';
import { UsageService } from './usage';

/**
 * LLM observability: every `$ai_generation`, `$ai_embedding`, `$ai_span` and `$ai_trace` event (from `/batch/` or
 * `/i/v0/ai/batch/`) gets a row with its tokens, cost, latency and place in its trace, in the event's transaction; the
 * API lists generations and traces, shows a trace as a tree and adds usage up per day, model, provider or flag variant.
 */
export const llmModule = {
  name: 'llm',
  services: ({ db, ingest }: Pick<Core, 'db'> & { ingest: IngestService }) => {
    ingest.pipeline.use(llmEventsStep(db));
    const llm = new LlmService(db);
    return { llm, llmUsage: new UsageService(db, llm), llmTraces: new TracesService(db, llm) };
  },
  routes: llmRoutes,
  activityKinds: { [PRICES_ACTIVITY]: { object: 'llm' } },
} satisfies ServerModule;
