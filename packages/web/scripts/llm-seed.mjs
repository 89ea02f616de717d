// LLM events for the screenshots and the browser test: what a support bot and a summariser send through /batch/ over
// two weeks (three models, their tokens and latencies; some calls fail), and one agent trace with spans, tool calls
// and a chat, the way service-node/ai and @posthog/ai send them.

/** A small deterministic generator, so that every run draws the same charts. */
function random(seed) {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

const MODELS = [
  { model: 'gpt-4o-mini', provider: 'openai', input: 900, output: 220, latency: 0.9 },
  { model: 'claude-sonnet-4-5', provider: 'anthropic', input: 2400, output: 600, latency: 3.2 },
  { model: 'gpt-4o', provider: 'openai', input: 1500, output: 400, latency: 2.1 },
];
const PEOPLE = ['grace', 'linus', 'ada', 'margaret', 'alan'];

/** Generations over the last `days` days (none today for the oldest hour, so that the chart has whole days). */
export function usageEvents(days = 14, now = Date.now()) {
  const rand = random(7);
  const events = [];
  for (let d = days - 1; d >= 0; d--) {
    for (const [i, m] of MODELS.entries()) {
      const calls = 3 + Math.floor(rand() * 4) + (i === 0 ? Math.floor((days - d) / 3) : 0);
      for (let c = 0; c < calls; c++) {
        const at = new Date(now - d * 86_400_000 - (c + 1) * 600_000 - i * 60_000);
        const failed = rand() < 0.06;
        events.push({
          event: '$ai_generation',
          distinct_id: PEOPLE[(c + i) % PEOPLE.length],
          timestamp: at.toISOString(),
          properties: {
            $ai_trace_id: `usage-${d}-${i}-${c}`,
            $ai_model: m.model,
            $ai_provider: m.provider,
            $ai_input_tokens: Math.round(m.input * (0.5 + rand())),
            $ai_output_tokens: failed ? 0 : Math.round(m.output * (0.5 + rand())),
            $ai_latency: Number((m.latency * (0.6 + rand() * 0.9)).toFixed(3)),
            $ai_is_error: failed,
            ...(failed ? { $ai_http_status: 429, $ai_error: 'Rate limit reached for requests' } : { $ai_http_status: 200 }),
            $ai_input: [{ role: 'user', content: 'Summarise this support ticket in two sentences.' }],
            $ai_output_choices: failed ? [] : [{ role: 'assistant', content: [{ type: 'text', text: 'The customer cannot check out with a saved card.' }] }],
          },
        });
      }
    }
  }
  return events;
}

export const AGENT_TRACE = 'trace-refund-4821';

/** One agent run: a trace, a planning span with a tool-calling generation, the tool's span, and the answer. */
export function agentEvents(now = Date.now(), sessionId = null) {
  const t0 = now - 3_600_000;
  const at = (ms) => new Date(t0 + ms).toISOString();
  const common = { $ai_trace_id: AGENT_TRACE, ...(sessionId ? { $session_id: sessionId } : {}) };
  const system = 'You are the support assistant of Example Shop. Answer briefly, and look orders up before promising anything.';
  const question = 'Hi, I was charged twice for order #4821. Can I get a refund for the second charge?';
  const toolCall = { type: 'function', id: 'call_7Qx', function: { name: 'lookup_order', arguments: '{"order_id":"4821"}' } };
  const toolResult = '{"order_id":"4821","charges":[{"id":"ch_1","amount":42.5},{"id":"ch_2","amount":42.5}],"status":"paid"}';
  const answer = 'I can see two charges of $42.50 for order #4821. I have refunded the second one (ch_2): it will be back on your card within 5 business days.';
  return [
    {
      event: '$ai_trace',
      distinct_id: 'grace',
      timestamp: at(0),
      properties: { ...common, $ai_span_name: 'support-agent', $ai_latency: 6.4, $ai_input_state: { ticket: 4821, question }, $ai_output_state: { answer } },
    },
    {
      event: '$ai_span',
      distinct_id: 'grace',
      timestamp: at(50),
      properties: { ...common, $ai_span_id: 'span-plan', $ai_parent_id: AGENT_TRACE, $ai_span_name: 'plan', $ai_latency: 2.3 },
    },
    {
      event: '$ai_generation',
      distinct_id: 'grace',
      timestamp: at(60),
      properties: {
        ...common,
        $ai_span_id: 'gen-plan',
        $ai_parent_id: 'span-plan',
        $ai_model: 'gpt-4o-mini',
        $ai_provider: 'openai',
        $ai_input_tokens: 412,
        $ai_output_tokens: 38,
        $ai_latency: 1.9,
        $ai_http_status: 200,
        $ai_input: [
          { role: 'system', content: system },
          { role: 'user', content: question },
        ],
        $ai_output_choices: [{ role: 'assistant', content: [toolCall] }],
        $ai_tools: [{ type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } } }],
      },
    },
    {
      event: '$ai_span',
      distinct_id: 'grace',
      timestamp: at(2_400),
      properties: {
        ...common,
        $ai_span_id: 'span-tool',
        $ai_parent_id: AGENT_TRACE,
        $ai_span_name: 'lookup_order',
        $ai_latency: 0.35,
        $ai_input_state: { order_id: '4821' },
        $ai_output_state: JSON.parse(toolResult),
      },
    },
    {
      event: '$ai_generation',
      distinct_id: 'grace',
      timestamp: at(2_800),
      properties: {
        ...common,
        $ai_span_id: 'gen-answer',
        $ai_parent_id: AGENT_TRACE,
        $ai_model: 'claude-sonnet-4-5',
        $ai_provider: 'anthropic',
        $ai_input_tokens: 1_180,
        $ai_output_tokens: 64,
        $ai_cache_read_input_tokens: 900,
        $ai_latency: 3.4,
        $ai_time_to_first_token: 0.62,
        $ai_http_status: 200,
        $ai_input: [
          { role: 'system', content: system },
          { role: 'user', content: question },
          { role: 'assistant', content: [toolCall] },
          { role: 'tool', tool_call_id: 'call_7Qx', content: toolResult },
        ],
        $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: answer }] }],
      },
    },
  ];
}

export const PROMPTS = [
  {
    name: 'support-system',
    versions: [
      'You are the support assistant of Example Shop. Answer briefly.',
      'You are the support assistant of Example Shop. Answer briefly, and look orders up before promising anything.\n\nCustomer: {{name}}',
    ],
    labels: { production: 1, staging: 2 },
  },
  { name: 'ticket-summary', versions: ['Summarise this support ticket in two sentences:\n\n{{ticket}}'], labels: { production: 1 } },
];
