import type { Service } from '../client';
import { currentScope, newId } from './context';

/** The largest `$ai_input` / `$ai_output_choices` sent, in UTF-8 bytes, as `@posthog/ai` cuts them. */
export const MAX_CONTENT_BYTES = 200_000;

/** Per-call options, named as `@posthog/ai` takes them; removed from the request before it reaches the provider. */
export interface AiCallOptions {
  posthogDistinctId?: string;
  posthogTraceId?: string;
  posthogProperties?: Record<string, unknown>;
  posthogGroups?: Record<string, string>;
  /** Sends `$ai_input` and `$ai_output_choices` as null. */
  posthogPrivacyMode?: boolean;
  posthogModelOverride?: string;
  posthogProviderOverride?: string;
  /** USD per token, when the caller knows its price better than the service's price table. */
  posthogCostOverride?: { inputCost: number; outputCost: number };
}

/** Options applied to every call of a wrapped client (a per-call option wins). */
export interface AiDefaults {
  distinctId?: string;
  traceId?: string;
  properties?: Record<string, unknown>;
  groups?: Record<string, string>;
  privacyMode?: boolean;
}

const CALL_OPTION_KEYS = [
  'posthogDistinctId',
  'posthogTraceId',
  'posthogProperties',
  'posthogGroups',
  'posthogPrivacyMode',
  'posthogModelOverride',
  'posthogProviderOverride',
  'posthogCostOverride',
  'posthogCaptureImmediate',
] as const;

/** Splits the caller's body into the request the provider gets and our options. Never throws. */
export function splitOptions<T>(body: T): { request: T; options: AiCallOptions } {
  if (body === null || typeof body !== 'object' || !CALL_OPTION_KEYS.some((k) => k in body)) return { request: body, options: {} };
  const request = { ...body } as Record<string, unknown>;
  const options: Record<string, unknown> = {};
  for (const key of CALL_OPTION_KEYS) {
    if (key in request) {
      options[key] = request[key];
      delete request[key];
    }
  }
  return { request: request as T, options: options as AiCallOptions };
}

/** Token counts as the provider reported them; absent when it did not. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
  reasoningTokens?: number;
}

/** One call to a model, as observed by a wrapper. */
export interface Generation {
  event: '$ai_generation' | '$ai_embedding';
  provider: string;
  model: unknown;
  input: unknown;
  output: unknown;
  /** Undefined when the provider sent no usage: the event says so instead of counting 0. */
  usage: Usage | undefined;
  /** Seconds. */
  latency: number;
  /** Seconds, streams only. */
  timeToFirstToken?: number;
  httpStatus?: number;
  error?: unknown;
  stopReason?: unknown;
  tools?: unknown;
  baseURL?: string;
  stream: boolean;
  modelParameters?: Record<string, unknown>;
}

/** A JSON value cut to {@link MAX_CONTENT_BYTES}: a longer one is sent as its first bytes and `... [truncated]`. */
export function cut(value: unknown): unknown {
  if (value === undefined || value === null) return value ?? null;
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return null;
  }
  if (text === undefined) return null;
  // Three bytes per UTF-16 unit at most: short content skips the encoding.
  if (text.length * 3 <= MAX_CONTENT_BYTES) return value;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_CONTENT_BYTES) return value;
  let head = bytes.subarray(0, MAX_CONTENT_BYTES).toString('utf8');
  if (head.endsWith('\uFFFD')) head = head.slice(0, -1);
  return `${head}... [truncated]`;
}

/** `$ai_error`: the provider's message (and status) as text. */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    return typeof error === 'string' ? error : JSON.stringify(error);
  } catch {
    return 'unserializable error';
  }
}

const statusOf = (error: unknown): number => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : 500;
};

/** A finite non-negative count, or undefined: providers' odd values are not turned into numbers. */
export const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);

/**
 * Captures a generation through the client's queue. Swallows its own failures: observing a call must never
 * change what the caller sees.
 */
export function captureGeneration(service: Service, defaults: AiDefaults, options: AiCallOptions, g: Generation): void {
  try {
    const scope = currentScope();
    const traceId = options.posthogTraceId ?? scope?.traceId ?? defaults.traceId ?? newId();
    const distinctId = options.posthogDistinctId ?? scope?.distinctId ?? defaults.distinctId;
    const privacy = options.posthogPrivacyMode ?? scope?.privacyMode ?? defaults.privacyMode ?? false;
    const usage = g.usage;
    const props: Record<string, unknown> = {
      $ai_lib: 'service-node',
      $ai_provider: options.posthogProviderOverride ?? g.provider,
      $ai_model: options.posthogModelOverride ?? g.model,
      $ai_model_parameters: g.modelParameters ?? {},
      $ai_input: privacy ? null : cut(g.input),
      $ai_output_choices: privacy ? null : cut(g.output),
      $ai_http_status: g.httpStatus ?? (g.error === undefined ? 200 : statusOf(g.error)),
      $ai_latency: g.latency,
      $ai_trace_id: traceId,
      $ai_span_id: newId(),
      $ai_stream: g.stream,
      $ai_base_url: g.baseURL ?? '',
    };
    if (scope) props.$ai_parent_id = scope.spanId;
    if (g.timeToFirstToken !== undefined) props.$ai_time_to_first_token = g.timeToFirstToken;
    if (usage === undefined) props.$ai_usage_missing = true;
    else {
      if (usage.inputTokens !== undefined) props.$ai_input_tokens = usage.inputTokens;
      if (usage.outputTokens !== undefined) props.$ai_output_tokens = usage.outputTokens;
      if (usage.cacheReadInputTokens) props.$ai_cache_read_input_tokens = usage.cacheReadInputTokens;
      if (usage.cacheCreationInputTokens) props.$ai_cache_creation_input_tokens = usage.cacheCreationInputTokens;
      if (usage.reasoningTokens) props.$ai_reasoning_tokens = usage.reasoningTokens;
    }
    if (g.stopReason !== undefined && g.stopReason !== null) props.$ai_stop_reason = g.stopReason;
    if (g.tools !== undefined) props.$ai_tools = g.tools;
    const cost = options.posthogCostOverride;
    if (cost && usage) {
      const input = (cost.inputCost ?? 0) * (usage.inputTokens ?? 0);
      const output = (cost.outputCost ?? 0) * (usage.outputTokens ?? 0);
      Object.assign(props, { $ai_input_cost_usd: input, $ai_output_cost_usd: output, $ai_total_cost_usd: input + output });
    }
    if (g.error !== undefined) Object.assign(props, { $ai_is_error: true, $ai_error: errorText(g.error) });
    Object.assign(props, defaults.properties, scope?.properties, options.posthogProperties);
    if (!distinctId) props.$process_person_profile = false;
    const groups = options.posthogGroups ?? scope?.groups ?? defaults.groups;
    service.capture({ distinctId: distinctId ?? traceId, event: g.event, properties: props, ...(groups ? { groups } : {}) });
  } catch {
    // Observability is best effort: the caller's call already succeeded or failed on its own.
  }
}

/** Seconds since `start` (a `performance.now()` reading). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000;
