import { gzipSync } from 'node:zlib';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';
import { exportOf, hex, reads, span } from './llm-otel-helpers';

// OpenTelemetry ingest, by inject, on both databases: OTLP JSON spans with GenAI attributes (the conventions' current
// and older names, OpenLLMetry's, the Vercel AI SDK's) become the generations, spans and traces the wrappers send;
// malformed spans are refused alone. The official exporters are in llm-otel-exporters.test.ts.

let s: TestService;
let read: ReturnType<typeof reads>;
beforeAll(async () => {
  s = await startService();
  read = reads(s);
});
afterAll(() => s.close());

const post = (body: unknown, { token = s.token, url = '/i/v0/ai/otel', headers = {} as Record<string, string> } = {}) =>
  s.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });

describe('GenAI spans', () => {
  it('a chat span under an agent and a root: a generation priced from the table, its parents a span and the trace, as a tree', async () => {
    const traceId = hex(16);
    const root = hex(8);
    const agent = hex(8);
    const chat = hex(8);
    const res = await post(
      exportOf(
        [
          span({
            traceId,
            spanId: chat,
            parentSpanId: agent,
            name: 'chat gpt-4o',
            start: '2026-11-20T10:00:01.000Z',
            durationMs: 2500,
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': 'openai',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.response.model': 'gpt-4o-2024-08-06',
              'gen_ai.request.temperature': 0.2,
              'gen_ai.request.max_tokens': 300,
              'gen_ai.usage.input_tokens': 1_000_000,
              'gen_ai.usage.output_tokens': 100_000,
              'gen_ai.usage.cache_read.input_tokens': 400_000,
              'gen_ai.response.finish_reasons': ['stop'],
              'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
              'gen_ai.input.messages': JSON.stringify([
                { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] },
                { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }] },
                { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', response: 'sunny' }] },
              ]),
              'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Sunny.' }], finish_reason: 'stop' }]),
              'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'weather' }]),
            },
          }),
          span({ traceId, spanId: agent, parentSpanId: root, name: 'invoke_agent planner', attributes: { 'gen_ai.operation.name': 'invoke_agent' } }),
          span({ traceId, spanId: root, name: 'POST /ask', durationMs: 4000, attributes: { 'http.request.method': 'POST' } }),
          // Nothing LLM, and nothing LLM under it: left out.
          span({ traceId, parentSpanId: root, name: 'SELECT users', attributes: { 'db.system.name': 'postgresql' } }),
        ],
        { 'service.name': 'chatbot', 'user.id': 'otel-user-1' },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});

    const [g] = await read.generations(traceId);
    expect(g).toMatchObject({
      kind: 'generation',
      model: 'gpt-4o-2024-08-06',
      provider: 'openai',
      input_tokens: 1_000_000,
      output_tokens: 100_000,
      cache_read_tokens: 400_000,
      latency: 2.5,
      trace_id: traceId,
      span_id: chat,
      parent_id: agent,
      name: 'chat gpt-4o',
      is_error: false,
      distinct_id: 'otel-user-1',
      timestamp: '2026-11-20T10:00:01.000Z',
    });
    // 600k uncached at 2.5 + 400k cached at 1.25; 100k output at 10.
    expect(g!.cost_usd).toBeCloseTo(3.0, 9);

    const trace = await read.trace(traceId);
    expect(trace).toMatchObject({ trace_id: traceId, generation_count: 1, is_error: false });
    expect(trace.children).toHaveLength(1);
    expect(trace.children[0]).toMatchObject({ kind: 'trace', span_id: root, name: 'POST /ask', latency: 4 });
    expect(trace.children[0].children[0]).toMatchObject({ kind: 'span', span_id: agent, parent_id: root, name: 'invoke_agent planner' });
    expect(trace.children[0].children[0].children[0]).toMatchObject({ kind: 'generation', span_id: chat });

    const events = await read.events('otel-user-1');
    expect([...events.values()].map((e) => e.event).sort()).toEqual(['$ai_generation', '$ai_span', '$ai_trace']);
    const generation = events.get(g!.id as string)!;
    expect(generation.properties).toMatchObject({
      $ai_lib: 'opentelemetry',
      $ai_trace_id: traceId,
      $ai_span_id: chat,
      $ai_parent_id: agent,
      $ai_model_parameters: { temperature: 0.2, max_tokens: 300 },
      $ai_input: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'function', id: 'call_1', function: { name: 'weather', arguments: { city: 'Paris' } } }] },
        { role: 'tool', content: [{ type: 'tool_result', tool_call_id: 'call_1', content: 'sunny' }] },
      ],
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: 'Sunny.' }] }],
      $ai_stop_reason: 'stop',
      $ai_tools: [{ type: 'function', name: 'weather' }],
      $ai_latency: 2.5,
    });
    expect(generation.properties.$process_person_profile).toBeUndefined();
  });

  it('OpenLLMetry’s numbered prompt and completion, its token names; an embedding; no user: the trace id, without a person', async () => {
    const traceId = hex(16);
    const res = await post(
      exportOf([
        span({
          traceId,
          name: 'anthropic.chat',
          attributes: {
            'gen_ai.system': 'Anthropic',
            'llm.request.type': 'chat',
            'gen_ai.request.model': 'claude-sonnet-4-5',
            'gen_ai.usage.prompt_tokens': 1_000_000,
            'gen_ai.usage.completion_tokens': 0,
            'gen_ai.prompt.0.role': 'user',
            'gen_ai.prompt.0.content': 'Hi',
            'gen_ai.completion.0.role': 'assistant',
            'gen_ai.completion.0.content': 'Hello!',
            'gen_ai.completion.0.finish_reason': 'end_turn',
            'gen_ai.completion.0.tool_calls.0.id': 'toolu_1',
            'gen_ai.completion.0.tool_calls.0.name': 'lookup',
            'gen_ai.completion.0.tool_calls.0.arguments': '{"q":"x"}',
          },
        }),
        span({
          traceId,
          name: 'openai.embeddings',
          attributes: {
            'gen_ai.system': 'openai',
            'llm.request.type': 'embedding',
            'gen_ai.request.model': 'text-embedding-3-small',
            'gen_ai.usage.prompt_tokens': 1_000_000,
          },
        }),
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const rows = await read.generations(traceId);
    const chat = rows.find((r) => r.kind === 'generation')!;
    expect(chat).toMatchObject({ provider: 'Anthropic', model: 'claude-sonnet-4-5', input_tokens: 1_000_000, output_tokens: 0, distinct_id: traceId });
    expect(chat.cost_usd).toBeCloseTo(3, 9);
    expect(rows.find((r) => r.kind === 'embedding')).toMatchObject({ model: 'text-embedding-3-small', input_tokens: 1_000_000, cost_usd: 0.02 });
    const event = (await read.events(traceId)).get(chat.id as string)!;
    expect(event.properties).toMatchObject({
      $ai_input: [{ role: 'user', content: 'Hi' }],
      $ai_output_choices: [
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Hello!' },
            { type: 'function', id: 'toolu_1', function: { name: 'lookup', arguments: '{"q":"x"}' } },
          ],
        },
      ],
      $ai_stop_reason: 'end_turn',
      $process_person_profile: false,
    });
  });

  it('the Vercel AI SDK’s spans: doGenerate is the generation (Anthropic’s input without cached tokens), generateText the trace', async () => {
    const traceId = hex(16);
    const root = hex(8);
    const metadata = { 'ai.telemetry.functionId': 'answer', 'ai.telemetry.metadata.userId': 'vercel-user' };
    const res = await post(
      exportOf([
        span({
          traceId,
          parentSpanId: root,
          name: 'ai.streamText.doStream',
          attributes: {
            ...metadata,
            'ai.operationId': 'ai.streamText.doStream',
            'ai.model.provider': 'anthropic.messages',
            'ai.model.id': 'claude-sonnet-4-5',
            'ai.prompt.messages': JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]),
            'ai.prompt.tools': [JSON.stringify({ type: 'function', name: 'search' })],
            'ai.response.text': 'Hello',
            'ai.response.toolCalls': JSON.stringify([{ toolCallId: 't1', toolName: 'search', input: '{}' }]),
            'ai.response.finishReason': 'tool-calls',
            'ai.response.msToFirstChunk': 350.5,
            'ai.usage.inputTokens': 1_500_000,
            'ai.usage.inputTokenDetails.noCacheTokens': 1_000_000,
            'ai.usage.inputTokenDetails.cacheReadTokens': 500_000,
            'ai.usage.outputTokens': 10,
            'gen_ai.system': 'anthropic.messages',
            'gen_ai.request.model': 'claude-sonnet-4-5',
          },
        }),
        span({
          traceId,
          spanId: root,
          name: 'ai.streamText',
          durationMs: 3000,
          attributes: { ...metadata, 'ai.operationId': 'ai.streamText', 'ai.prompt': '{"prompt":"Hi"}', 'ai.response.text': 'Hello' },
        }),
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [g] = await read.generations(traceId);
    expect(g).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      input_tokens: 1_000_000,
      cache_read_tokens: 500_000,
      time_to_first_token: 0.3505,
    });
    // 1M uncached at 3 + 500k read at 0.3 + 10 output at 15.
    expect(g!.cost_usd).toBeCloseTo(3 + 0.15 + 0.00015, 9);
    const trace = await read.trace(traceId);
    expect(trace.children[0]).toMatchObject({ kind: 'trace', name: 'answer', distinct_id: 'vercel-user' });
    const events = await read.events('vercel-user');
    expect(events.get(g!.id as string)!.properties).toMatchObject({
      $ai_input: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      $ai_output_choices: [
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Hello' },
            { type: 'tool-call', toolCallId: 't1', toolName: 'search', input: '{}' },
          ],
        },
      ],
      $ai_tools: [{ type: 'function', name: 'search' }],
      $ai_stop_reason: 'tool-calls',
    });
    expect(events.get(trace.children[0].id)!.properties).toMatchObject({ $ai_input_state: { prompt: 'Hi' }, $ai_output_state: 'Hello' });
  });

  it('a failed call: an error with the status message, else its exception event; no usage is said, not counted as 0', async () => {
    const traceId = hex(16);
    const res = await post(
      exportOf([
        span({
          traceId,
          name: 'chat gpt-4o',
          attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.provider.name': 'openai', 'error.type': '429' },
          status: { code: 2 },
          events: [{ name: 'exception', attributes: { 'exception.type': 'RateLimitError', 'exception.message': 'Too many requests' } }],
        }),
      ]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const [g] = await read.generations(traceId);
    expect(g).toMatchObject({ is_error: true, error: 'RateLimitError: Too many requests', input_tokens: null, output_tokens: null, cost_usd: null });
    expect((await read.trace(traceId)).is_error).toBe(true);
  });

  it('an export sent again (exporters retry), or a span twice in one, stores each span once', async () => {
    const traceId = hex(16);
    const chat = span({ traceId, name: 'chat', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' } });
    const body = exportOf([chat, chat]);
    expect((await post(body)).statusCode).toBe(200);
    expect((await post(body, { url: '/i/v0/ai/otel/v1/traces' })).statusCode).toBe(200);
    expect(await read.generations(traceId)).toHaveLength(1);
  });

  it('a name that is an object’s own (`constructor`) is a plain name; a status may be sent by its name', async () => {
    const traceId = hex(16);
    const chat = span({ traceId, name: 'constructor', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' } });
    const res = await post(exportOf([{ ...chat, status: { code: 'STATUS_CODE_ERROR', message: 'boom' } }]));
    expect(res.statusCode, res.body).toBe(200);
    expect((await read.trace(traceId)).children[0]).toMatchObject({ kind: 'generation', name: 'constructor', model: 'gpt-4o', is_error: true, error: 'boom' });
  });
});

describe('bad input', () => {
  it('malformed spans are refused alone: 400 naming how many and why, the rest stored', async () => {
    const traceId = hex(16);
    const chat = (over: Record<string, unknown>) => ({
      ...span({ traceId, name: 'chat', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 5 } }),
      ...over,
    });
    const res = await post(
      exportOf([
        chat({}),
        chat({ traceId: undefined }),
        chat({ spanId: 'not-hex' }),
        chat({
          attributes: [
            { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
            { key: 'gen_ai.usage.input_tokens', value: { stringValue: 'five' } },
          ],
        }),
        chat({ startTimeUnixNano: 'yesterday' }),
        chat({ attributes: 'none' }),
        chat({ spanId: '0000000000000000' }),
      ]),
    );
    expect(res.statusCode).toBe(400);
    const error = res.json();
    expect(error).toMatchObject({ type: 'validation_error', code: 'invalid_spans', attr: 'resourceSpans__0__scopeSpans__0__spans__1' });
    expect(error.detail).toMatch(/^6 of 7 spans were refused \(the others were stored\): resourceSpans\.0\.scopeSpans\.0\.spans\.1: its traceId/);
    expect(error.detail).toContain('spans.2: its spanId is not 8 bytes of hex');
    expect(error.detail).toContain('gen_ai.usage.input_tokens is not a count');
    expect(error.detail).toContain('and 3 more');
    expect(await read.generations(traceId)).toHaveLength(1);
  });

  it('a body that is not an OTLP export is a 400 as a whole, never a 500', async () => {
    for (const body of ['[]', '"x"', '{"resourceSpans": 5}', '{"resourceSpans": [1]}', '{"resourceSpans": [{"scopeSpans": {}}]}', '{nope', '']) {
      const res = await post(body);
      expect(res.statusCode, `${body}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
    }
    const garbage = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), { headers: { 'content-type': 'application/x-protobuf' } });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json()).toMatchObject({ code: 'parse_error' });
    // Nothing to store is no error: an empty export.
    expect((await post({ resourceSpans: [] })).statusCode).toBe(200);
    expect((await post(Buffer.alloc(0), { headers: { 'content-type': 'application/x-protobuf' } })).statusCode).toBe(200);
  });

  it('takes the project token as a Bearer token or ?token=; 401 without one or for an unknown one; 415 for other media types', async () => {
    const body = exportOf([]);
    expect((await post(body, { token: '' })).statusCode).toBe(401);
    expect((await post(body, { token: 'phc_unknown' })).json()).toMatchObject({ code: 'invalid_api_key' });
    expect((await post(body, { token: s.key })).statusCode).toBe(401);
    expect((await post(body, { token: '', url: `/i/v0/ai/otel?token=${s.token}` })).statusCode).toBe(200);
    const plain = await post(body, { headers: { 'content-type': 'text/plain' } });
    expect(plain.statusCode).toBe(415);
    expect(Object.keys(plain.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
  });

  it('reads gzip; refuses a body over the limit (413) before reading it', async () => {
    const traceId = hex(16);
    const body = exportOf([span({ traceId, name: 'chat', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' } })]);
    const res = await post(gzipSync(JSON.stringify(body)), { headers: { 'content-encoding': 'gzip' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await read.generations(traceId)).toHaveLength(1);
    const large = await post('{}', { headers: { 'content-length': String(64 * 1024 * 1024) } });
    expect(large.statusCode).toBe(413);
  });

  it('protobuf bytes damaged anywhere, or nested past reason: a 200 or a 4xx with the error shape, never a 500', async () => {
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
    const tracer = provider.getTracer('fuzz');
    const root = tracer.startSpan('agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'user.id': 'proto-fuzz' } });
    root.end();
    tracer
      .startSpan('chat', {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.usage.input_tokens': 7,
          'gen_ai.request.stop_sequences': ['x'],
        },
      })
      .end();
    const valid = Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!);
    const proto = (payload: Buffer) => post(payload, { headers: { 'content-type': 'application/x-protobuf' } });
    const ok = await proto(valid);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^application\/x-protobuf/);
    expect(ok.rawPayload).toHaveLength(0);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.nat(valid.length),
        async (flips, cut) => {
          const damaged = Buffer.from(valid.subarray(0, Math.max(cut, 1)));
          for (const [at, byte] of flips) if (at < damaged.length) damaged[at] = byte;
          const res = await proto(damaged);
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (res.statusCode >= 400) expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
        },
      ),
      { numRuns: 150, seed: 20_261_129 },
    );
    // A span's attribute value nested 100,000 deep (an array in an array …), built from the inside out.
    const varint = (n: number) => {
      const bytes: number[] = [];
      for (; n > 127; n >>>= 7) bytes.push((n & 127) | 128);
      return [...bytes, n];
    };
    const headers: number[][] = [];
    let length = 0;
    const wrap = (field: number) => {
      const header = [(field << 3) | 2, ...varint(length)];
      headers.push(header);
      length += header.length;
    };
    for (let i = 0; i < 50_000; i++) [1, 5].forEach(wrap); // ArrayValue.values, AnyValue.arrayValue
    [2, 9, 2, 2, 1].forEach(wrap); // KeyValue.value, Span.attributes, ScopeSpans.spans, ResourceSpans.scopeSpans, the request's resourceSpans
    const nested = await proto(Buffer.from(headers.reverse().flat()));
    expect(nested.statusCode, nested.body).toBe(400);
    const deepJson = await post(`{"resourceSpans":${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(deepJson.statusCode).toBe(400);
  });
});
