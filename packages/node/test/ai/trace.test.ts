import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Service } from '../../src/index';
import { captureFeedback, captureMetric, span, trace, wrapOpenAI } from '../../src/ai/index';
import { startFakeLlm, type FakeLlm, type SentEvent } from './fake-llm';

let fake: FakeLlm;
let service: Service;
let openai: OpenAI;
beforeAll(async () => {
  fake = await startFakeLlm();
  service = new Service('phc_test', { host: fake.url, gzip: false, flushAt: 1000 });
  openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: `${fake.url}/v1`, maxRetries: 0 }), service);
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
const only = (events: SentEvent[], event: string, name?: string) =>
  events.filter((e) => e.event === event && (name === undefined || e.properties.$ai_span_name === name));
const ask = () => openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

describe('trace() and span()', () => {
  it('nest generations and spans by parent id, across async calls, with the trace distinct id', async () => {
    const result = await trace(
      service,
      { name: 'agent', distinctId: 'user-9', input: { question: 'q' }, properties: { tenant: 'acme' } },
      async ({ traceId }) => {
        await ask();
        const inner = await span(service, 'plan', async () => {
          await Promise.all([ask(), span(service, 'search', () => ask())]);
          return 'planned';
        });
        return { traceId, inner };
      },
    );
    const events = await sent();
    const [root] = only(events, '$ai_trace');
    const [plan] = only(events, '$ai_span', 'plan');
    const [search] = only(events, '$ai_span', 'search');
    const generations = only(events, '$ai_generation');
    expect(generations).toHaveLength(3);
    expect(root!.properties).toMatchObject({
      $ai_trace_id: result.traceId,
      $ai_span_name: 'agent',
      $ai_input_state: { question: 'q' },
      $ai_output_state: result,
      tenant: 'acme',
    });
    expect(plan!.properties).toMatchObject({ $ai_trace_id: result.traceId, $ai_parent_id: result.traceId, $ai_output_state: 'planned' });
    expect(search!.properties.$ai_parent_id).toBe(plan!.properties.$ai_span_id);
    const parents = generations.map((g) => g.properties.$ai_parent_id).sort();
    expect(parents).toEqual([result.traceId, plan!.properties.$ai_span_id, search!.properties.$ai_span_id].sort());
    for (const e of events) {
      expect(e.distinct_id).toBe('user-9');
      expect(e.properties.$ai_trace_id).toBe(result.traceId);
      expect(e.properties.tenant).toBe('acme');
    }
  });

  it('rethrows the step error instance and captures the trace as an error', async () => {
    const boom = new Error('tool failed');
    const caught = await trace(service, 'failing', async () => {
      throw boom;
    }).catch((e: unknown) => e);
    expect(caught).toBe(boom);
    const [root] = only(await sent(), '$ai_trace');
    expect(root!.properties).toMatchObject({ $ai_is_error: true, $ai_error: 'Error: tool failed', $process_person_profile: false });
  });

  it('nests a stream under the span it was created in, wherever it is read', async () => {
    const stream = await span(service, 'make-stream', () =>
      openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    );
    for await (const _ of stream) void _;
    const events = await sent();
    const [made] = only(events, '$ai_span', 'make-stream');
    expect(only(events, '$ai_generation')[0]!.properties.$ai_parent_id).toBe(made!.properties.$ai_span_id);
  });

  it('keeps generations outside a trace unparented', async () => {
    await trace(service, 'one', () => undefined);
    await ask();
    const [generation] = only(await sent(), '$ai_generation');
    expect(generation!.properties).not.toHaveProperty('$ai_parent_id');
  });
});

describe('captureFeedback and captureMetric', () => {
  it('attach to the current trace, the metric value as text', async () => {
    const traceId = await trace(service, { name: 'chat', distinctId: 'user-3' }, ({ traceId }) => {
      expect(captureFeedback(service, 'Great answer')).toBe(true);
      expect(captureMetric(service, 'helpfulness', 0.9)).toBe(true);
      return traceId;
    });
    const events = await sent();
    expect(only(events, '$ai_feedback')[0]).toMatchObject({ distinct_id: 'user-3', properties: { $ai_trace_id: traceId, $ai_feedback_text: 'Great answer' } });
    expect(only(events, '$ai_metric')[0]).toMatchObject({
      distinct_id: 'user-3',
      properties: { $ai_trace_id: traceId, $ai_metric_name: 'helpfulness', $ai_metric_value: '0.9' },
    });
  });

  it('take an explicit trace id, and send nothing without one', async () => {
    expect(captureFeedback(service, 'late feedback', { traceId: 'trace-x', distinctId: 'user-4' })).toBe(true);
    expect(captureMetric(service, 'score', 1)).toBe(false);
    const events = await sent();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: '$ai_feedback', distinct_id: 'user-4', properties: { $ai_trace_id: 'trace-x' } });
  });
});
