// End to end: a wrapped client's generations, in a trace, stored by a started service (`/batch/`, SQLite).
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Service } from '../../src/index';
import { trace, wrapOpenAI } from '../../src/ai/index';
import { startService, type RunningService } from '../service';
import { startFakeLlm, type FakeLlm } from './fake-llm';

let service: RunningService;
let fake: FakeLlm;
beforeAll(async () => {
  [service, fake] = await Promise.all([startService(), startFakeLlm()]);
});
afterAll(async () => {
  await Promise.all([service?.close(), fake?.close()]);
});

it('stores the generations and their trace with tokens, latency and nesting', async () => {
  const client = new Service(service.token, { host: service.url });
  const errors: Error[] = [];
  client.on('error', (e) => errors.push(e));
  const openai = wrapOpenAI(new OpenAI({ apiKey: 'k', baseURL: `${fake.url}/v1`, maxRetries: 0 }), client);
  const traceId = await trace(client, { name: 'support', distinctId: 'ai-e2e' }, async ({ traceId }) => {
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    await openai.chat.completions.create({ model: 'fail-400', messages: [{ role: 'user', content: 'hi' }] }).catch(() => undefined);
    return traceId;
  });
  await client.shutdown();
  expect(errors).toEqual([]);
  const generations = await service.waitForEvents({ event: '$ai_generation', distinct_id: 'ai-e2e' }, 2);
  const [root] = (await service.waitForEvents({ event: '$ai_trace', distinct_id: 'ai-e2e' }, 1)).results;
  expect(root!.properties).toMatchObject({ $ai_trace_id: traceId, $ai_span_name: 'support' });
  const ok = generations.results.find((e) => !e.properties.$ai_is_error)!;
  const failed = generations.results.find((e) => e.properties.$ai_is_error)!;
  expect(ok.properties).toMatchObject({
    $ai_trace_id: traceId,
    $ai_parent_id: traceId,
    $ai_model: 'gpt-4o',
    $ai_input_tokens: 12,
    $ai_output_tokens: 5,
    $ai_http_status: 200,
  });
  expect(failed.properties).toMatchObject({ $ai_trace_id: traceId, $ai_http_status: 400, $ai_usage_missing: true });
  expect(typeof ok.properties.$ai_latency).toBe('number');
});
