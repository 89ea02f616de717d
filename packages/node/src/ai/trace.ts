import type { Service } from '../client';
import { cut, errorText, secondsSince } from './capture';
import { currentScope, newId, runInScope, type AiScope } from './context';

/** A trace or span: its name, and what is known of who and what it is for. */
export interface ScopeOptions {
  name: string;
  /** Whom the trace is for; generations inside take it unless they name their own. Default: inherited. */
  distinctId?: string;
  /** Traces only: the trace id (to join one started elsewhere). Default: a new UUID. */
  traceId?: string;
  /** Sent on the trace or span event and on every generation inside. */
  properties?: Record<string, unknown>;
  groups?: Record<string, string>;
  /** Sends no input or output state, and makes generations inside send none. */
  privacyMode?: boolean;
  /** `$ai_input_state`: what the step started from. */
  input?: unknown;
}

/** The ids of the running trace or span, for linking events captured elsewhere. */
export interface ScopeIds {
  traceId: string;
  spanId: string;
}

type Kind = '$ai_trace' | '$ai_span';

async function runScope<T>(service: Service, kind: Kind, options: ScopeOptions | string, fn: (ids: ScopeIds) => T | Promise<T>): Promise<T> {
  const o = typeof options === 'string' ? { name: options } : options;
  const parent = currentScope();
  // A span outside any trace starts one of its own, so its generations still share a trace id.
  const traceId = (kind === '$ai_trace' ? o.traceId : parent?.traceId) ?? newId();
  const spanId = kind === '$ai_trace' ? traceId : newId();
  const scope: AiScope = {
    traceId,
    spanId,
    distinctId: o.distinctId ?? parent?.distinctId,
    groups: o.groups ?? parent?.groups,
    properties: parent?.properties || o.properties ? { ...parent?.properties, ...o.properties } : undefined,
    privacyMode: o.privacyMode ?? parent?.privacyMode,
  };
  const start = performance.now();
  const finish = (output: unknown, error?: unknown) => {
    try {
      const props: Record<string, unknown> = {
        $ai_trace_id: traceId,
        $ai_span_name: o.name,
        $ai_latency: secondsSince(start),
        $ai_input_state: scope.privacyMode ? null : cut(o.input),
        $ai_output_state: scope.privacyMode ? null : cut(output),
        ...scope.properties,
      };
      if (kind === '$ai_span') Object.assign(props, { $ai_span_id: spanId, $ai_parent_id: parent?.spanId ?? traceId });
      if (error !== undefined) Object.assign(props, { $ai_is_error: true, $ai_error: errorText(error) });
      if (!scope.distinctId) props.$process_person_profile = false;
      service.capture({ distinctId: scope.distinctId ?? traceId, event: kind, properties: props, ...(scope.groups ? { groups: scope.groups } : {}) });
    } catch {
      // Observability is best effort: the step's own outcome is what the caller gets.
    }
  };
  let result: T;
  try {
    result = await runInScope(scope, () => fn({ traceId, spanId }));
  } catch (error) {
    finish(undefined, error);
    throw error;
  }
  finish(result);
  return result;
}

/**
 * Runs `fn` as a trace (an `$ai_trace` event when it ends, with its latency, input and output): generations
 * and spans made inside, however deep in async calls, carry its trace id and nest under it. Returns what
 * `fn` returns and rethrows what it throws (captured with `$ai_is_error`).
 *
 * ```ts
 * await trace(service, { name: 'answer-ticket', distinctId: 'user_42', input: ticket }, async () => {
 *   const plan = await span(service, 'plan', () => openai.chat.completions.create({ ... }));
 *   ...
 * });
 * ```
 */
export function trace<T>(service: Service, options: ScopeOptions | string, fn: (ids: ScopeIds) => T | Promise<T>): Promise<T> {
  return runScope(service, '$ai_trace', options, fn);
}

/** Runs `fn` as a span (`$ai_span`) of the current trace or span; see {@link trace}. */
export function span<T>(service: Service, options: ScopeOptions | string, fn: (ids: ScopeIds) => T | Promise<T>): Promise<T> {
  return runScope(service, '$ai_span', options, fn);
}

/** Where feedback or a metric goes: the trace (default: the current one) and whom it is from. */
export interface ScoreTarget {
  traceId?: string;
  distinctId?: string;
}

/** Sends a score event for a trace; false (and nothing sent) when there is no trace to attach it to. */
function score(service: Service, event: '$ai_feedback' | '$ai_metric', target: ScoreTarget, props: Record<string, unknown>): boolean {
  try {
    const scope = currentScope();
    const traceId = target.traceId ?? scope?.traceId;
    if (!traceId) return false;
    const distinctId = target.distinctId ?? scope?.distinctId;
    service.capture({
      distinctId: distinctId ?? traceId,
      event,
      properties: { $ai_trace_id: traceId, ...props, ...(distinctId ? {} : { $process_person_profile: false }) },
    });
    return true;
  } catch {
    return false;
  }
}

/** Captures a user's feedback on a trace (`$ai_feedback` with `$ai_feedback_text`). Never throws. */
export function captureFeedback(service: Service, text: string, target: ScoreTarget = {}): boolean {
  return score(service, '$ai_feedback', target, { $ai_feedback_text: text });
}

/**
 * Captures a score of a trace (`$ai_metric`): a name and a value, sent as text as the browser SDK does.
 * Never throws.
 */
export function captureMetric(service: Service, name: string, value: string | number | boolean, target: ScoreTarget = {}): boolean {
  return score(service, '$ai_metric', target, { $ai_metric_name: name, $ai_metric_value: String(value) });
}
