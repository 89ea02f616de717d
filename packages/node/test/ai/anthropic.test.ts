import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Service } from '../../src/index';
import { wrapAnthropic } from '../../src/ai/index';
import { startFakeLlm, type FakeLlm } from './fake-llm';

let fake: FakeLlm;
let service: Service;
let anthropic: Anthropic;
beforeAll(async () => {
  fake = await startFakeLlm();
  service = new Service('phc_test', { host: fake.url, gzip: false, flushAt: 1000 });
  anthropic = wrapAnthropic(new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.url, maxRetries: 0 }), service, { distinctId: 'default-user' });
});
afterAll(async () => {
  await service.shutdown();
  await fake.close();
});
beforeEach(() => {
  fake.events.length = 0;
  fake.requests.length = 0;
});

async function sent() {
  await service.flush();
  return fake.events;
}

const messages = [{ role: 'user' as const, content: 'Say hello in French' }];

describe('wrapAnthropic', () => {
  it('returns the SDK message and captures cache tokens apart from input tokens', async () => {
    const result = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      system: 'Be brief',
      messages,
      posthogTraceId: 't-a',
    } as Anthropic.MessageCreateParamsNonStreaming);
    expect(result.content).toEqual([{ type: 'text', text: 'Bonjour' }]);
    expect(fake.requests[0]).not.toHaveProperty('posthogTraceId');
    const [event] = await sent();
    expect(event).toMatchObject({ event: '$ai_generation', distinct_id: 'default-user' });
    expect(event!.properties).toMatchObject({
      $ai_provider: 'anthropic',
      $ai_model: 'claude-sonnet-4-5',
      $ai_trace_id: 't-a',
      $ai_input: [{ role: 'system', content: 'Be brief' }, ...messages],
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Bonjour' }] }],
      $ai_input_tokens: 20,
      $ai_output_tokens: 7,
      $ai_cache_read_input_tokens: 100,
      $ai_cache_creation_input_tokens: 30,
      $ai_stop_reason: 'end_turn',
      $ai_http_status: 200,
      $ai_model_parameters: { max_tokens: 64 },
    });
  });

  it('rethrows the SDK error instance and captures it', async () => {
    const error = await anthropic.messages.create({ model: 'fail-429', max_tokens: 64, messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const [event] = await sent();
    expect(event!.properties).toMatchObject({ $ai_is_error: true, $ai_http_status: 429, $ai_usage_missing: true });
    expect(event!.properties.$ai_error).toContain('rate_limit_error');
  });

  it('streams (stream: true) unchanged and captures text, tokens and time to first token', async () => {
    const stream = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, messages, stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const [event] = await sent();
    expect(event!.properties).toMatchObject({
      $ai_stream: true,
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Bonjour' }] }],
      $ai_input_tokens: 20,
      $ai_output_tokens: 7,
      $ai_cache_read_input_tokens: 100,
      $ai_stop_reason: 'end_turn',
    });
    expect(event!.properties.$ai_time_to_first_token).toBeGreaterThan(0);
  });

  it('captures messages.stream() (the SDK helper goes through the wrapped create)', async () => {
    const stream = anthropic.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 64, messages });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Bonjour' }]);
    const [event] = await sent();
    expect(event!.properties).toMatchObject({
      $ai_stream: true,
      $ai_output_tokens: 7,
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Bonjour' }] }],
    });
  });

  it('captures a stream cut halfway with the error and the tokens seen', async () => {
    const stream = await anthropic.messages.create({ model: 'cut', max_tokens: 64, messages, stream: true });
    const consumed = (async () => {
      for await (const _ of stream) void _;
    })();
    await expect(consumed).rejects.toThrow();
    const [event] = await sent();
    expect(event!.properties).toMatchObject({
      $ai_is_error: true,
      $ai_input_tokens: 20,
      $ai_output_tokens: 1,
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Bon' }] }],
    });
  });
});
