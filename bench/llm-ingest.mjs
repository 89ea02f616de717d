// npm run bench -- llm-ingest: ingest throughput of `$ai_generation` events (as @posthog/ai sends them, 2 KB of
// prompt and answer, priced at ingest) next to plain events, through POST /batch/ (100 events a request, 32
// connections) against a started service, on SQLite and on PostgreSQL. Every acknowledged event must be stored, and
// every stored generation must have its row with a cost. `npm run bench -- llm-ingest shared`: plain events beside
// generations that all share a 6 KB system prompt and a 3 KB tool list (stored once, `llm_payloads`).
// `npm run bench -- llm-ingest otlp`: the same for OpenTelemetry spans sent to POST /i/v0/ai/otel (llm-otlp.mjs).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { countRows, machine, PG_URL, postgresReachable, record, sendAmount, startServiceOn } from './lib.mjs';
import { otlpMain } from './llm-otlp.mjs';

const COMMAND = 'npm run bench -- llm-ingest';
const EVENTS = 100;
const CONNECTIONS = 32;
const ROUNDS = 3;
const ROUND_SECONDS = 4;
const TEMPLATES = 64;
/** `payload`: the generations' properties under another event name, stored as plain events: what their size alone costs. */
const KINDS = ['plain', 'generations', 'payload'];
/** `shared`: generations whose system prompt and tools, 9 KB of JSON, are the same in every call. */
const SHARED_KINDS = ['plain', 'shared'];
const SHARED_SYSTEM = 'You are the shopping assistant of a store that sells team plans. Answer briefly and cite the plan page. '.repeat(60);
const SHARED_TOOLS = Array.from({ length: 6 }, (_, i) => ({
  type: 'function',
  function: {
    name: `tool_${i}`,
    description: 'Looks a plan up by its name and returns its price, limits and features. '.repeat(6),
    parameters: { type: 'object', properties: { name: { type: 'string' } } },
  },
}));
const MODELS = [
  ['openai', 'gpt-4o-mini-2024-07-18'],
  ['openai', 'gpt-4.1'],
  ['anthropic', 'claude-sonnet-4-5-20250929'],
];

/** Request bodies of one kind; `@@@@@@@@` in every uuid becomes the kind's digit and the request number. */
function bodies(token, kind) {
  const prefix = randomBytes(8).toString('hex');
  const templates = Array.from({ length: TEMPLATES }, (_, t) => {
    const batch = Array.from({ length: EVENTS }, (_, i) => {
      const user = Math.floor(Math.random() * 10_000);
      const uuid = `${prefix.slice(0, 8)}-${prefix.slice(8, 12)}-7${prefix.slice(13, 16)}-8${t.toString(16).padStart(3, '0')}-@@@@@@@@${i.toString(16).padStart(4, '0')}`;
      const base = { uuid, distinct_id: `user-${user}`, timestamp: new Date().toISOString() };
      const common = { $lib: 'posthog-node', $session_id: `s-${prefix.slice(0, 6)}-${t}`, '$feature/new-model': user % 2 ? 'test' : 'control' };
      if (kind === 'plain') return { ...base, event: 'purchase', properties: { ...common, plan: ['free', 'pro'][user % 2], amount: user % 97 } };
      const [provider, model] = MODELS[(t + i) % MODELS.length];
      return {
        ...base,
        event: kind === 'payload' ? 'llm_call' : '$ai_generation',
        properties: {
          ...common,
          $ai_trace_id: `${prefix}-${t}-${Math.floor(i / 4)}`,
          $ai_span_id: `${prefix}-${t}-${i}`,
          $ai_provider: provider,
          $ai_model: model,
          $ai_input: [
            { role: 'system', content: kind === 'shared' ? SHARED_SYSTEM : 'You are a helpful shopping assistant. '.repeat(20) },
            { role: 'user', content: `Which plan suits a team of ${i % 40} people?` },
          ],
          $ai_output_choices: [{ role: 'assistant', content: 'The team plan: it has shared flags, roles and audit logs. '.repeat(10) }],
          $ai_input_tokens: 300 + i,
          $ai_output_tokens: 120,
          $ai_cache_read_input_tokens: i % 3 ? 256 : 0,
          $ai_latency: 0.8 + (i % 10) / 10,
          $ai_http_status: 200,
          $ai_base_url: 'https://api.openai.com/v1',
          $ai_is_error: false,
          ...(kind === 'shared' ? { $ai_tools: SHARED_TOOLS } : {}),
        },
      };
    });
    return JSON.stringify({ api_key: token, batch, sent_at: new Date().toISOString() });
  });
  let n = 0;
  const tag = String([...KINDS, ...SHARED_KINDS].indexOf(kind));
  return () => templates[n % TEMPLATES].replaceAll('@@@@@@@@', `${tag}${(n++).toString(16).padStart(7, '0')}`);
}

