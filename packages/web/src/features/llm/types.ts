/** LLM observability as the API gives it (`/api/projects/:id/llm/…`, `…/llm_prompts/`). */
import type { components } from '../../api/schema.gen';
import type { Page } from '../../api/types';

type Schemas = components['schemas'];

/** A generation or embedding: tokens and costs are null when unknown (never 0 in their place); latency in seconds. */
export type Generation = Schemas['LlmGeneration'];
export type GenerationPage = Schemas['LlmGenerationPage'];
/** One trace of the traces list: its events added up. */
export type TraceSummary = Schemas['LlmTraceSummary'];
export type TraceSummaryPage = Schemas['LlmTraceSummaryPage'];
/** A node of a trace's tree: a trace, span, generation or embedding, with the events below it. */
export type TraceNode = Omit<Schemas['LlmTraceNode'], 'children'> & { children: TraceNode[] };
export type Trace = Omit<Schemas['LlmTrace'], 'children'> & { children: TraceNode[] };
export type Usage = Schemas['LlmUsage'];
export type UsageSeries = Usage['series'][number];
export type Prompt = Schemas['LlmPrompt'];
export type PromptPage = Page<Prompt>;
export type PromptVersion = Schemas['LlmPromptVersion'];
