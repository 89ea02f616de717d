import { createHash } from 'node:crypto';
import type { Properties } from '../../json';
import { Slices } from '../../turns';
import { Attrs } from './attributes';
import { completionOf, inputOf, toolsOf } from './messages';
import { SpanError, type OtlpSpan, type Refusal } from './spans';

/**
 * OTLP spans as the events the wrappers send: a model call (a span with GenAI attributes, or the Vercel AI SDK's
 * `ai.*.doGenerate` / `doStream`) is an `$ai_generation` (`$ai_embedding` for embeddings) with the same properties;
 * other LLM spans (an agent, a tool call, the AI SDK's `ai.generateText`) and the spans above a kept span in the same
 * export are `$ai_span`, or `$ai_trace` for a root. Spans of nothing LLM (HTTP, database) are left out.
 */

/** An event as a capture body holds one. */
export interface CaptureItem {
  event: string;
  distinct_id: string;
  uuid: string;
  timestamp: string;
  properties: Properties;
}

export interface SpanEvents {
  /** Each kept span's event, in the export's order. */
  events: { span: OtlpSpan; item: CaptureItem }[];
  refused: Refusal[];
}

type Kind = 'generation' | 'embedding' | 'llm' | 'other';

/** The Vercel AI SDK's spans that are one call to a model. */
const VERCEL_CALLS = new Map<string, Kind>([
  ['ai.generateText.doGenerate', 'generation'],
  ['ai.streamText.doStream', 'generation'],
  ['ai.generateObject.doGenerate', 'generation'],
  ['ai.streamObject.doStream', 'generation'],
  ['ai.embed.doEmbed', 'embedding'],
  ['ai.embedMany.doEmbed', 'embedding'],
]);
/** `gen_ai.operation.name` values that are a call to a model. */
const MODEL_OPERATIONS = new Map<string, Kind>([
  ['chat', 'generation'],
  ['text_completion', 'generation'],
  ['completion', 'generation'],
  ['generate_content', 'generation'],
  ['embeddings', 'embedding'],
]);
/** What an LLM span's attributes (or name) start with, as `@posthog/ai`'s span filter reads them. */
const LLM_PREFIXES = ['gen_ai.', 'llm.', 'ai.', 'traceloop.'];
/** Where the user a span is for is named, span first, then its ancestors, then the resource. */
const DISTINCT_ID_KEYS = ['posthog.distinct_id', 'user.id', 'ai.telemetry.metadata.userId', 'enduser.id'];
const SESSION_ID_KEYS = ['posthog.session_id', 'session.id', 'ai.telemetry.metadata.sessionId'];
/** The request parameters the conventions name, as the wrappers name them in `$ai_model_parameters`. */
const PARAMETERS = ['temperature', 'max_tokens', 'top_p', 'top_k', 'frequency_penalty', 'presence_penalty', 'seed'];

function kindOf(span: OtlpSpan, attrs: Attrs): Kind {
  const vercel = VERCEL_CALLS.get(attrs.str('ai.operationId') ?? span.name);
  if (vercel) return vercel;
  if (attrs.has('ai.operationId') || span.name.startsWith('ai.')) return 'llm';
  const operation = attrs.str('gen_ai.operation.name');
  if (operation !== undefined) return MODEL_OPERATIONS.get(operation) ?? 'llm';
  const type = attrs.str('llm.request.type');
  if (type === 'embedding') return 'embedding';
  if (type === 'chat' || type === 'completion') return 'generation';
  if (attrs.has('gen_ai.request.model') || attrs.has('gen_ai.response.model')) return 'generation';
  return LLM_PREFIXES.some((p) => span.name.startsWith(p)) || attrs.anyStartsWith(LLM_PREFIXES) ? 'llm' : 'other';
}

const seconds = (nanos: bigint) => Number(nanos) / 1e9;

/**
 * A UUID (version 7's layout: the span's start in milliseconds first) made from the trace and span ids, so that an
 * export sent again (exporters retry) stores each span once.
 */
