import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// LLM observability on both databases: `$ai_*` events from `/batch/` and `/i/v0/ai/batch/` become generations with
// their cost, the API lists them, nests a trace and adds usage up.

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const send = (batch: unknown[], url = '/batch/') => s.app.inject({ method: 'POST', url, payload: { api_key: s.token, batch } });
const get = async (path: string) => {
  const res = await s.app.inject({ method: 'GET', url: `/api/projects/${s.projectId}${path}`, headers: s.headers });
  return { status: res.statusCode, body: res.json() };
};
const generation = (properties: Record<string, unknown>, distinctId = 'user-1', uuid = randomUUID()) => ({
  event: '$ai_generation',
  uuid,
  distinct_id: distinctId,
  timestamp: '2026-11-20T10:00:00Z',
  properties: { $ai_provider: 'openai', $ai_model: 'gpt-4o', ...properties },
});
const byId = async (id: string) => (await get(`/llm/generations/?trace_id=${encodeURIComponent(id)}`)).body.results as Record<string, unknown>[];

describe('generations at ingest', () => {
  it('are priced from the table: OpenAI bills cached tokens (part of the input) at the cache price; a dated snapshot is its model', async () => {
    const trace = randomUUID();
    const res = await send([
      generation({
        $ai_trace_id: trace,
        $ai_model: 'gpt-4o-2024-08-06',
        $ai_input_tokens: 1_000_000,
        $ai_output_tokens: 100_000,
        $ai_cache_read_input_tokens: 400_000,
        $ai_latency: 1.5,
      }),
    ]);
    expect(res.statusCode).toBe(200);
    const [g] = await byId(trace);
    // 600k uncached at 2.5 + 400k cached at 1.25 = 2.0; 100k output at 10 = 1.0.
    expect(g).toMatchObject({ model: 'gpt-4o-2024-08-06', provider: 'openai', input_tokens: 1_000_000, output_tokens: 100_000, latency: 1.5, is_error: false });
    expect(g!.input_cost_usd).toBeCloseTo(2.0, 9);
    expect(g!.output_cost_usd).toBeCloseTo(1.0, 9);
    expect(g!.cost_usd).toBeCloseTo(3.0, 9);
  });

  it('Anthropic: cache reads and writes are apart from the input tokens, each at its price', async () => {
    const trace = randomUUID();
    await send([
      generation({
        $ai_trace_id: trace,
        $ai_provider: 'anthropic',
        $ai_model: 'claude-sonnet-4-5-20250929',
        $ai_input_tokens: 1_000_000,
        $ai_output_tokens: 0,
        $ai_cache_read_input_tokens: 1_000_000,
        $ai_cache_creation_input_tokens: 1_000_000,
      }),
    ]);
    const [g] = await byId(trace);
    expect(g!.cost_usd).toBeCloseTo(3 + 0.3 + 3.75, 9);
  });

  it('an unknown model has no cost; no usage leaves tokens null; the client’s cost wins', async () => {
    const trace = randomUUID();
    await send([
      generation({ $ai_trace_id: trace, $ai_model: 'my-own-model', $ai_input_tokens: 10, $ai_output_tokens: 10 }),
      generation({ $ai_trace_id: trace, $ai_model: 'gpt-4o', $ai_usage_missing: true }),
      generation({ $ai_trace_id: trace, $ai_model: 'gpt-4o', $ai_input_tokens: 10, $ai_output_tokens: 10, $ai_total_cost_usd: 42 }),
    ]);
    const rows = await byId(trace);
    const of = (model: string, cost: number | null) => rows.find((r) => r.model === model && r.cost_usd === cost);
    expect(of('my-own-model', null)).toMatchObject({ input_tokens: 10, output_tokens: 10, input_cost_usd: null });
    expect(of('gpt-4o', null)).toMatchObject({ input_tokens: null, output_tokens: null });
    expect(of('gpt-4o', 42)).toBeDefined();
  });

  it('a snapshot date or -latest is its model; a variant of a model is not priced as the model', async () => {
    const trace = randomUUID();
    const tokens = { $ai_trace_id: trace, $ai_input_tokens: 1_000_000, $ai_output_tokens: 0 };
    await send([
      generation({ ...tokens, $ai_provider: 'anthropic', $ai_model: 'claude-3-5-sonnet-20241022' }),
      generation({ ...tokens, $ai_provider: 'anthropic', $ai_model: 'claude-3-5-haiku-latest' }),
      generation({ ...tokens, $ai_model: 'o1-pro' }),
      generation({ ...tokens, $ai_model: 'gpt-4o-audio-preview' }),
    ]);
    const cost = Object.fromEntries((await byId(trace)).map((r) => [r.model, r.cost_usd]));
    expect(cost).toEqual({ 'claude-3-5-sonnet-20241022': 3, 'claude-3-5-haiku-latest': 0.8, 'o1-pro': null, 'gpt-4o-audio-preview': null });
  });

  it('take events up to 8 MiB on /i/v0/ai/batch/, which /batch/ refuses; an error is kept with its status', async () => {
    const trace = randomUUID();
    const big = generation({
      $ai_trace_id: trace,
      $ai_input: [{ role: 'user', content: 'x'.repeat(3 * 1024 * 1024) }],
      $ai_is_error: true,
      $ai_http_status: 500,
      $ai_error: 'upstream failed',
    });
    expect((await send([big])).statusCode).toBe(413);
    const res = await send([big], '/i/v0/ai/batch/');
    expect(res.statusCode, res.body).toBe(200);
    const [g] = await byId(trace);
    expect(g).toMatchObject({ is_error: true, http_status: 500, error: 'upstream failed' });
    // The event itself is kept whole: its input apart (llm-payloads.test.ts), read back as it was sent.
    const { body } = await get(`/events/?event=%24ai_generation&distinct_id=user-1&limit=100`);
    const stored = (body.results as { id: string; properties: Record<string, unknown> }[]).find((e) => e.id === big.uuid);
    expect(stored!.properties.$ai_input).toEqual((big.properties as Record<string, unknown>).$ai_input);
  });

  it('a generation sent twice is one row', async () => {
    const trace = randomUUID();
    const g = generation({ $ai_trace_id: trace, $ai_input_tokens: 1, $ai_output_tokens: 1 });
    await send([g]);
    await send([g]);
    expect(await byId(trace)).toHaveLength(1);
  });
});

