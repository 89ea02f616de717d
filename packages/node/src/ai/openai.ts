import type { Service } from '../client';
import { captureGeneration, count, secondsSince, splitOptions, type AiCallOptions, type AiDefaults, type Generation, type Usage } from './capture';
import { chatMessage, chatOutput, responsesOutput } from './format';
import { instrument, observeCall } from './observe';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- provider payloads, read defensively

const PARAM_KEYS = [
  'temperature',
  'max_tokens',
  'max_completion_tokens',
  'max_output_tokens',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'n',
  'stop',
  'stream',
  'reasoning_effort',
];

export function modelParameters(body: Json): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of PARAM_KEYS) if (body[key] !== undefined) out[key] = body[key];
  return out;
}

function chatUsage(usage: Json | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  return {
    inputTokens: count(usage.prompt_tokens),
    outputTokens: count(usage.completion_tokens),
    cacheReadInputTokens: count(usage.prompt_tokens_details?.cached_tokens),
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens),
  };
}

function responsesUsage(usage: Json | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadInputTokens: count(usage.input_tokens_details?.cached_tokens),
    reasoningTokens: count(usage.output_tokens_details?.reasoning_tokens),
  };
}

/** `$ai_input` of a Responses call: its instructions as a system message, then its input. */
function responsesInput(body: Json): unknown {
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  return body.instructions ? [{ role: 'system', content: body.instructions }, ...(Array.isArray(input) ? input : [input])] : input;
}

interface ChatAccumulator {
  text: string;
  toolCalls: Map<number, { id?: string; type: string; function: { name: string; arguments: string } }>;
  usage?: Usage;
  model?: string;
  stopReason?: string;
  firstToken?: number;
}

/**
 * Captures every call of an official `openai` client (or `AzureOpenAI`) as `$ai_generation` / `$ai_embedding`
 * events: chat completions, responses and embeddings, streamed or not. Returns the same client; results,
 * streams and errors reach the caller unchanged. Per-call options (`posthogDistinctId`, `posthogTraceId`,
 * `posthogProperties`, `posthogGroups`, `posthogPrivacyMode`) go in the request body and are removed before
 * it is sent.
 *
 * ```ts
 * const openai = wrapOpenAI(new OpenAI(), service, { distinctId: 'user_42' });
 * await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, posthogTraceId: 'trace-1' });
 * ```
 */
export function wrapOpenAI<T extends object>(client: T, service: Service, defaults: AiDefaults = {}): T {
  const c = client as unknown as Json;
  const baseURL = typeof c.baseURL === 'string' ? c.baseURL : undefined;
  const capture = (options: AiCallOptions, g: Omit<Generation, 'baseURL'>) => captureGeneration(service, defaults, options, { ...g, baseURL });

  instrument(c.chat?.completions, (body, call, start) => {
    const { options } = splitOptions(body);
    const base = {
      event: '$ai_generation' as const,
      provider: 'openai',
      input: body.messages,
      tools: body.tools,
      stream: body.stream === true,
      modelParameters: modelParameters(body),
    };
    const acc: ChatAccumulator = { text: '', toolCalls: new Map() };
    observeCall<Json, Json>(call, {
      result: (r) =>
        capture(options, {
          ...base,
          model: body.model ?? r.model,
          output: chatOutput(r.choices),
          usage: chatUsage(r.usage),
          latency: secondsSince(start),
          stopReason: r.choices?.[0]?.finish_reason,
        }),
      failed: (error) => capture(options, { ...base, model: body.model, output: [], usage: undefined, latency: secondsSince(start), error }),
      chunk: (chunk) => {
        if (chunk.model) acc.model = chunk.model;
        if (chunk.usage) acc.usage = chatUsage(chunk.usage);
        const choice = chunk.choices?.[0];
        if (!choice) return;
        const delta = choice.delta ?? {};
        if (acc.firstToken === undefined && (delta.content || delta.tool_calls || delta.refusal)) acc.firstToken = performance.now();
        if (typeof delta.content === 'string') acc.text += delta.content;
        for (const tc of delta.tool_calls ?? []) {
          const seen = acc.toolCalls.get(tc.index) ?? { id: tc.id, type: 'function', function: { name: '', arguments: '' } };
          if (tc.id) seen.id = tc.id;
          if (tc.function?.name) seen.function.name += tc.function.name;
          if (tc.function?.arguments) seen.function.arguments += tc.function.arguments;
          acc.toolCalls.set(tc.index, seen);
        }
        if (choice.finish_reason) acc.stopReason = choice.finish_reason;
      },
      ended: (error) => {
        const message: Json = { role: 'assistant', content: acc.text };
        if (acc.toolCalls.size > 0) message.tool_calls = [...acc.toolCalls.values()];
        capture(options, {
          ...base,
          model: body.model ?? acc.model,
          output: [chatMessage(message)].filter(Boolean),
          usage: acc.usage,
          latency: secondsSince(start),
          timeToFirstToken: acc.firstToken === undefined ? undefined : (acc.firstToken - start) / 1000,
          stopReason: acc.stopReason,
          ...(error === undefined ? {} : { error }),
        });
      },
    });
  });

  instrument(c.responses, (body, call, start) => {
    const { options } = splitOptions(body);
    const base = {
      event: '$ai_generation' as const,
      provider: 'openai',
      input: responsesInput(body),
      tools: body.tools,
      stream: body.stream === true,
      modelParameters: modelParameters(body),
    };
    let final: Json | undefined;
    let text = '';
    let firstToken: number | undefined;
    observeCall<Json, Json>(call, {
      result: (r) =>
        capture(options, {
          ...base,
          model: body.model ?? r.model,
          output: responsesOutput(r.output),
          usage: responsesUsage(r.usage),
          latency: secondsSince(start),
          stopReason: r.status,
        }),
      failed: (error) => capture(options, { ...base, model: body.model, output: [], usage: undefined, latency: secondsSince(start), error }),
      chunk: (event) => {
        if (firstToken === undefined && typeof event.type === 'string' && event.type.endsWith('.delta')) firstToken = performance.now();
        if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') text += event.delta;
        if (event.response && (event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed'))
          final = event.response;
      },
      ended: (error) =>
        capture(options, {
          ...base,
          model: body.model ?? final?.model,
          output: final ? responsesOutput(final.output) : text ? [{ role: 'assistant', content: [{ type: 'text', text }] }] : [],
          usage: responsesUsage(final?.usage),
          latency: secondsSince(start),
          timeToFirstToken: firstToken === undefined ? undefined : (firstToken - start) / 1000,
          stopReason: final?.status,
          ...(error === undefined ? {} : { error }),
        }),
    });
  });

  instrument(c.embeddings, (body, call, start) => {
    const { options } = splitOptions(body);
    const base = {
      event: '$ai_embedding' as const,
      provider: 'openai',
      input: body.input,
      output: null,
      stream: false,
      modelParameters: modelParameters(body),
    };
    observeCall<Json, never>(call, {
      result: (r) => {
        const usage = r.usage ? { inputTokens: count(r.usage.prompt_tokens) } : undefined;
        capture(options, { ...base, model: body.model ?? r.model, usage, latency: secondsSince(start) });
      },
      failed: (error) => capture(options, { ...base, model: body.model, usage: undefined, latency: secondsSince(start), error }),
      chunk: () => undefined,
      ended: () => undefined,
    });
  });

  return client;
}