function uuidOf(span: OtlpSpan): string {
  const b = createHash('sha256').update(`${span.traceId}:${span.spanId}`).digest().subarray(0, 16);
  b.writeUIntBE(Math.min(Number(span.startNs / 1_000_000n), 2 ** 48 - 1), 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `$ai_provider`: the AI SDK names a provider with its API (`openai.chat`); the conventions name it alone. */
function providerOf(attrs: Attrs): string | undefined {
  const vercel = attrs.str('ai.model.provider');
  if (vercel) return vercel.split('.')[0];
  return attrs.str('gen_ai.provider.name') ?? attrs.str('gen_ai.system');
}

/** Why a span failed: its status message, else its exception event's, else `error.type`. */
function errorOf(span: OtlpSpan, attrs: Attrs): string {
  const exception = span.events.find((e) => e.name === 'exception')?.attributes;
  const thrown = exception && new Attrs(exception);
  const message = thrown?.str('exception.message');
  const type = thrown?.str('exception.type');
  return span.statusMessage ?? (message ? (type ? `${type}: ${message}` : message) : undefined) ?? attrs.str('error.type') ?? 'error';
}

/** The tokens as the wrappers send them: Anthropic's input tokens without the cached ones (as its API counts them). */
function tokensOf(attrs: Attrs, provider: string | undefined): Properties {
  const first = (...keys: string[]) => keys.map((k) => attrs.count(k)).find((v) => v !== undefined);
  let input = first('gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'ai.usage.inputTokens', 'ai.usage.promptTokens', 'ai.usage.tokens');
  const output = first('gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'ai.usage.outputTokens', 'ai.usage.completionTokens');
  const cacheRead = first(
    'gen_ai.usage.cache_read.input_tokens',
    'gen_ai.usage.cache_read_input_tokens',
    'ai.usage.inputTokenDetails.cacheReadTokens',
    'ai.usage.cachedInputTokens',
  );
  const cacheCreation = first(
    'gen_ai.usage.cache_creation.input_tokens',
    'gen_ai.usage.cache_creation_input_tokens',
    'ai.usage.inputTokenDetails.cacheWriteTokens',
  );
  const reasoning = first('gen_ai.usage.reasoning.output_tokens', 'gen_ai.usage.reasoning_tokens', 'ai.usage.reasoningTokens');
  if (input === undefined && output === undefined) return { $ai_usage_missing: true };
  // The conventions (and the AI SDK) count cached tokens inside the input tokens, as OpenAI does.
  if (provider?.toLowerCase() === 'anthropic' && input !== undefined) {
    input = attrs.count('ai.usage.inputTokenDetails.noCacheTokens') ?? Math.max(0, input - (cacheRead ?? 0) - (cacheCreation ?? 0));
  }
  const tokens: Properties = {};
  if (input !== undefined) tokens.$ai_input_tokens = input;
  if (output !== undefined) tokens.$ai_output_tokens = output;
  if (cacheRead) tokens.$ai_cache_read_input_tokens = cacheRead;
  if (cacheCreation) tokens.$ai_cache_creation_input_tokens = cacheCreation;
  if (reasoning) tokens.$ai_reasoning_tokens = reasoning;
  return tokens;
}

function parametersOf(attrs: Attrs): Properties {
  const parameters: Properties = {};
  for (const name of PARAMETERS) {
    const value = attrs.num(`gen_ai.request.${name}`);
    if (value !== undefined) parameters[name] = value;
  }
  const stop = attrs.strs('gen_ai.request.stop_sequences');
  if (stop) parameters.stop = stop;
  return parameters;
}

/** The properties of a model call's event. */
function generationProperties(span: OtlpSpan, attrs: Attrs): Properties {
  const provider = providerOf(attrs);
  const { output, stopReason } = completionOf(attrs);
  const properties: Properties = {
    $ai_lib: 'opentelemetry',
    $ai_provider: provider,
    $ai_model: attrs.str('gen_ai.response.model') ?? attrs.str('ai.response.model') ?? attrs.str('gen_ai.request.model') ?? attrs.str('ai.model.id'),
    $ai_model_parameters: parametersOf(attrs),
    $ai_input: inputOf(attrs) ?? null,
    $ai_output_choices: output ?? null,
    ...tokensOf(attrs, provider),
  };
  const firstChunk = attrs.num('ai.response.msToFirstChunk');
  if (firstChunk !== undefined) properties.$ai_time_to_first_token = firstChunk / 1000;
  if (stopReason !== undefined) properties.$ai_stop_reason = stopReason;
  const tools = toolsOf(attrs);
  if (tools !== undefined) properties.$ai_tools = tools;
  const status = attrs.count('http.response.status_code') ?? attrs.count('http.status_code');
  if (status !== undefined) properties.$ai_http_status = status;
  return properties;
}

/** The properties of a span's or trace's event: what it started from and ended with, when it says. */
function spanProperties(attrs: Attrs): Properties {
  const input = attrs.json('ai.prompt') ?? attrs.json('ai.toolCall.args') ?? attrs.json('gen_ai.tool.call.arguments') ?? attrs.json('traceloop.entity.input');
  const output =
    attrs.str('ai.response.text') ??
    attrs.json('ai.response.object') ??
    attrs.json('ai.toolCall.result') ??
    attrs.json('gen_ai.tool.call.result') ??
    attrs.json('traceloop.entity.output');
  const properties: Properties = {};
  if (input !== undefined) properties.$ai_input_state = input;
  if (output !== undefined) properties.$ai_output_state = output;
  return properties;
}

/**
 * The events of an export's valid spans, in slices with turns of the event loop between them (an export holds up to
 * megabytes of prompts to parse); a span whose attributes have the wrong types is refused.
 */
export async function eventsOfSpans(spans: readonly OtlpSpan[]): Promise<SpanEvents> {
  const byId = new Map<string, OtlpSpan>();
  for (const span of spans) if (!byId.has(`${span.traceId}/${span.spanId}`)) byId.set(`${span.traceId}/${span.spanId}`, span);
  const parentOf = (span: OtlpSpan) => (span.parentId === undefined ? undefined : byId.get(`${span.traceId}/${span.parentId}`));
  /** The span and those above it in the export, nearest first (a cycle in the ids sent ends the walk). */
  const lineage = function* (span: OtlpSpan) {
    const seen = new Set<OtlpSpan>();
    for (let at: OtlpSpan | undefined = span; at && !seen.has(at); at = parentOf(at)) {
      seen.add(at);
      yield at;
    }
  };

  const result: SpanEvents = { events: [], refused: [] };
  const refused = new Set<OtlpSpan>();
  const refuse = (span: OtlpSpan, error: unknown) => {
    if (!(error instanceof SpanError)) throw error;
    refused.add(span);
    result.refused.push({ at: span.at, order: span.order, reason: error.message });
  };
  const slices = new Slices();
  await slices.begin();
  const kinds = new Map<OtlpSpan, Kind>();
  for (const span of spans) {
    if (slices.over) await slices.next();
    try {
      kinds.set(span, kindOf(span, new Attrs(span.attributes)));
    } catch (error) {
      refuse(span, error);
    }
  }
  // An LLM span keeps the spans above it: they are the steps and the trace it is part of.
  const kept = new Set<OtlpSpan>();
  for (const [span, kind] of kinds) {
    if (kind === 'other' || kept.has(span)) continue;
    for (const at of lineage(span)) kept.add(at);
  }
  const inherited = (span: OtlpSpan, keys: readonly string[]) => {
    for (const at of lineage(span)) {
      const attrs = new Attrs(at.attributes);
      for (const key of keys) {
        const value = attrs.id(key);
        if (value !== undefined) return value;
      }
    }
    const resource = new Attrs(span.resource);
    return keys.map((key) => resource.id(key)).find((value) => value !== undefined);
  };

  for (const span of spans) {
    if (!kept.has(span) || refused.has(span)) continue;
    if (slices.over) await slices.next();
    try {
      result.events.push({ span, item: itemOf(span, kinds.get(span) ?? 'other', inherited) });
    } catch (error) {
      refuse(span, error);
    }
  }
  return result;
}

function itemOf(span: OtlpSpan, kind: Kind, inherited: (span: OtlpSpan, keys: readonly string[]) => string | undefined): CaptureItem {
  const attrs = new Attrs(span.attributes);
  const call = kind === 'generation' || kind === 'embedding';
  const properties: Properties = {
    $ai_trace_id: span.traceId,
    $ai_span_id: span.spanId,
    $ai_span_name: call ? span.name : (attrs.str('ai.telemetry.functionId') ?? span.name),
    $ai_latency: seconds(span.endNs - span.startNs),
    ...(call ? generationProperties(span, attrs) : spanProperties(attrs)),
  };
  if (span.parentId !== undefined) properties.$ai_parent_id = span.parentId;
  if (span.statusCode === 2) Object.assign(properties, { $ai_is_error: true, $ai_error: errorOf(span, attrs) });
  const session = inherited(span, SESSION_ID_KEYS);
  if (session !== undefined) properties.$session_id = session;
  const distinctId = inherited(span, DISTINCT_ID_KEYS);
  if (distinctId === undefined) properties.$process_person_profile = false;
  return {
    event: kind === 'generation' ? '$ai_generation' : kind === 'embedding' ? '$ai_embedding' : span.parentId === undefined ? '$ai_trace' : '$ai_span',
    distinct_id: distinctId ?? span.traceId,
    uuid: uuidOf(span),
    timestamp: new Date(Number(span.startNs / 1_000_000n)).toISOString(),
    properties,
  };
}
