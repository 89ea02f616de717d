import { generateText, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Service } from '../../src/index';
import { aiSdkMiddleware, span, trace } from '../../src/ai/index';
import { startFakeLlm, type FakeLlm } from './fake-llm';

let fake: FakeLlm;
let service: Service;
beforeAll(async () => {
  fake = await startFakeLlm(); // here only as the service's /batch/
  service = new Service('phc_test', { host: fake.url, gzip: false, flushAt: 1000 });
});
afterAll(async () => {
  await service.shutdown();
  await fake.close();
});
beforeEach(() => {
  fake.events.length = 0;
});
async function sent() {
  await service.flush();
  return fake.events;
}

const usage = { inputTokens: { total: 11, noCache: 3, cacheRead: 8, cacheWrite: undefined }, outputTokens: { total: 4, text: 4, reasoning: undefined } };
const finishReason = { unified: 'stop' as const, raw: 'stop' };

function model(options: { fail?: Error; provider?: string } = {}) {
  return wrapLanguageModel({
    model: new MockLanguageModelV3({
      provider: options.provider ?? 'openai.responses',
      modelId: 'gpt-4o-mini',
      doGenerate: async () => {
        if (options.fail) throw options.fail;
        return { content: [{ type: 'text', text: 'Hi there' }], finishReason, usage, warnings: [] };
      },
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'response-metadata', modelId: 'gpt-4o-mini-2024-07-18' },
            { type: 'text-start', id: '1' },
            { type: 'text-delta', id: '1', delta: 'Hi ' },
            { type: 'text-delta', id: '1', delta: 'there' },
            { type: 'text-end', id: '1' },
            { type: 'finish', finishReason, usage },
          ],
        }),
      }),
    }),
    middleware: aiSdkMiddleware(service, { distinctId: 'user-v' }),
  });
}

describe('aiSdkMiddleware (Vercel AI SDK)', () => {
  it('captures generateText with the v3 usage read', async () => {
    const result = await generateText({ model: model(), prompt: 'Say hi', temperature: 0.3 });
    expect(result.text).toBe('Hi there');
    const [event] = await sent();
    expect(event).toMatchObject({ event: '$ai_generation', distinct_id: 'user-v' });
    expect(event!.properties).toMatchObject({
      $ai_provider: 'openai',
      $ai_model: 'gpt-4o-mini',
      $ai_input: [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }],
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Hi there' }] }],
      $ai_input_tokens: 11,
      $ai_output_tokens: 4,
      $ai_cache_read_input_tokens: 8,
      $ai_stop_reason: 'stop',
      $ai_model_parameters: { temperature: 0.3 },
    });
  });

  it("sends Anthropic's input tokens without the cached ones, as Anthropic counts and the service prices them", async () => {
    await generateText({ model: model({ provider: 'anthropic.messages' }), prompt: 'Say hi' });
    const [event] = await sent();
    expect(event!.properties).toMatchObject({ $ai_provider: 'anthropic', $ai_input_tokens: 3, $ai_cache_read_input_tokens: 8 });
  });

  it('captures streamText with time to first token, nested in the span it was started in', async () => {
    const text = await trace(service, 'chat', async () => {
      const result = await span(service, 'reply', () => streamText({ model: model(), prompt: 'Say hi' }));
      return result.text;
    });
    expect(text).toBe('Hi there');
    const events = await sent();
    const generation = events.find((e) => e.event === '$ai_generation')!;
    const reply = events.find((e) => e.event === '$ai_span')!;
    expect(generation.properties).toMatchObject({
      $ai_stream: true,
      $ai_model: 'gpt-4o-mini-2024-07-18',
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Hi there' }] }],
      $ai_input_tokens: 11,
    });
    expect(generation.properties.$ai_time_to_first_token).toBeGreaterThan(0);
    expect(generation.properties.$ai_parent_id).toBe(reply.properties.$ai_span_id);
  });

  it('rethrows the model error and captures it', async () => {
    const boom = Object.assign(new Error('overloaded'), { status: 529 });
    await expect(generateText({ model: model({ fail: boom }), prompt: 'hi', maxRetries: 0 })).rejects.toBe(boom);
    const [event] = await sent();
    expect(event!.properties).toMatchObject({ $ai_is_error: true, $ai_http_status: 529, $ai_usage_missing: true, $ai_error: 'Error: overloaded' });
  });

  it('captures a stream that fails halfway with the error and the text seen', async () => {
    const boom = new Error('connection reset');
    const failing = wrapLanguageModel({
      model: new MockLanguageModelV3({
        modelId: 'gpt-4o-mini',
        doStream: async () => ({
          stream: new ReadableStream({
            start(controller) {
              controller.enqueue({ type: 'stream-start', warnings: [] });
              controller.enqueue({ type: 'text-start', id: '1' });
              controller.enqueue({ type: 'text-delta', id: '1', delta: 'Hal' });
              setTimeout(() => controller.error(boom), 10);
            },
          }),
        }),
      }),
      middleware: aiSdkMiddleware(service),
    });
    const result = streamText({ model: failing, prompt: 'hi', onError: () => undefined });
    let text = '';
    const read = (async () => {
      for await (const chunk of result.textStream) text += chunk;
    })();
    await expect(read).rejects.toBe(boom); // the caller gets the model's own error
    expect(text).toBe('Hal');
    const [event] = await sent();
    expect(event!.properties).toMatchObject({
      $ai_is_error: true,
      $ai_error: 'Error: connection reset',
      $ai_usage_missing: true,
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Hal' }] }],
    });
  });
});
