import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmStore } from '../src/llm/store';
import { startService, type TestService } from './helpers';

// LLM inputs and outputs stored once (migration 0022), on both databases: a large value (or a large message of a list)
// is kept once per project in `llm_payloads`, every read puts it back as it was sent; a computed cost is written into
// the stored event's properties.

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const send = (batch: unknown[], url = '/i/v0/ai/batch/') => s.app.inject({ method: 'POST', url, payload: { api_key: s.token, batch } });
const get = async (path: string) => {
  const res = await s.app.inject({ method: 'GET', url: `/api/projects/${s.projectId}${path}`, headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const generation = (properties: Record<string, unknown>, distinctId = 'payloads-user') => ({
  event: '$ai_generation',
  uuid: randomUUID(),
  distinct_id: distinctId,
  timestamp: new Date().toISOString(),
  properties: { $ai_provider: 'openai', $ai_model: 'my-model', ...properties } as Record<string, unknown>,
});
type Stored = { id: string; event: string; properties: Record<string, unknown> };
/** Every event of a distinct id through the events API, by uuid. */
const eventsOf = async (distinctId: string) => {
  const byId = new Map<string, Stored>();
  for (let offset = 0; ; offset += 100) {
    const body = await get(`/events/?distinct_id=${encodeURIComponent(distinctId)}&limit=100&offset=${offset}`);
    for (const e of body.results as Stored[]) byId.set(e.id, e);
    if (!body.next) return byId;
  }
};
const row = (uuid: string) =>
  s.services.db.kysely.selectFrom('events').select(['properties', 'llm_payloads', 'llm_payload_bytes']).where('uuid', '=', uuid).executeTakeFirstOrThrow();
const payloadRows = (json: string) =>
  s.services.db.kysely
    .selectFrom('llm_payloads')
    .select('payload')
    .where('project_id', '=', s.projectId)
    .where('hash', '=', createHash('sha256').update(json).digest('base64url').slice(0, 22))
    .execute();

describe('large inputs and outputs', () => {
  it('a 5 MB input through /i/v0/ai/batch/ is kept whole, apart from its row, and read back equal by the events and trace APIs', async () => {
    const trace = randomUUID();
    const input = [
      { role: 'system', content: 'Answer in French. '.repeat(100) },
      // 5 MB of UTF-8.
      { role: 'user', content: `Résumé: ${'é'.repeat(1024 * 1024)}${'x'.repeat(3 * 1024 * 1024)}` },
      { role: 'user', content: 'short' },
    ];
    const output = [{ role: 'assistant', content: 'ok' }];
    const big = generation({ $ai_trace_id: trace, $ai_input: input, $ai_output_choices: output, $ai_input_tokens: 1, $ai_output_tokens: 1 }, 'five-mb');
    expect((await send([big])).statusCode).toBe(200);

    const stored = await row(big.uuid);
    // Both large messages apart (each in its place), the small one and the small output in the row.
    expect(stored.properties.length).toBeLessThan(2_000);
    expect(JSON.parse(stored.llm_payloads!)).toEqual([
      ['$ai_input', 0, expect.any(String)],
      ['$ai_input', 1, expect.any(String)],
    ]);
    expect((await payloadRows(JSON.stringify(input[1]))).map((r) => r.payload)).toEqual([JSON.stringify(input[1])]);

    const [event] = (await eventsOf('five-mb')).values();
    expect(event!.properties.$ai_input).toEqual(input);
    expect(event!.properties.$ai_output_choices).toEqual(output);
    // As sent: the keys in their order.
    expect(Object.keys(event!.properties).slice(0, 5)).toEqual(Object.keys(big.properties).slice(0, 5));

    const tree = await get(`/llm/traces/${trace}/`);
    expect(tree.children[0].properties.$ai_input).toEqual(input);
  });

  it('1,000 calls sharing a large system prompt and tool list store each once; the rest of each input stays in its row', async () => {
    const system = { role: 'system', content: `You are the store's assistant ${randomUUID()}. ${'Be brief and cite the plan page. '.repeat(200)}` };
    const tools = Array.from({ length: 20 }, (_, i) => ({ type: 'function', function: { name: `tool_${i}`, description: 'Looks a plan up. '.repeat(4) } }));
    const batch = Array.from({ length: 1000 }, (_, i) =>
      generation(
        { $ai_input: [system, { role: 'user', content: `question ${i}` }], $ai_tools: tools, $ai_output_choices: [{ content: `answer ${i}` }] },
        'shared-prompt',
      ),
    );
    for (let i = 0; i < batch.length; i += 250) expect((await send(batch.slice(i, i + 250), '/batch/')).statusCode).toBe(200);

    expect(await payloadRows(JSON.stringify(system))).toHaveLength(1);
    // The tool list is small tools, large in all: apart whole.
    expect(await payloadRows(JSON.stringify(tools))).toHaveLength(1);
    const rows = await s.services.db.kysely
      .selectFrom('events')
      .select(['properties'])
      .where('distinct_id', '=', 'shared-prompt')
      .where('project_id', '=', s.projectId)
      .execute();
    expect(rows).toHaveLength(1000);
    expect(Math.max(...rows.map((r) => r.properties.length))).toBeLessThan(600);

    const events = await eventsOf('shared-prompt');
    expect(events.size).toBe(1000);
    for (const sent of batch) {
      const got = events.get(sent.uuid)!.properties;
      expect(got.$ai_input).toEqual(sent.properties.$ai_input);
      expect(got.$ai_tools).toEqual(tools);
      expect(got.$ai_output_choices).toEqual(sent.properties.$ai_output_choices);
    }
  });

  it('a value that is no list is kept apart whole; small values and other properties stay in the row', async () => {
    const state = { messages: Array.from({ length: 50 }, (_, i) => `step ${i} of the agent`), plan: 'x'.repeat(500) };
    const span = {
      event: '$ai_span',
      uuid: randomUUID(),
      distinct_id: 'state-user',
      properties: { $ai_trace_id: randomUUID(), $ai_input_state: state, $ai_output_state: 'done', other: 'y'.repeat(5000) },
    };
    expect((await send([span])).statusCode).toBe(200);
    const stored = await row(span.uuid);
    expect(JSON.parse(stored.llm_payloads!)).toEqual([['$ai_input_state', null, expect.any(String)]]);
    expect(stored.properties).toContain('"$ai_output_state":"done"');
    expect(stored.properties).toContain('y'.repeat(5000));
    const json = JSON.stringify(state);
    expect(Number(stored.llm_payload_bytes)).toBe(Buffer.byteLength(json) - 24);
    const [event] = (await eventsOf('state-user')).values();
    expect(event!.properties).toEqual(span.properties);
  });

  it('every node of a trace carries its properties whole; past the byte budget, the later events come without', async () => {
    const trace = randomUUID();
    const prompt = [{ role: 'system', content: `Plan the trip. ${'Think step by step. '.repeat(100)}` }];
    const events = [
      { event: '$ai_trace', properties: { $ai_trace_id: trace, $ai_span_name: 'agent', $ai_input_state: { goal: 'g'.repeat(2000) } } },
      { event: '$ai_span', properties: { $ai_trace_id: trace, $ai_span_id: 'step', $ai_parent_id: trace, $ai_span_name: 'step' } },
      { event: '$ai_generation', properties: { $ai_trace_id: trace, $ai_span_id: 'call', $ai_parent_id: 'step', $ai_model: 'gpt-4o', $ai_input: prompt } },
    ].map((e, i) => ({ ...e, uuid: randomUUID(), distinct_id: 'tree-user', timestamp: new Date(Date.UTC(2026, 10, 20, 10, 0, i)).toISOString() }));
    expect((await send(events)).statusCode).toBe(200);
    const tree = await get(`/llm/traces/${trace}/`);
    const generation = tree.children[0].children[0].children[0];
    expect(generation.properties.$ai_input).toEqual(prompt);
    expect(tree.children[0].properties.$ai_input_state).toEqual(events[0]!.properties.$ai_input_state);

    // The first event always; then none past the budget.
    const within = await llmStore.properties(
      s.services.db.kysely,
      s.projectId,
      events.map((e) => e.uuid),
      100,
    );
    expect(within.map((e) => e.uuid)).toEqual([events[0]!.uuid]);
  });

  it('an event is measured whole: over 8 MiB with its values apart is refused with its exact size', async () => {
    const big = generation({ $ai_input: [{ role: 'user', content: 'x'.repeat(8 * 1024 * 1024) }] }, 'too-big');
    const res = await send([big]);
    expect(res.statusCode).toBe(413);
    const bytes = Buffer.byteLength(JSON.stringify(big.properties)) + Buffer.byteLength('$ai_generation') + Buffer.byteLength('too-big');
    expect(res.json().detail).toContain(`${bytes} bytes`);
  });

  it('a page of events counts the values apart in its byte budget', async () => {
    const five = (i: number) => generation({ $ai_input: [{ role: 'user', content: `${i}${'z'.repeat(5 * 1024 * 1024)}` }] }, 'budget');
    for (const i of [1, 2]) expect((await send([five(i)])).statusCode).toBe(200);
    const body = await get('/events/?distinct_id=budget&limit=10');
    expect(body.count).toBe(2);
    // 8 MB a page: the second 5 MB event goes to the next page.
    expect(body.results).toHaveLength(1);
    expect(String((body.results[0].properties.$ai_input as { content: string }[])[0]!.content)).toHaveLength(5 * 1024 * 1024 + 1);
  });

  it('events stored before migration 0022 (their values inside their properties) read back alike', async () => {
    const uuid = randomUUID();
    const properties = { $ai_trace_id: randomUUID(), $ai_model: 'gpt-4o', $ai_input: [{ role: 'system', content: 'old '.repeat(1000) }] };
    await s.services.db.kysely
      .insertInto('events')
      .values({
        project_id: s.projectId,
        uuid,
        event: '$ai_generation',
        distinct_id: 'old-format',
        properties: JSON.stringify(properties),
        timestamp: new Date().toISOString(),
        created_at: new Date().toISOString(),
        exception_stacks: null,
      })
      .execute();
    const [event] = (await eventsOf('old-format')).values();
    expect(event!.properties).toEqual(properties);
  });
});

describe('cost written back', () => {
  it('a cost the service computed is in the stored properties; a client’s cost stays as sent; an unknown model has none', async () => {
    const priced = generation({ $ai_model: 'gpt-4o', $ai_input_tokens: 1_000_000, $ai_output_tokens: 100_000 }, 'cost-user');
    const sent = generation({ $ai_model: 'gpt-4o', $ai_input_tokens: 10, $ai_output_tokens: 10, $ai_total_cost_usd: 42 }, 'cost-user');
    const unknown = generation({ $ai_model: 'my-own-model', $ai_input_tokens: 10, $ai_output_tokens: 10 }, 'cost-user');
    // Sent as something else than an amount: replaced by the computed cost, in place.
    const junk = generation({ $ai_model: 'gpt-4o', $ai_input_tokens: 1_000_000, $ai_output_tokens: 0, $ai_input_cost_usd: null }, 'cost-user');
    const large = generation(
      { $ai_model: 'gpt-4o', $ai_input_tokens: 0, $ai_output_tokens: 1_000_000, $ai_input: [{ role: 'system', content: 'cost '.repeat(1000) }] },
      'cost-user',
    );
    expect((await send([priced, sent, unknown, junk, large], '/batch/')).statusCode).toBe(200);
    const events = await eventsOf('cost-user');
    expect(events.get(priced.uuid)!.properties).toMatchObject({ $ai_input_cost_usd: 2.5, $ai_output_cost_usd: 1, $ai_total_cost_usd: 3.5 });
    expect(events.get(sent.uuid)!.properties).toEqual(sent.properties);
    expect(events.get(unknown.uuid)!.properties).toEqual(unknown.properties);
    expect(events.get(junk.uuid)!.properties).toEqual({ ...junk.properties, $ai_input_cost_usd: 2.5, $ai_output_cost_usd: 0, $ai_total_cost_usd: 2.5 });
    expect(events.get(large.uuid)!.properties).toEqual({ ...large.properties, $ai_input_cost_usd: 0, $ai_output_cost_usd: 10, $ai_total_cost_usd: 10 });
    // The same cost as the generations API's.
    const generations = (await get(`/llm/generations/?distinct_id=cost-user`)).results as { id: string; cost_usd: number }[];
    expect(generations.find((g) => g.id === priced.uuid)!.cost_usd).toBe(3.5);
  });
});
