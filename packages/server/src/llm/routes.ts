import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { PageQuery, ProjectParams, errorResponses, pageOfSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import { FilterQuery } from './filter-query';
import type { LlmService } from './service';
import { TraceSummarySchema, TracesQuery, type TracesService } from './traces';
import { UsageQuerySchema, UsageSchema, type UsageService } from './usage';

const GenerationsQuery = Type.Object({ ...FilterQuery, ...PageQuery.properties });

const num = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const nstr = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const generationFields = {
  id: Type.String({ description: 'the event uuid' }),
  kind: Type.String({ description: '`generation`, `embedding`, `span` or `trace`' }),
  model: nstr('`$ai_model`'),
  provider: nstr('`$ai_provider`'),
  input_tokens: num('null when the provider returned no usage'),
  output_tokens: num('null when the provider returned no usage'),
  cache_read_tokens: num('cached input tokens read'),
  cache_creation_tokens: num('input tokens written to the cache'),
  reasoning_tokens: num('reasoning tokens'),
  input_cost_usd: num('USD'),
  output_cost_usd: num('USD'),
  cost_usd: num('USD: the client’s when it sent one, else from the price table; null for an unknown model'),
  latency: num('seconds'),
  time_to_first_token: num('seconds, streamed calls'),
  http_status: num('the provider’s HTTP status'),
  trace_id: Type.String(),
  span_id: nstr('`$ai_span_id`'),
  parent_id: nstr('`$ai_parent_id`: the span or trace above'),
  name: nstr('`$ai_span_name`'),
  is_error: Type.Boolean(),
  error: nstr('`$ai_error`, cut to 8 KB'),
  distinct_id: Type.String(),
  person_id: nstr("the person's uuid when the event was stored"),
  session_id: nstr('`$session_id`: its recording'),
  flags: Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()]), { description: 'the flags and variants the call was made under' }),
  timestamp: Type.String(),
};
const GenerationSchema = Type.Object(generationFields, { title: 'LlmGeneration' });
const TraceSummaryPageSchema = Type.Object(pageOfSchema(TraceSummarySchema).properties, { title: 'LlmTraceSummaryPage' });
const GenerationPageSchema = Type.Object(pageOfSchema(GenerationSchema).properties, { title: 'LlmGenerationPage' });
// A node's children are nodes again: the schema refers to itself by its `$id`, which the OpenAPI document names
// `components.schemas.LlmTraceNode` (`http/openapi.ts`).
const TraceNodeSchema = Type.Object(
  {
    ...generationFields,
    properties: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
      description:
        'the event’s properties as captured, its inputs and outputs (`$ai_input`, `$ai_output_choices`, …) whole; null past the trace’s budget of 32 MB (in time order)',
    }),
    children: Type.Array(Type.Ref('LlmTraceNode'), { description: 'the events whose parent is this one' }),
  },
  { $id: 'LlmTraceNode', title: 'LlmTraceNode' },
);
const TraceSchema = Type.Object(
  {
    trace_id: Type.String(),
    start_time: Type.String(),
    generation_count: Type.Integer(),
    cost_usd: num('the generations’ cost added up; null when none has one'),
    is_error: Type.Boolean(),
    children: Type.Array(TraceNodeSchema, { description: 'the roots: events whose parent is not in the trace' }),
  },
  { title: 'LlmTrace' },
);
const PriceSchema = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$' }),
    model: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$', description: 'exact id; dated snapshots of it (`<model>-…`) match too' }),
    input: Type.Number({ minimum: 0, maximum: 1e6, description: 'USD per million input tokens' }),
    output: Type.Number({ minimum: 0, maximum: 1e6, description: 'USD per million output tokens' }),
    cache_read: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6, description: 'USD per million cached input tokens read' })),
    cache_write: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6, description: 'USD per million input tokens written to the cache' })),
  },
  { title: 'LlmPrice', additionalProperties: false },
);
const PricesSchema = Type.Object({ prices: Type.Array(PriceSchema, { maxItems: 1000 }) }, { title: 'LlmPrices', additionalProperties: false });

/**
 * `/api/projects/:project_id/llm/…`: generations filtered and paged, traces listed, a trace as a tree, usage by day and model,
 * provider or flag variant; `/llm_prices/`: the project's price overrides.
 */
export const llmRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { llm: LlmService; llmUsage: UsageService; llmTraces: TracesService }>> = async (
  app,
  { services },
) => {
  const base = '/api/projects/:project_id/llm';
  const tags = ['llm'];
  const read = authorize(services, 'llm:read');

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof GenerationsQuery> }>(
    `${base}/generations`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'List generations and embeddings, newest first',
        params: ProjectParams,
        querystring: GenerationsQuery,
        response: { 200: GenerationPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await services.llm.generations(request.project!.id, request.query, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof TracesQuery> }>(
    `${base}/traces`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'List traces, newest first: each with its generations, tokens, cost, latency and whether it failed',
        params: ProjectParams,
        querystring: TracesQuery,
        response: { 200: TraceSummaryPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await services.llmTraces.list(request.project!.id, request.query, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );

  const TraceParams = Type.Object({ project_id: Type.String(), trace_id: Type.String() });
  app.get<{ Params: Static<typeof TraceParams> }>(
    `${base}/traces/:trace_id`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'A trace: its spans and generations as a tree (`children`)',
        params: TraceParams,
        response: { 200: TraceSchema, ...errorResponses },
      },
    },
    async (request) => services.llm.trace(request.project!.id, request.params.trace_id),
  );

  app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof UsageQuerySchema> }>(
    `${base}/usage`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Calls, tokens, cost, latency p50/p95 and error rate per day, by model, provider or flag variant',
        params: ProjectParams,
        querystring: UsageQuerySchema,
        response: { 200: UsageSchema, ...errorResponses },
      },
    },
    async (request) => services.llmUsage.usage(request.project!.id, request.query),
  );

  const prices = '/api/projects/:project_id/llm_prices';
  app.get<{ Params: Static<typeof ProjectParams> }>(
    prices,
    {
      onRequest: read,
      schema: {
        tags,
        summary: "The project's price overrides (USD per million tokens)",
        params: ProjectParams,
        response: { 200: PricesSchema, ...errorResponses },
      },
    },
    async (request) => ({ prices: await services.llm.prices(request.project!.id) }),
  );
  app.put<{ Params: Static<typeof ProjectParams>; Body: Static<typeof PricesSchema> }>(
    prices,
    {
      onRequest: authorize(services, 'llm:write'),
      schema: {
        tags,
        summary: "Replace the project's price overrides; generations stored from now on are priced by them",
        params: ProjectParams,
        body: PricesSchema,
        response: { 200: PricesSchema, ...errorResponses },
      },
    },
    async (request) => ({ prices: await services.llm.setPrices(request.project!.id, request.body.prices, actorOf(request)) }),
  );
};