async function send(service, next, amount) {
  const result = await sendAmount({
    url: service.url,
    connections: CONNECTIONS,
    amount,
    requests: [{ method: 'POST', path: '/batch/', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: next() }) }],
  });
  const ok = result.statusCodeStats?.['200']?.count ?? 0;
  return { ok, seconds: result.duration, p99: result.latency.p99, failed: amount - ok };
}

const COUNTS = {
  plain: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = 'purchase'",
  generations: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = '$ai_generation'",
  shared: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = '$ai_generation'",
  payload: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = 'llm_call'",
  rows: 'SELECT count(*) AS n FROM llm_events WHERE project_id = $1 AND total_cost_usd IS NOT NULL',
};
/** The bytes of the generations' stored properties, in their rows and (since migration 0022) once in `llm_payloads`. */
const STORED_BYTES = {
  rowBytes: "SELECT coalesce(sum(length(properties)), 0) AS n FROM events WHERE project_id = $1 AND event = '$ai_generation'",
};
const PAYLOAD_BYTES = { payloadBytes: 'SELECT coalesce(sum(length(payload)), 0) AS n FROM llm_payloads WHERE project_id = $1' };

async function run(dialect, kindsRun) {
  const service = await startServiceOn(dialect);
  try {
    const kinds = Object.fromEntries(kindsRun.map((kind) => [kind, bodies(service.token, kind)]));
    const totals = Object.fromEntries(kindsRun.map((kind) => [kind, { ok: 0, seconds: 0, p99: [], failed: 0 }]));
    const acknowledged = Object.fromEntries(kindsRun.map((kind) => [kind, 0]));
    const amounts = {};
    for (const [kind, next] of Object.entries(kinds)) {
      const warm = await send(service, next, 300);
      acknowledged[kind] += warm.ok * EVENTS;
      amounts[kind] = Math.max(100, Math.round((warm.ok / warm.seconds) * ROUND_SECONDS));
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [kind, next] of Object.entries(kinds)) {
        const r = await send(service, next, amounts[kind]);
        const t = totals[kind];
        t.ok += r.ok;
        t.seconds += r.seconds;
        t.p99.push(r.p99);
        t.failed += r.failed;
        acknowledged[kind] += r.ok * EVENTS;
      }
    }
    const counts = Object.fromEntries(Object.entries(COUNTS).filter(([key]) => key === 'rows' || kindsRun.includes(key)));
    const stored = await countRows(dialect, service, { ...counts, ...STORED_BYTES });
    // Before migration 0022 there is no `llm_payloads`.
    stored.payloadBytes = await countRows(dialect, service, PAYLOAD_BYTES).then(
      (r) => r.payloadBytes,
      () => 0,
    );
    const rate = (kind) => (totals[kind].ok * EVENTS) / totals[kind].seconds;
    const result = {
      dialect,
      ...Object.fromEntries(kindsRun.map((kind) => [kind, rate(kind)])),
      share: rate(kindsRun[1]) / rate('plain'),
      p99: Object.fromEntries(kindsRun.map((kind) => [kind, Math.max(...totals[kind].p99)])),
      failed: kindsRun.reduce((sum, kind) => sum + totals[kind].failed, 0),
      acknowledged,
      stored,
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await service.stop();
  }
}

