import { describe, expect, it } from 'vitest';
import { seconds, usd } from '../src/features/llm/format';
import { chatOf } from '../src/features/llm/messages';
import { flatten, initialNode, traceSeconds } from '../src/features/llm/tree';
import type { TraceNode, UsageSeries } from '../src/features/llm/types';
import { dailyValues, daysOf, totalsOf } from '../src/features/llm/usage';

describe('messages as a chat', () => {
  it('reads OpenAI chat input: text, content parts, tool calls and the tool message answering one', () => {
    const chat = chatOf(
      [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Refund?' },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"id":1}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '{"ok":true}' },
      ],
      'user',
    );
    expect(chat).toEqual([
      { role: 'system', parts: [{ kind: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        parts: [
          { kind: 'text', text: 'Refund?' },
          { kind: 'json', value: { type: 'image_url', image_url: { url: 'https://x.test/a.png' } } },
        ],
      },
      { role: 'assistant', parts: [{ kind: 'tool_call', name: 'lookup', args: '{"id":1}', id: 'c1' }] },
      { role: 'tool', parts: [{ kind: 'tool_result', text: '{"ok":true}', id: 'c1' }] },
    ]);
  });

  it('reads Anthropic tool_use and tool_result blocks, and the output @posthog/ai sends', () => {
    expect(
      chatOf(
        [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '3 °C' }] }] },
        ],
        'user',
      ),
    ).toEqual([
      { role: 'assistant', parts: [{ kind: 'tool_call', name: 'weather', args: '{\n  "city": "Oslo"\n}', id: 't1' }] },
      { role: 'user', parts: [{ kind: 'tool_result', text: '3 °C', id: 't1' }] },
    ]);
    expect(
      chatOf(
        [
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Hi' },
              { type: 'function', id: 'f', function: { name: 'n', arguments: {} } },
            ],
          },
        ],
        'assistant',
      ),
    ).toEqual([
      {
        role: 'assistant',
        parts: [
          { kind: 'text', text: 'Hi' },
          { kind: 'tool_call', name: 'n', args: '{}', id: 'f' },
        ],
      },
    ]);
  });

  it('takes plain text (an embedding input), JSON text (as OTel exporters send), chat choices and Responses output items', () => {
    expect(chatOf('hello', 'user')).toEqual([{ role: 'user', parts: [{ kind: 'text', text: 'hello' }] }]);
    expect(chatOf('[{"role":"user","content":"hi"}]', 'user')).toEqual([{ role: 'user', parts: [{ kind: 'text', text: 'hi' }] }]);
    expect(chatOf('[not json', 'assistant')).toEqual([{ role: 'assistant', parts: [{ kind: 'text', text: '[not json' }] }]);
    expect(chatOf([{ index: 0, message: { role: 'assistant', content: 'ok' } }], 'assistant')).toEqual([
      { role: 'assistant', parts: [{ kind: 'text', text: 'ok' }] },
    ]);
    expect(chatOf({ output: [{ type: 'function_call', call_id: 'r1', name: 'f', arguments: '{}' }] }, 'assistant')).toEqual([
      { role: 'assistant', parts: [{ kind: 'tool_call', name: 'f', args: '{}', id: 'r1' }] },
    ]);
    expect(chatOf(null, 'user')).toEqual([]);
    // What is not recognised is shown as it is, not dropped.
    expect(chatOf([42], 'user')).toEqual([{ role: 'user', parts: [{ kind: 'json', value: 42 }] }]);
  });
});

const series = (key: string, buckets: [string, number, number | null][]): UsageSeries => ({
  key,
  calls: buckets.length * 2,
  input_tokens: 100,
  output_tokens: 10,
  cost_usd: 1,
  latency_p50: 1,
  latency_p95: 2,
  error_rate: 0.5,
  buckets: buckets.map(([date, cost, p95]) => ({
    date: `${date}T00:00:00.000Z`,
    calls: 2,
    input_tokens: 50,
    output_tokens: 5,
    cost_usd: cost,
    latency_p50: p95,
    latency_p95: p95,
    error_rate: 0,
  })),
});

describe('usage for the charts', () => {
  it('spans every UTC day of the range up to today', () => {
    expect(daysOf('-2d', Date.parse('2026-11-29T04:00:00Z'))).toEqual(['2026-11-27', '2026-11-28', '2026-11-29']);
    expect(daysOf('-24h', Date.parse('2026-11-29T04:00:00Z'))).toEqual(['2026-11-28', '2026-11-29']);
  });

  it('puts each day its figure: zero cost on a day without calls, but no latency (a gap)', () => {
    const s = series('gpt-4o', [['2026-11-28', 0.5, 1.5]]);
    const days = ['2026-11-27', '2026-11-28'];
    expect(dailyValues(s, days, 'cost_usd')).toEqual([0, 0.5]);
    expect(dailyValues(s, days, 'tokens')).toEqual([0, 55]);
    expect(dailyValues(s, days, 'latency_p95')).toEqual([null, 1.5]);
  });

  it('adds models up, the error rate weighted by calls', () => {
    const a = { ...series('a', []), calls: 3, error_rate: 1 / 3 };
    const b = { ...series('b', []), calls: 1, error_rate: 0 };
    expect(totalsOf([a, b])).toMatchObject({ calls: 4, cost_usd: 2, input_tokens: 200, error_rate: 0.25 });
    expect(totalsOf([]).error_rate).toBe(0);
  });
});

const node = (id: string, kind: string, timestamp: string, latency: number | null, children: TraceNode[] = []) =>
  ({ id, kind, timestamp, latency, children }) as unknown as TraceNode;

describe('a trace tree', () => {
  const tree = [
    node('t', 'trace', '2026-11-29T00:00:00Z', null, [node('s', 'span', '2026-11-29T00:00:01Z', 1, [node('g', 'generation', '2026-11-29T00:00:01Z', 2.5)])]),
  ];

  it('is read depth first; the call asked for is shown, else the first generation', () => {
    const flat = flatten(tree);
    expect(flat.map((f) => [f.node.id, f.depth])).toEqual([
      ['t', 0],
      ['s', 1],
      ['g', 2],
    ]);
    expect(initialNode(flat, undefined)?.id).toBe('g');
    expect(initialNode(flat, 's')?.id).toBe('s');
    expect(initialNode(flat, 'gone')?.id).toBe('g');
  });

  it('lasts from its first start to its last end', () => {
    expect(traceSeconds(flatten(tree))).toBe(3.5);
  });
});

describe('figures', () => {
  it('writes costs to the cent above a dollar and to three digits below, and seconds as ms, s or min', () => {
    expect([usd(null), usd(0), usd(1234.5), usd(0.004851), usd(0.0000846)]).toEqual(['—', '$0', '$1,234.50', '$0.00485', '$0.0000846']);
    expect([seconds(null), seconds(0.25), seconds(2.345), seconds(42.25), seconds(125)]).toEqual(['—', '250 ms', '2.35 s', '42.3 s', '2 min 5 s']);
  });
});

describe('what is not a message', () => {
  it('is shown as JSON, not as an empty message', () => {
    expect(chatOf({ order_id: '4821' }, 'user')).toEqual([{ role: 'user', parts: [{ kind: 'json', value: { order_id: '4821' } }] }]);
  });
});
