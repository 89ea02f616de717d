import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Service } from '../../src/index';
import { wrapOpenAI } from '../../src/ai/index';
import { startFakeLlm, type FakeLlm } from './fake-llm';

let fake: FakeLlm;
let service: Service;
let openai: OpenAI;
beforeAll(async () => {
  fake = await startFakeLlm();
  service = new Service('phc_test', { host: fake.url, gzip: false, flushAt: 1000 });
  openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: `${fake.url}/v1`, maxRetries: 0 }), service, { properties: { app: 'tests' } });
});
afterAll(async () => {
  await service.shutdown();
  await fake.close();
});
beforeEach(() => {
  fake.events.length = 0;
  fake.requests.length = 0;
});

/** The events sent so far (after a flush). */
async function sent() {
  await service.flush();
  return fake.events;
}

describe('wrapOpenAI: chat completions', () => {
  it('returns the SDK result and captures tokens, model, input, output and latency in seconds', async () => {
    const messages = [{ role: 'user' as const, content: 'Say hello' }];
    const result = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages,
      temperature: 0.2,
      posthogDistinctId: 'user-1',
      posthogTraceId: 'trace-1',
      posthogProperties: { feature: 'greet' },
      posthogGroups: { company: 'acme' },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(result.choices[0]!.message.content).toBe('Hello there');
    expect(fake.requests[0]).not.toHaveProperty('posthogDistinctId'); // our options never reach the provider
    const [event] = await sent();
    expect(event).toMatchObject({ event: '$ai_generation', distinct_id: 'user-1' });
    const p = event!.properties;
    expect(p).toMatchObject({
      $ai_provider: 'openai',
      $ai_model: 'gpt-4o', // the model asked for, as @posthog/ai sends it (the service maps dated snapshots)
      $ai_trace_id: 'trace-1',
      $ai_input: messages,
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Hello there' }] }],
      $ai_input_tokens: 12,
      $ai_output_tokens: 5,
      $ai_cache_read_input_tokens: 4,
      $ai_reasoning_tokens: 2,
      $ai_http_status: 200,
      $ai_stop_reason: 'stop',
      $ai_stream: false,
      $ai_base_url: `${fake.url}/v1`,
      $ai_model_parameters: { temperature: 0.2 },
      $groups: { company: 'acme' },
      feature: 'greet',
      app: 'tests',
    });
    expect(p.$ai_latency).toBeGreaterThan(0);
    expect(p.$ai_latency).toBeLessThan(10); // seconds, not milliseconds
    expect(typeof p.$ai_span_id).toBe('string');
    expect(p).not.toHaveProperty('$ai_is_error');
    expect(p).not.toHaveProperty('$ai_usage_missing');
  });

  it('keeps withResponse() working: the SDK promise is returned as is', async () => {
    const { data, response } = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(data.id).toBe('chatcmpl-1');
    expect(await sent()).toHaveLength(1);
  });

  it('marks a reply without usage as such, with no invented token counts', async () => {
    await openai.chat.completions.create({ model: 'no-usage', messages: [{ role: 'user', content: 'hi' }] });
    const [event] = await sent();
    expect(event!.properties.$ai_usage_missing).toBe(true);
    expect(event!.properties).not.toHaveProperty('$ai_input_tokens');
    expect(event!.properties).not.toHaveProperty('$ai_output_tokens');
    expect(event!.distinct_id).toBe(event!.properties.$ai_trace_id); // no distinct id: the trace's, and no person
    expect(event!.properties.$process_person_profile).toBe(false);
  });

  it('rethrows the same error instance the bare SDK throws, and captures it with its status', async () => {
    let thrown: unknown;
    try {
      await openai.chat.completions.create({ model: 'fail-429', messages: [{ role: 'user', content: 'hi' }] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OpenAI.RateLimitError);
    expect((thrown as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    const [event] = await sent();
    expect(event!.properties).toMatchObject({ $ai_is_error: true, $ai_http_status: 429, $ai_usage_missing: true });
    expect(event!.properties.$ai_error).toContain('fake 429');
  });

  it('captures a 500 as an error too', async () => {
    await expect(openai.chat.completions.create({ model: 'fail-500', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(
      OpenAI.InternalServerError,
    );
    const [event] = await sent();
    expect(event!.properties).toMatchObject({ $ai_is_error: true, $ai_http_status: 500 });
  });

  it('streams unchanged and captures the assembled output, usage and time to first token', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(chunk.choices[0]?.delta.content ?? '');
    expect(chunks.join('')).toBe('Hello');
    const [event] = await sent();
    const p = event!.properties;
    expect(p).toMatchObject({
      $ai_stream: true,
      $ai_input_tokens: 12,
      $ai_output_tokens: 5,
      $ai_stop_reason: 'tool_calls',
      $ai_output_choices: [
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Hello' },
            { type: 'function', id: 'call_1', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
      ],
    });
    expect(p.$ai_time_to_first_token).toBeGreaterThan(0);
    expect(p.$ai_time_to_first_token).toBeLessThanOrEqual(p.$ai_latency);
  });

  it('captures a stream without usage as usage missing', async () => {
    const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const _ of stream) void _;
    const [event] = await sent();
    expect(event!.properties.$ai_usage_missing).toBe(true);
  });

  it('captures a stream cut halfway with the error and what was seen; the caller gets the SDK error', async () => {
    const stream = await openai.chat.completions.create({ model: 'cut', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    await expect(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })(),
    ).rejects.toThrow();
    expect(text).toBe('Hello');
    const [event] = await sent();
    expect(event!.properties).toMatchObject({
      $ai_is_error: true,
      $ai_stream: true,
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Hello' }] }],
    });
  });

  it('cuts a 5 MB prompt to 200,000 bytes', async () => {
    const big = 'é'.repeat(2_500_000);
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: big }] });
    expect(JSON.stringify(fake.requests[0]).length).toBeGreaterThan(2_500_000); // the provider got it whole
    const [event] = await sent();
    const input = event!.properties.$ai_input as string;
    expect(typeof input).toBe('string');
    expect(input.endsWith('... [truncated]')).toBe(true);
    expect(Buffer.byteLength(input.slice(0, -'... [truncated]'.length))).toBeLessThanOrEqual(200_000);
  });

  it('sends null input and output in privacy mode', async () => {
    await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'secret' }],
      posthogPrivacyMode: true,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const [event] = await sent();
    expect(event!.properties).toMatchObject({ $ai_input: null, $ai_output_choices: null, $ai_input_tokens: 12 });
  });
});