async function runBoth(kinds) {
  const results = [await run('sqlite', kinds)];
  if (await postgresReachable()) results.push(await run('postgres', kinds));
  else console.warn(`PostgreSQL not reachable at ${PG_URL}; set BENCH_DATABASE_URL to include it.`);
  return results;
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

/** `npm run bench -- llm-ingest shared`: generations sharing a 9 KB system prompt and tool list, and what their rows hold. */
async function mainShared(load) {
  const results = await runBoth(SHARED_KINDS);
  const ok = (r) => SHARED_KINDS.every((kind) => r.stored[kind] === r.acknowledged[kind]) && r.stored.rows === r.stored.shared;
  const rows = results.map(
    (r) =>
      `| ${r.dialect} | ${fmt(r.plain)} | ${fmt(r.shared)} | **${Math.round(r.share * 100)} %** | ${r.p99.plain} / ${r.p99.shared} | ${r.failed} | ${fmt(r.stored.rowBytes / r.stored.shared)} B | ${fmt(r.stored.payloadBytes)} B | ${fmt(r.stored.plain)} / ${fmt(r.stored.shared)} / ${fmt(r.stored.rows)} ${ok(r) ? '✓' : '✗'} |`,
  );
  record(
    'LLM generations sharing a large prompt (issue 34)',
    `Command: \`${COMMAND} shared\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).
As above, plain events beside generations whose \`$ai_input\` starts with the same 6 KB system prompt and whose
\`$ai_tools\` is the same 3 KB list in every call (the rest as above), ${ROUNDS} rounds of about ${ROUND_SECONDS} s each.

| database | plain events/s | generations/s | share | p99 ms (plain / gen.) | non-200 | properties per generation row | \`llm_payloads\` | stored (plain / gen. / priced rows) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}`,
  );
  if (results.some((r) => !ok(r) || r.failed)) process.exitCode = 1;
}

export async function main(args = []) {
  const load = os.loadavg()[0].toFixed(1);
  if (args[0] === 'shared') return mainShared(load);
  if (args[0] === 'otlp') return otlpMain();
  const results = await runBoth(KINDS);
  const ok = (r) => KINDS.every((kind) => r.stored[kind] === r.acknowledged[kind]) && r.stored.rows === r.stored.generations;
  const rows = results.map(
    (r) =>
      `| ${r.dialect} | ${fmt(r.plain)} | ${fmt(r.generations)} | **${Math.round(r.share * 100)} %** | ${fmt(r.payload)} (${Math.round((r.generations / r.payload) * 100)} %) | ${r.p99.plain} / ${r.p99.generations} / ${r.p99.payload} | ${r.failed} | ${fmt(r.acknowledged.plain)} / ${fmt(r.acknowledged.generations)} / ${fmt(r.acknowledged.payload)} | ${fmt(r.stored.plain)} / ${fmt(r.stored.generations)} / ${fmt(r.stored.payload)} / ${fmt(r.stored.rows)} ${ok(r) ? '✓' : '✗'} |`,
  );
  record(
    'LLM generations vs plain events (issue 34)',
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).
Service (its build, \`service start\`) in its own process; autocannon in the bench process sends \`POST /batch/\` with
100 events a request over ${CONNECTIONS} connections. Plain events: 5 properties. Generations: \`$ai_generation\` as
@posthog/ai sends them (3 models of 2 providers, tokens with cache reads, latency, a flag, 2 KB of prompt and answer),
each also written to \`llm_events\` with its cost from the price table in the ingest transaction. Same payload:
the generations' properties under another event name (\`llm_call\`), stored as plain events: what their size alone costs. After 300 requests of
warm-up each, the three kinds alternate, ${ROUNDS} rounds of about ${ROUND_SECONDS} s each.

| database | plain events/s | generations/s | share | same payload as a plain event/s (generations' share of it) | p99 ms (plain / gen. / payload) | non-200 | acknowledged (plain / gen. / payload) | stored (plain / gen. / payload / priced rows) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

✓ when every acknowledged event is stored and every stored generation has its priced row. The 2-core virtual machine
is shared (other work ran beside this), so the rates move between runs; the share compares kinds of one run.`,
  );
  if (results.some((r) => !ok(r) || r.failed)) process.exitCode = 1;
}
