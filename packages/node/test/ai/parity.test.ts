// The same calls through @posthog/ai's official wrappers and through ours, both sending to the loopback /batch/:
// our events must carry every property theirs does that describes the call, with the same values.
import { OpenAI as PostHogOpenAI } from '@posthog/ai/openai';
import { Anthropic as PostHogAnthropic } from '@posthog/ai/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Service } from '../../src/index';
import { wrapAnthropic, wrapOpenAI } from '../../src/ai/index';
import { startFakeLlm, type FakeLlm, type SentEvent } from './fake-llm';

let fake: FakeLlm;
let ours: Service;
let theirs: PostHog;
beforeAll(async () => {
  fake = await startFakeLlm();
  ours = new Service('phc_test', { host: fake.url, gzip: false, flushAt: 1000 });
  theirs = new PostHog('phc_test', { host: fake.url, flushAt: 1000, disableCompression: true });
});
afterAll(async () => {
  await Promise.all([ours.shutdown(), theirs.shutdown()]);
  await fake.close();
});

/** Properties that name the library or its own accounting conventions, not the call. */
const LIBRARY_ONLY = new Set([
  '$ai_lib',
  '$ai_lib_version',
  '$ai_tokens_source',
  '$ai_cache_reporting_exclusive',
  '$ai_provider_metadata',
  '$ai_completion_id',
  '$ai_web_search_count',
  '$ai_usage',
  '$ai_latency',
  '$ai_time_to_first_token',
]);

/** The last event of each library, after both flushed. */
async function pair(run: () => Promise<unknown>, runTheirs: () => Promise<unknown>): Promise<[SentEvent, SentEvent]> {
  fake.events.length = 0;
  await run();
  await ours.flush();
  const mine = fake.events.pop()!;
  await runTheirs();
  await theirs.flush();
  const official = fake.events.pop()!;
  return [mine, official];
}

function expectParity(mine: SentEvent, official: SentEvent) {
  expect(mine.event).toBe(official.event);
  for (const [key, value] of Object.entries(official.properties)) {
    if (!key.startsWith('$ai_') || LIBRARY_ONLY.has(key)) continue;
    expect({ key, value: mine.properties[key] }).toEqual({ key, value });
  }
  for (const key of ['$ai_latency', '$ai_trace_id', '$ai_http_status']) expect(mine.properties).toHaveProperty(key);
}

describe('parity with @posthog/ai', () => {
  it('OpenAI chat completion', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0.5, posthogDistinctId: 'u1', posthogTraceId: 't1' };
    const mine = wrapOpenAI(new OpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0 }), ours);
    const official = new PostHogOpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0, posthog: theirs });
    const [a, b] = await pair(
      () => mine.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming),
      () => official.chat.completions.create(body),
    );
    expectParity(a, b);
    expect(a.distinct_id).toBe(b.distinct_id);
  });

  it('Anthropic message', async () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user' as const, content: 'hi' }],
      posthogDistinctId: 'u2',
      posthogTraceId: 't2',
    };
    const mine = wrapAnthropic(new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 }), ours);
    const official = new PostHogAnthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0, posthog: theirs });
    const [a, b] = await pair(
      () => mine.messages.create(body as Anthropic.MessageCreateParamsNonStreaming),
      () => official.messages.create(body),
    );
    expectParity(a, b);
  });

  it('OpenAI chat completion, streamed with usage', async () => {
    const body = {
      model: 'gpt-4o',
      messages: [{ role: 'user' as const, content: 'hi' }],
      stream: true as const,
      stream_options: { include_usage: true },
      posthogDistinctId: 'u3',
      posthogTraceId: 't3',
    };
    const mine = wrapOpenAI(new OpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0 }), ours);
    const official = new PostHogOpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0, posthog: theirs });
    const drain = async (stream: AsyncIterable<unknown>) => {
      for await (const _ of stream) void _;
    };
    const [a, b] = await pair(
      async () => drain(await mine.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsStreaming)),
      async () => {
        await drain(await official.chat.completions.create(body));
        await new Promise((resolve) => setTimeout(resolve, 50)); // theirs captures after the stream's end, asynchronously
      },
    );
    expectParity(a, b);
  });

  it('OpenAI responses', async () => {
    const body = { model: 'gpt-4.1', instructions: 'Be brief', input: 'hi', posthogDistinctId: 'u4', posthogTraceId: 't4' };
    const mine = wrapOpenAI(new OpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0 }), ours);
    const official = new PostHogOpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0, posthog: theirs });
    const [a, b] = await pair(
      () => mine.responses.create(body as OpenAI.Responses.ResponseCreateParamsNonStreaming),
      () => official.responses.create(body),
    );
    expectParity(a, b);
  });

  it('Anthropic message, streamed', async () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user' as const, content: 'hi' }],
      stream: true as const,
      posthogDistinctId: 'u5',
      posthogTraceId: 't5',
    };
    const mine = wrapAnthropic(new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 }), ours);
    const official = new PostHogAnthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0, posthog: theirs });
    const drain = async (stream: AsyncIterable<unknown>) => {
      for await (const _ of stream) void _;
    };
    const [a, b] = await pair(
      async () => drain(await mine.messages.create(body as Anthropic.MessageCreateParamsStreaming)),
      async () => {
        await drain(await official.messages.create(body));
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    );
    expectParity(a, b);
  });
});
