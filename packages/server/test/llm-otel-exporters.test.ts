import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { embed, generateText, simulateReadableStream, streamText } from 'ai';
import { MockEmbeddingModelV3, MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';
import { reads } from './llm-otel-helpers';

// The official OpenTelemetry exporters (OTLP/HTTP JSON and protobuf, gzip too) send real spans, made by the SDK and
// by the Vercel AI SDK's own telemetry, to the service listening on a port; they show in the LLM API.

let s: TestService;
let read: ReturnType<typeof reads>;
let url: string;
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(async () => {
  s = await startService();
  read = reads(s);
  url = `${await s.app.listen({ port: 0, host: '127.0.0.1' })}/i/v0/ai/otel/v1/traces`;
  // The AI SDK nests its spans through the active context, as a Node app registering OpenTelemetry has it.
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await s.close();
});

const headers = () => ({ Authorization: `Bearer ${s.token}` });
const exporters: Record<string, () => SpanExporter> = {
  json: () => new JsonExporter({ url, headers: headers() }),
  protobuf: () => new ProtoExporter({ url, headers: headers() }),
  'protobuf, gzip': () => new ProtoExporter({ url, headers: headers(), compression: 'gzip' as never }),
};

/** The spans `make` ends, as the SDK hands them to exporters. */
async function spansOf(make: (tracer: Tracer) => Promise<void>): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  await make(provider.getTracer('test'));
  await provider.forceFlush();
  return memory.getFinishedSpans();
}

/** `exporter.export` as a promise of its result code (0: success). */
const exported = (exporter: SpanExporter, spans: ReadableSpan[]) =>
  new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve)).finally(() => exporter.shutdown());

describe.each(Object.keys(exporters))('OTLPTraceExporter (%s)', (name) => {
  it('a GenAI chat span under a root span is exported: a generation under its trace', async () => {
    let traceId = '';
    const spans = await spansOf(async (tracer) => {
      const root = tracer.startSpan('answer-ticket', { attributes: { 'posthog.distinct_id': `exporter-${name}` } });
      traceId = root.spanContext().traceId;
      const chat = tracer.startSpan(
        'chat gpt-4o-mini',
        {
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'openai',
            'gen_ai.request.model': 'gpt-4o-mini',
            'gen_ai.usage.input_tokens': 1_000_000,
            'gen_ai.usage.output_tokens': 1_000_000,
            'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }]),
          },
        },
        trace.setSpan(context.active(), root),
      );
      chat.end();
      root.end();
    });
    const result = await exported(exporters[name]!(), spans);
    expect(result.error?.message).toBeUndefined();
    expect(result.code).toBe(0);

    const [g] = await read.generations(traceId);
    expect(g).toMatchObject({ model: 'gpt-4o-mini', provider: 'openai', input_tokens: 1_000_000, output_tokens: 1_000_000, distinct_id: `exporter-${name}` });
    expect(g!.cost_usd).toBeCloseTo(0.15 + 0.6, 9);
    expect(g!.latency).toBeGreaterThanOrEqual(0);
    const tree = await read.trace(traceId);
    expect(tree.children).toHaveLength(1);
    expect(tree.children[0]).toMatchObject({ kind: 'trace', name: 'answer-ticket' });
    expect(tree.children[0].children[0]).toMatchObject({ kind: 'generation', id: g!.id });
  });

  it('a malformed attribute: the exporter is told the export failed (400), the valid spans are stored', async () => {
    let traceId = '';
    const spans = await spansOf(async (tracer) => {
      const good = tracer.startSpan('chat', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' } });
      traceId = good.spanContext().traceId;
      good.end();
      tracer
        .startSpan('chat', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 'many' } }, trace.setSpan(context.active(), good))
        .end();
    });
    const result = await exported(exporters[name]!(), spans);
    expect(result.code).toBe(1);
    expect(await read.generations(traceId)).toHaveLength(1);
  });
});

describe('the Vercel AI SDK’s telemetry, exported as registerOTel does (a batch span processor, OTLP protobuf)', () => {
  it('generateText, streamText and embed: their model calls are generations and an embedding, each under its trace', async () => {
    const exporter = new ProtoExporter({ url, headers: headers() });
    const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] });
    const telemetry = { isEnabled: true, tracer: provider.getTracer('ai'), functionId: 'support-bot', metadata: { userId: 'vercel-otel-user' } };
    const usage = {
      inputTokens: { total: 1_000_000, noCache: 600_000, cacheRead: 400_000, cacheWrite: undefined },
      outputTokens: { total: 100_000, text: 100_000, reasoning: undefined },
    };
    const finishReason = { unified: 'stop' as const, raw: 'stop' };
    const model = new MockLanguageModelV3({
      provider: 'openai.chat',
      modelId: 'gpt-4o',
      doGenerate: async () => ({ content: [{ type: 'text', text: 'Paris.' }], finishReason, usage, warnings: [] }),
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: '1' },
            { type: 'text-delta', id: '1', delta: 'Ber' },
            { type: 'text-delta', id: '1', delta: 'lin.' },
            { type: 'text-end', id: '1' },
            { type: 'finish', finishReason, usage },
          ],
        }),
      }),
    });
    const generated = await generateText({ model, prompt: 'Capital of France?', experimental_telemetry: telemetry });
    expect(generated.text).toBe('Paris.');
    const streamed = streamText({ model, prompt: 'Capital of Germany?', experimental_telemetry: telemetry });
    expect(await streamed.text).toBe('Berlin.');
    const embedder = new MockEmbeddingModelV3({
      provider: 'openai.embedding',
      modelId: 'text-embedding-3-small',
      doEmbed: async () => ({ embeddings: [[0.1, 0.2]], usage: { tokens: 1_000_000 }, warnings: [] }),
    });
    await embed({ model: embedder, value: 'hello', experimental_telemetry: telemetry });
    await provider.forceFlush();
    await provider.shutdown();

    const { results } = (
      await s.app.inject({ url: `/api/projects/${s.projectId}/llm/generations/?distinct_id=vercel-otel-user`, headers: s.headers })
    ).json() as { results: Record<string, unknown>[] };
    expect(results.map((r) => r.kind).sort()).toEqual(['embedding', 'generation', 'generation']);
    const calls = results.filter((r) => r.kind === 'generation');
    for (const call of calls) {
      expect(call).toMatchObject({ model: 'gpt-4o', provider: 'openai', input_tokens: 1_000_000, output_tokens: 100_000, cache_read_tokens: 400_000 });
      // 600k uncached at 2.5 + 400k cached at 1.25; 100k output at 10.
      expect(call.cost_usd).toBeCloseTo(3, 9);
      const tree = await read.trace(call.trace_id as string);
      expect(tree.children[0]).toMatchObject({ kind: 'trace', name: 'support-bot' });
      expect(tree.children[0].children.map((c: { id: string }) => c.id)).toContain(call.id);
    }
    expect(calls.some((c) => typeof c.time_to_first_token === 'number')).toBe(true);
    expect(results.find((r) => r.kind === 'embedding')).toMatchObject({ model: 'text-embedding-3-small', input_tokens: 1_000_000, cost_usd: 0.02 });
    const events = await read.events('vercel-otel-user');
    const call = events.get(calls.find((c) => c.time_to_first_token === null)!.id as string)!;
    expect(call.properties).toMatchObject({
      $ai_input: [{ role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] }],
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Paris.' }] }],
      $ai_stop_reason: 'stop',
    });
  });
});