describe('the generations list', () => {
  it('filters by model, provider, person, error, flag variant, cost and dates, and pages', async () => {
    const user = `filters-${randomUUID()}`;
    await send([
      generation({ $ai_model: 'gpt-4o-mini', $ai_input_tokens: 1000, $ai_output_tokens: 1000, '$feature/checkout': 'test', $set: { email: 'a@x.test' } }, user),
      generation({ $ai_model: 'gpt-4o-mini', $ai_input_tokens: 10, $ai_output_tokens: 10, '$feature/checkout': 'control', $ai_is_error: true }, user),
      {
        ...generation({ $ai_provider: 'anthropic', $ai_model: 'claude-3-5-haiku', $ai_input_tokens: 5, $ai_output_tokens: 5 }, user),
        timestamp: '2026-11-10T00:00:00Z',
      },
    ]);
    const q = (query: string) => get(`/llm/generations/?distinct_id=${user}&${query}`);
    expect((await q('')).body.count).toBe(3);
    expect((await q('model=gpt-4o-mini')).body.count).toBe(2);
    expect((await q('provider=anthropic')).body.results[0]).toMatchObject({ model: 'claude-3-5-haiku' });
    expect((await q('is_error=true')).body.results).toMatchObject([{ is_error: true, flags: { checkout: 'control' } }]);
    expect((await q('flag=checkout&variant=test')).body.count).toBe(1);
    expect((await q('flag=checkout')).body.count).toBe(2);
    expect((await q('cost_min=0.0001')).body.count).toBe(1);
    expect((await q('date_from=2026-11-15')).body.count).toBe(2);
    const page = await q('limit=2');
    expect(page.body.results).toHaveLength(2);
    expect(page.body.next).toContain('offset=2');
    const person = (
      await s.services.db.kysely
        .selectFrom('persons')
        .innerJoin('person_distinct_ids', 'person_distinct_ids.person_id', 'persons.id')
        .select('persons.uuid')
        .where('person_distinct_ids.distinct_id', '=', user)
        .executeTakeFirstOrThrow()
    ).uuid;
    expect((await get(`/llm/generations/?person_id=${person}`)).body.count).toBe(3);
    expect((await get(`/llm/generations/?person_id=${randomUUID()}`)).body.count).toBe(0);
  });

  it('refuses bad filters with 400 naming the parameter', async () => {
    for (const [query, attr] of [
      ['is_error=maybe', 'is_error'],
      ['cost_min=-1', 'cost_min'],
      ['variant=test', 'flag'],
      ['date_from=yesterday', 'date_from'],
    ]) {
      const res = await get(`/llm/generations/?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ type: 'validation_error', attr });
    }
  });
});

describe('a trace', () => {
  it('nests spans and generations by parent id; 404 for an unknown trace', async () => {
    const trace = randomUUID();
    await send([
      { event: '$ai_trace', distinct_id: 'agent', properties: { $ai_trace_id: trace, $ai_span_name: 'agent run' } },
      { event: '$ai_span', distinct_id: 'agent', properties: { $ai_trace_id: trace, $ai_span_id: 'plan', $ai_parent_id: trace, $ai_span_name: 'plan' } },
      generation({ $ai_trace_id: trace, $ai_span_id: 'g1', $ai_parent_id: 'plan', $ai_input_tokens: 1_000_000, $ai_output_tokens: 0 }, 'agent'),
      generation({ $ai_trace_id: trace, $ai_span_id: 'g2', $ai_parent_id: trace, $ai_input_tokens: 1_000_000, $ai_output_tokens: 0 }, 'agent'),
      // A cycle in the ids sent loses nothing.
      { event: '$ai_span', distinct_id: 'agent', properties: { $ai_trace_id: trace, $ai_span_id: 'a', $ai_parent_id: 'b' } },
      { event: '$ai_span', distinct_id: 'agent', properties: { $ai_trace_id: trace, $ai_span_id: 'b', $ai_parent_id: 'a' } },
    ]);
    const { status, body } = await get(`/llm/traces/${trace}/`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ trace_id: trace, generation_count: 2, is_error: false });
    expect(body.cost_usd).toBeCloseTo(5, 9);
    const root = body.children.find((n: { kind: string }) => n.kind === 'trace');
    expect(root.name).toBe('agent run');
    const names = (nodes: { span_id: string; children: unknown[] }[]): unknown => nodes.map((n) => [n.span_id, names(n.children as never)]);
    expect(names(root.children)).toEqual(
      expect.arrayContaining([
        ['plan', [['g1', []]]],
        ['g2', []],
      ]),
    );
    const count = (nodes: { children: unknown[] }[]): number => nodes.reduce((sum, n) => sum + 1 + count(n.children as never), 0);
    expect(count(body.children)).toBe(6);
    expect((await get(`/llm/traces/${randomUUID()}/`)).status).toBe(404);
  });
});

describe('usage', () => {
  it('adds calls, tokens, cost, latency p50/p95 and error rate per day and model, and per flag variant', async () => {
    const user = `usage-${randomUUID()}`;
    const latencies = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    await send(
      latencies.map((latency, i) =>
        generation(
          {
            $ai_model: 'gpt-4.1-mini',
            $ai_latency: latency,
            $ai_input_tokens: 100,
            $ai_output_tokens: 10,
            $ai_is_error: i === 0,
            '$feature/exp': i % 2 ? 'test' : 'control',
          },
          user,
        ),
      ),
    );
    const { status, body } = await get(`/llm/usage/?distinct_id=${user}&interval=day&by=model`);
    expect(status).toBe(200);
    expect(body.series).toHaveLength(1);
    const [series] = body.series;
    expect(series).toMatchObject({ key: 'gpt-4.1-mini', calls: 10, input_tokens: 1000, output_tokens: 100, latency_p50: 5, latency_p95: 10, error_rate: 0.1 });
    expect(series.cost_usd).toBeCloseTo((1000 * 0.4 + 100 * 1.6) / 1e6, 12);
    expect(series.buckets).toMatchObject([{ date: '2026-11-20T00:00:00.000Z', calls: 10 }]);
    const flags = (await get(`/llm/usage/?distinct_id=${user}&by=flag&flag=exp`)).body.series;
    expect(Object.fromEntries(flags.map((f: { key: string; calls: number }) => [f.key, f.calls]))).toEqual({ test: 5, control: 5 });
    expect((await get('/llm/usage/?by=flag')).status).toBe(400);
    expect((await get('/llm/usage/?interval=week')).body).toMatchObject({ attr: 'interval' });
  });
});

describe('price overrides', () => {
  it('price models the table lacks, or differently, for the generations stored after', async () => {
    const put = (prices: unknown) => s.app.inject({ method: 'PUT', url: `/api/projects/${s.projectId}/llm_prices/`, headers: s.headers, payload: { prices } });
    const mine = { provider: 'openai', model: 'house-model', input: 1, output: 2 };
    expect((await put([mine])).json()).toEqual({ prices: [mine] });
    expect((await get('/llm_prices/')).body).toEqual({ prices: [mine] });
    const log = (await get('/activity_log/?scope=LlmPrices')).body.results;
    expect(log[0]).toMatchObject({ activity: 'updated', scope: 'LlmPrices', detail: { name: 'LLM prices', changes: [{ field: 'prices', after: [mine] }] } });
    const trace = randomUUID();
    await send([generation({ $ai_trace_id: trace, $ai_model: 'house-model-2026-01-01', $ai_input_tokens: 1_000_000, $ai_output_tokens: 1_000_000 })]);
    expect((await byId(trace))[0]!.cost_usd).toBeCloseTo(3, 9);
    expect((await put([mine, mine])).statusCode).toBe(400);
    expect((await put([{ ...mine, input: -1 }])).statusCode).toBe(400);
    const reader = await s.keyWith(['llm:read']);
    const res = await s.app.inject({ method: 'PUT', url: `/api/projects/${s.projectId}/llm_prices/`, headers: s.auth(reader), payload: { prices: [] } });
    expect(res.statusCode).toBe(403);
  });
});
