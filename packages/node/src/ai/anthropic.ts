import type { Service } from '../client';
import { captureGeneration, count, secondsSince, splitOptions, type AiCallOptions, type AiDefaults, type Generation, type Usage } from './capture';
import { instrument, observeCall } from './observe';
import { modelParameters } from './openai';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- provider payloads, read defensively

/** Anthropic counts cache reads and writes apart from `input_tokens` (the service bills them so). */
function messageUsage(usage: Json | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadInputTokens: count(usage.cache_read_input_tokens),
    cacheCreationInputTokens: count(usage.cache_creation_input_tokens),
  };
}

/** `$ai_input`: the system prompt as the first message, then the messages. */
function messagesInput(body: Json): unknown {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return body.system ? [{ role: 'system', content: body.system }, ...messages] : messages;
}

interface Block {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  partial?: string;
}

/**
 * Captures every `messages.create` call of an official `@anthropic-ai/sdk` client (streamed or not, and
 * `messages.stream()`, which goes through it) as an `$ai_generation` event. Returns the same client; results,
 * streams and errors reach the caller unchanged. Per-call options as for {@link wrapOpenAI}.
 *
 * ```ts
 * const anthropic = wrapAnthropic(new Anthropic(), service);
 * await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 256, messages, posthogDistinctId: 'user_42' });
 * ```
 */
export function wrapAnthropic<T extends object>(client: T, service: Service, defaults: AiDefaults = {}): T {
  const c = client as unknown as Json;
  const baseURL = typeof c.baseURL === 'string' ? c.baseURL : undefined;
  const capture = (options: AiCallOptions, g: Omit<Generation, 'baseURL'>) => captureGeneration(service, defaults, options, { ...g, baseURL });

  instrument(c.messages, (body, call, start) => {
    const { options } = splitOptions(body);
    const base = {
      event: '$ai_generation' as const,
      provider: 'anthropic',
      input: messagesInput(body),
      tools: body.tools,
      stream: body.stream === true,
      modelParameters: modelParameters(body),
    };
    let model: unknown = body.model;
    let usage: Usage | undefined;
    let stopReason: unknown;
    let firstToken: number | undefined;
    const blocks: Block[] = [];
    observeCall<Json, Json>(call, {
      result: (r) =>
        capture(options, {
          ...base,
          model: body.model ?? r.model,
          output: [{ role: 'assistant', content: r.content }],
          usage: messageUsage(r.usage),
          latency: secondsSince(start),
          stopReason: r.stop_reason,
        }),
      failed: (error) => capture(options, { ...base, model: body.model, output: [], usage: undefined, latency: secondsSince(start), error }),
      chunk: (event) => {
        switch (event.type) {
          case 'message_start':
            model ??= event.message?.model;
            usage = messageUsage(event.message?.usage);
            break;
          case 'content_block_start':
            blocks[event.index] = { ...event.content_block, partial: '' };
            break;
          case 'content_block_delta': {
            firstToken ??= performance.now();
            const block = blocks[event.index];
            if (!block) break;
            if (event.delta?.type === 'text_delta') block.text = (block.text ?? '') + event.delta.text;
            if (event.delta?.type === 'input_json_delta') block.partial += event.delta.partial_json ?? '';
            break;
          }
          case 'message_delta':
            stopReason = event.delta?.stop_reason ?? stopReason;
            // The final output count; the other counts stay as message_start gave them unless repeated here.
            if (event.usage) usage = { ...usage, ...definedOnly(messageUsage(event.usage)) };
            break;
        }
      },
      ended: (error) =>
        capture(options, {
          ...base,
          model,
          output: [{ role: 'assistant', content: blocks.filter(Boolean).map(finishBlock) }],
          usage,
          latency: secondsSince(start),
          timeToFirstToken: firstToken === undefined ? undefined : (firstToken - start) / 1000,
          stopReason,
          ...(error === undefined ? {} : { error }),
        }),
    });
  });

  return client;
}

const definedOnly = (usage: Usage | undefined): Usage => Object.fromEntries(Object.entries(usage ?? {}).filter(([, v]) => v !== undefined && v !== null));

/** A streamed block as the non-streamed reply holds it: tool inputs parsed from their JSON pieces. */
function finishBlock({ partial, ...block }: Block): Block {
  if (block.type === 'tool_use' && partial) {
    try {
      return { ...block, input: JSON.parse(partial) };
    } catch {
      return { ...block, input: partial }; // cut before its JSON ended
    }
  }
  return block;
}
