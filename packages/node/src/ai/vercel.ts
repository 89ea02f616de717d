import type { Service } from '../client';
import { captureGeneration, count, secondsSince, type AiCallOptions, type AiDefaults, type Generation, type Usage } from './capture';
import { currentScope, runInScope } from './context';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- AI SDK payloads, read defensively

/**
 * Usage of the AI SDK's model spec: v3 nests the counts (`inputTokens.total`), v2 has plain numbers. v3's total counts
 * cached tokens for every provider; Anthropic's input tokens are sent without them, as Anthropic's own API reports
 * them and as they are priced (cache reads and writes apart), so they are not billed twice.
 */
function sdkUsage(usage: Json | undefined, provider: string): Usage | undefined {
  if (!usage) return undefined;
  if (typeof usage.inputTokens === 'object' || typeof usage.outputTokens === 'object') {
    const input = usage.inputTokens ?? {};
    const output = usage.outputTokens ?? {};
    const cached = (count(input.cacheRead) ?? 0) + (count(input.cacheWrite) ?? 0);
    const total = count(input.total);
    const result = {
      inputTokens: provider === 'anthropic' && total !== undefined ? (count(input.noCache) ?? Math.max(0, total - cached)) : total,
      outputTokens: count(output.total),
      cacheReadInputTokens: count(input.cacheRead),
      cacheCreationInputTokens: count(input.cacheWrite),
      reasoningTokens: count(output.reasoning),
    };
    return result.inputTokens === undefined && result.outputTokens === undefined ? undefined : result;
  }
  const result = {
    inputTokens: count(usage.inputTokens),
    outputTokens: count(usage.outputTokens),
    cacheReadInputTokens: count(usage.cachedInputTokens),
    reasoningTokens: count(usage.reasoningTokens),
  };
  return result.inputTokens === undefined && result.outputTokens === undefined ? undefined : result;
}

/** `openai.responses` → `openai`: the provider, without the SDK's API suffix. */
const providerOf = (model: Json) => String(model?.provider ?? 'unknown').split('.')[0];
const finishReason = (reason: unknown) => (reason && typeof reason === 'object' ? ((reason as Json).unified ?? (reason as Json).raw) : reason);

const PARAM_KEYS = ['temperature', 'maxOutputTokens', 'topP', 'topK', 'presencePenalty', 'frequencyPenalty', 'stopSequences', 'seed'];
function parameters(params: Json): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of PARAM_KEYS) if (params?.[key] !== undefined) out[key] = params[key];
  return out;
}

interface MiddlewareCall {
  doGenerate: () => PromiseLike<Json>;
  doStream: () => PromiseLike<Json>;
  params: Json;
  model: Json;
}

/** A language model middleware of the Vercel AI SDK (`wrapLanguageModel`), model spec v3 (AI SDK 6). */
export interface AiSdkMiddleware {
  readonly specificationVersion: 'v3';
  // The SDK's own result types, which this package does not import: `any` lets them through unchanged.
  wrapGenerate: (call: MiddlewareCall) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  wrapStream: (call: MiddlewareCall) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Captures each generation of a Vercel AI SDK model as an `$ai_generation` event: `generateText`,
 * `streamText`, `generateObject` and the agents built on them. Results, stream parts and errors pass unchanged.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o-mini'), middleware: aiSdkMiddleware(service, { distinctId: 'user_42' }) });
 * ```
 */
export function aiSdkMiddleware(service: Service, defaults: AiDefaults & AiCallOptions = {}): AiSdkMiddleware {
  const capture = (g: Generation) => captureGeneration(service, defaults, defaults, g);
  const base = (params: Json, model: Json, stream: boolean) => ({
    event: '$ai_generation' as const,
    provider: providerOf(model),
    input: params.prompt,
    tools: params.tools,
    stream,
    modelParameters: parameters(params),
  });

  return {
    specificationVersion: 'v3',
    async wrapGenerate({ doGenerate, params, model }) {
      const start = performance.now();
      let result: Json;
      try {
        result = await doGenerate();
      } catch (error) {
        capture({ ...base(params, model, false), model: model?.modelId, output: [], usage: undefined, latency: secondsSince(start), error });
        throw error;
      }
      try {
        capture({
          ...base(params, model, false),
          model: result.response?.modelId ?? model?.modelId,
          output: [{ role: 'assistant', content: result.content }],
          usage: sdkUsage(result.usage, providerOf(model)),
          latency: secondsSince(start),
          stopReason: finishReason(result.finishReason),
        });
      } catch {
        // Observability is best effort.
      }
      return result;
    },
    async wrapStream({ doStream, params, model }) {
      const start = performance.now();
      const scope = currentScope();
      let result: Json;
      try {
        result = await doStream();
      } catch (error) {
        capture({ ...base(params, model, true), model: model?.modelId, output: [], usage: undefined, latency: secondsSince(start), error });
        throw error;
      }
      let text = '';
      let firstToken: number | undefined;
      let usage: Usage | undefined;
      let stopReason: unknown;
      let modelId: unknown = model?.modelId;
      let failure: unknown;
      let done = false;
      const toolCalls: Json[] = [];
      const finish = () => {
        if (done) return;
        done = true;
        const content: Json[] = [...(text ? [{ type: 'text', text }] : []), ...toolCalls];
        const g: Generation = {
          ...base(params, model, true),
          model: modelId,
          output: [{ role: 'assistant', content }],
          usage,
          latency: secondsSince(start),
          stopReason,
        };
        if (firstToken !== undefined) g.timeToFirstToken = (firstToken - start) / 1000;
        if (failure !== undefined) g.error = failure;
        // The span the stream was asked for in, not wherever it is read.
        if (scope) runInScope(scope, () => capture(g));
        else capture(g);
      };
      const observe = (part: Json) => {
        switch (part?.type) {
          case 'text-delta':
            firstToken ??= performance.now();
            text += part.delta ?? part.textDelta ?? '';
            break;
          case 'tool-call':
            firstToken ??= performance.now();
            toolCalls.push({ type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
            break;
          case 'response-metadata':
            modelId = part.modelId ?? modelId;
            break;
          case 'finish':
            usage = sdkUsage(part.usage, providerOf(model));
            stopReason = finishReason(part.finishReason);
            break;
          case 'error':
            failure = part.error;
            break;
        }
      };
      // Read through, rather than piped, so that a stream that errors or is cancelled midway is captured too.
      const reader = (result.stream as ReadableStream<Json>).getReader();
      const stream = new ReadableStream<Json>({
        async pull(controller) {
          let step: Awaited<ReturnType<typeof reader.read>>;
          try {
            step = await reader.read();
          } catch (error) {
            failure ??= error;
            finish();
            controller.error(error);
            return;
          }
          if (step.done) {
            finish();
            controller.close();
            return;
          }
          try {
            observe(step.value);
          } catch {
            // Observability is best effort.
          }
          controller.enqueue(step.value);
        },
        cancel(reason) {
          finish();
          return reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}