describe('wrapOpenAI: responses and embeddings', () => {
  it('captures a Responses call, instructions as the system message', async () => {
    const result = await openai.responses.create({ model: 'gpt-4.1', instructions: 'Be brief', input: 'hi' });
    expect(result.output_text).toBe('Hi!');
    const [event] = await sent();
    expect(event!.properties).toMatchObject({
      $ai_model: 'gpt-4.1',
      $ai_input: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'hi' },
      ],
      $ai_input_tokens: 9,
      $ai_output_tokens: 3,
      $ai_stop_reason: 'completed',
    });
  });

  it('captures a streamed Responses call from its completed event', async () => {
    const stream = await openai.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['response.created', 'response.output_text.delta', 'response.output_text.delta', 'response.completed']);
    const [event] = await sent();
    expect(event!.properties).toMatchObject({ $ai_stream: true, $ai_input_tokens: 9, $ai_output_tokens: 3 });
    expect(event!.properties.$ai_time_to_first_token).toBeGreaterThan(0);
  });

  it('captures embeddings as $ai_embedding', async () => {
    const result = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'a cat' });
    expect(result.data[0]!.embedding).toEqual([0.5, 0.25]);
    const [event] = await sent();
    expect(event).toMatchObject({ event: '$ai_embedding', properties: { $ai_input: 'a cat', $ai_input_tokens: 6, $ai_model: 'text-embedding-3-small' } });
  });
});
