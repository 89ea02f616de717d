import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// The traces list on both databases: each trace's events added up, filtered, newest first, paged.

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const send = (batch: unknown[]) => s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch } });
const get = async (path: string) => {
  const res = await s.app.inject({ method: 'GET', url: `/api/projects/${s.projectId}/llm/traces/${path}`, headers: s.headers });
  return { status: res.statusCode, body: res.json() };
};
const ev = (event: string, distinctId: string, timestamp: string, properties: Record<string, unknown>) => ({
  event,
  uuid: randomUUID(),
  distinct_id: distinctId,
  timestamp,
  properties,
});
const generation = (trace: string, at: string, extra: Record<string, unknown> = {}, distinctId = 'alice') =>
  ev('$ai_generation', distinctId, at, { $ai_trace_id: trace, $ai_provider: 'openai', $ai_model: 'gpt-4o', $ai_parent_id: trace, ...extra });

const agent = randomUUID();
const plain = randomUUID();
const failed = randomUUID();
const old = randomUUID();

beforeAll(async () => {
  const res = await send([
    ev('$ai_trace', 'alice', '2026-11-20T10:00:00Z', { $ai_trace_id: agent, $ai_span_name: 'support agent', $ai_latency: 4.5, $session_id: 'sess-1' }),
    ev('$ai_span', 'alice', '2026-11-20T10:00:01Z', { $ai_trace_id: agent, $ai_span_id: 'plan', $ai_parent_id: agent, $ai_span_name: 'plan', $ai_latency: 2 }),
    generation(agent, '2026-11-20T10:00:01Z', { $ai_parent_id: 'plan', $ai_input_tokens: 1_000_000, $ai_output_tokens: 100, $ai_latency: 1.5 }),
    generation(agent, '2026-11-20T10:00:03Z', { $ai_input_tokens: 1_000_000, $ai_output_tokens: 200, $ai_latency: 1 }),
    // Generations alone (no `$ai_trace` event): the longest call is its latency, no usage leaves tokens and cost null.
    generation(plain, '2026-11-21T09:00:00Z', { $ai_model: 'claude-sonnet-4-5', $ai_provider: 'anthropic', $ai_latency: 0.5 }, 'bob'),
    generation(plain, '2026-11-21T09:00:02Z', { $ai_model: 'claude-sonnet-4-5', $ai_provider: 'anthropic', $ai_latency: 0.75 }, 'bob'),
    generation(failed, '2026-11-22T08:00:00Z', { $ai_is_error: true, $ai_error: 'rate limited', $ai_input_tokens: 10, $ai_output_tokens: 0 }, 'bob'),
    generation(old, '2026-10-01T08:00:00Z', { $ai_input_tokens: 1, $ai_output_tokens: 1 }, 'carol'),
  ]);
  expect(res.statusCode).toBe(200);
});

const ids = (body: { results: { id: string }[] }) => body.results.map((t) => t.id);

describe('the traces list', () => {
  it('adds each trace up, newest first', async () => {
    const { status, body } = await get('');
    expect(status).toBe(200);
    expect(body.count).toBe(4);
    expect(ids(body)).toEqual([failed, plain, agent, old]);
    const byId = Object.fromEntries(body.results.map((t: { id: string }) => [t.id, t]));
    expect(byId[agent]).toMatchObject({
      name: 'support agent',
      distinct_id: 'alice',
      session_id: 'sess-1',
      started_at: '2026-11-20T10:00:00.000Z',
      latency: 4.5,
      generations: 2,
      input_tokens: 2_000_000,
      output_tokens: 300,
      is_error: false,
    });
    // 2M input tokens of gpt-4o at 2.5 per million, 300 output at 10.
    expect(byId[agent].cost_usd).toBeCloseTo(5 + 0.003, 9);
    expect(byId[agent].person_id).toEqual(expect.any(String));
    expect(byId[plain]).toMatchObject({ name: null, distinct_id: 'bob', latency: 0.75, generations: 2, input_tokens: null, cost_usd: null, is_error: false });
    expect(byId[failed]).toMatchObject({ is_error: true, generations: 1 });
  });

  it('filters by person, distinct id, model, error and dates, and pages', async () => {
    expect(ids((await get('?distinct_id=bob')).body)).toEqual([failed, plain]);
    const person = (await get('')).body.results.find((t: { id: string }) => t.id === agent).person_id;
    expect(ids((await get(`?person_id=${person}`)).body)).toEqual([agent]);
    expect(ids((await get(`?person_id=${randomUUID()}`)).body)).toEqual([]);
    expect(ids((await get('?model=claude-sonnet-4-5')).body)).toEqual([plain]);
    expect(ids((await get('?is_error=true')).body)).toEqual([failed]);
    expect(ids((await get('?is_error=false')).body)).toEqual([plain, agent, old]);
    expect(ids((await get('?date_from=2026-11-20&date_to=2026-11-21')).body)).toEqual([plain, agent]);
    const page = await get('?limit=2&offset=1');
    expect(page.body.count).toBe(4);
    expect(ids(page.body)).toEqual([plain, agent]);
    expect(page.body.next).toEqual(expect.stringContaining('offset=3'));
  });

  it('a trace keeps all its events when only some match the dates', async () => {
    const straddling = randomUUID();
    await send([
      generation(straddling, '2026-09-01T23:59:59Z', { $ai_input_tokens: 5, $ai_output_tokens: 5 }, 'dan'),
      generation(straddling, '2026-09-02T00:00:01Z', { $ai_input_tokens: 7, $ai_output_tokens: 7 }, 'dan'),
    ]);
    const { body } = await get('?date_from=2026-09-02&date_to=2026-09-03');
    expect(body.results).toEqual([expect.objectContaining({ id: straddling, generations: 2, input_tokens: 12, started_at: '2026-09-01T23:59:59.000Z' })]);
  });

  it('refuses bad filters with 400 naming the parameter', async () => {
    for (const [query, attr] of [
      ['?is_error=yes', 'is_error'],
      ['?date_from=yesterday', 'date_from'],
      ['?date_from=2026-11-22&date_to=2026-11-21', 'date_from'],
    ]) {
      const { status, body } = await get(query!);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ type: 'validation_error', attr });
    }
  });
});

describe("a trace's events with their messages", () => {
  it('are found as the web app asks for one: by trace id and its exact time, through the events API', async () => {
    const trace = randomUUID();
    const input = [{ role: 'user', content: 'Where is my order?' }];
    const g = generation(trace, '2026-11-23T12:00:00.123Z', { $ai_input: input, $ai_output_choices: [{ role: 'assistant', content: 'On its way.' }] });
    const other = generation(trace, '2026-11-23T12:00:00.125Z');
    await send([g, other]);
    const [node] = (await s.app.inject({ method: 'GET', url: `/api/projects/${s.projectId}/llm/traces/${trace}/`, headers: s.headers })).json().children;
    expect(node.id).toBe(g.uuid);
    const at = Date.parse(node.timestamp);
    const query = new URLSearchParams({
      properties: JSON.stringify([{ key: '$ai_trace_id', value: trace }]),
      after: new Date(at - 1).toISOString(),
      before: new Date(at + 1).toISOString(),
    });
    const res = await s.app.inject({ method: 'GET', url: `/api/projects/${s.projectId}/events/?${query}`, headers: s.headers });
    expect(res.statusCode).toBe(200);
    const events = res.json().results;
    expect(events.map((e: { id: string }) => e.id)).toEqual([g.uuid]);
    expect(events[0].properties.$ai_input).toEqual(input);
  });
});
