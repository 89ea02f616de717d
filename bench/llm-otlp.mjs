// The OpenTelemetry case of `npm run bench -- llm-ingest otlp`: GenAI spans made by the OpenTelemetry SDK and encoded
// by its own OTLP serializers (JSON and protobuf), sent to POST /i/v0/ai/otel (100 spans a request: 25 traces of a
// root span and 3 chat spans of 2 KB of prompt and answer, 32 connections), next to plain events through /batch/, on
// SQLite and on PostgreSQL. Every span acknowledged must be stored as its event, every chat span with its priced row.
import os from 'node:os';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { context, trace } from '@opentelemetry/api';
import { countRows, machine, PG_URL, postgresReachable, record, sendAmount, startServiceOn } from './lib.mjs';

const COMMAND = 'npm run bench -- llm-ingest otlp';
const TRACES = 25;
const CALLS = 3;
const SPANS = TRACES * (1 + CALLS);
const CONNECTIONS = 32;
const ROUNDS = 3;
const ROUND_SECONDS = 4;
const TEMPLATES = 16;
const KINDS = ['plain', 'otlp-json', 'otlp-protobuf'];
/** The first 4 bytes of every trace and span id of a template; each request writes its own number there. */
const MARKER = 'fdb97531';
const MODELS = [
  ['openai', 'gpt-4o-mini-2024-07-18'],
  ['openai', 'gpt-4.1'],
  ['anthropic', 'claude-sonnet-4-5-20250929'],
];

/** The spans of one template: ids of MARKER and the template's and span's numbers, made by the SDK. */
function templateSpans(t) {
  let traces = 0;
  let spans = 0;
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
    idGenerator: {
      generateTraceId: () => `${MARKER}${t.toString(16).padStart(8, '0')}${(traces++).toString(16).padStart(16, '0')}`,
      generateSpanId: () => `${MARKER}${((t << 16) | spans++).toString(16).padStart(8, '0')}`,
    },
  });
  const tracer = provider.getTracer('bench');
  for (let i = 0; i < TRACES; i++) {
    const user = Math.floor(Math.random() * 10_000);
    const root = tracer.startSpan('support-bot', { attributes: { 'posthog.distinct_id': `otel-user-${user}`, 'gen_ai.operation.name': 'invoke_agent' } });
    for (let c = 0; c < CALLS; c++) {
      const [provider, model] = MODELS[(t + i + c) % MODELS.length];
      tracer
        .startSpan(
          `chat ${model}`,
          {
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': provider,
              'gen_ai.request.model': model,
              'gen_ai.usage.input_tokens': 300 + i,
              'gen_ai.usage.output_tokens': 120,
              'gen_ai.usage.cache_read.input_tokens': i % 3 ? 256 : 0,
              'gen_ai.response.finish_reasons': ['stop'],
              'gen_ai.input.messages': JSON.stringify([
                { role: 'system', parts: [{ type: 'text', content: 'You are a helpful shopping assistant. '.repeat(20) }] },
                { role: 'user', parts: [{ type: 'text', content: `Which plan suits a team of ${i % 40} people?` }] },
              ]),
              'gen_ai.output.messages': JSON.stringify([
                { role: 'assistant', parts: [{ type: 'text', content: 'The team plan: it has shared flags, roles and audit logs. '.repeat(10) }] },
              ]),
            },
          },
          trace.setSpan(context.active(), root),
        )
        .end();
    }
    root.end();
  }
  return memory.getFinishedSpans();
}

/** Request bodies of one kind: the templates, each request's number written over MARKER in its ids. */
function bodies(token, kind) {
  const tag = KINDS.indexOf(kind);
  if (kind === 'plain') {
    const batch = Array.from({ length: SPANS }, (_, i) => ({
      uuid: `${MARKER}-0000-7000-8000-@@@@@@@@${i.toString(16).padStart(4, '0')}`,
      event: 'purchase',
      distinct_id: `user-${i}`,
      properties: { plan: ['free', 'pro'][i % 2], amount: i % 97 },
    }));
    const text = JSON.stringify({ api_key: token, batch });
    let n = 0;
    return () => text.replaceAll('@@@@@@@@', `${tag}${(n++).toString(16).padStart(7, '0')}`);
  }
  const templates = Array.from({ length: TEMPLATES }, (_, t) => {
    const spans = templateSpans(t);
    return kind === 'otlp-json'
      ? new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans))
      : Buffer.from(ProtobufTraceSerializer.serializeRequest(spans));
  });
  const marker = Buffer.from(MARKER, 'hex');
  const offsets = templates.map((body) => {
    if (typeof body === 'string') return [];
    const at = [];
    for (let i = body.indexOf(marker); i !== -1; i = body.indexOf(marker, i + 1)) at.push(i);
    return at;
  });
  let n = 0;
  return () => {
    const number = (tag << 28) | n;
    const t = n++ % TEMPLATES;
    const body = templates[t];
    if (typeof body === 'string') return body.replaceAll(MARKER, number.toString(16).padStart(8, '0'));
    const copy = Buffer.from(body);
    for (const at of offsets[t]) copy.writeUInt32BE(number >>> 0, at);
    return copy;
  };
}

async function send(service, kind, next, amount) {
  const otlp = kind !== 'plain';
  const result = await sendAmount({
    url: service.url,
    connections: CONNECTIONS,
    amount,
    requests: [
      {
        method: 'POST',
        path: otlp ? '/i/v0/ai/otel/v1/traces' : '/batch/',
        headers: {
          'content-type': kind === 'otlp-protobuf' ? 'application/x-protobuf' : 'application/json',
          ...(otlp ? { authorization: `Bearer ${service.token}` } : {}),
        },
        setupRequest: (req) => ({ ...req, body: next() }),
      },
    ],
  });
  const ok = result.statusCodeStats?.['200']?.count ?? 0;
  return { ok, seconds: result.duration, p99: result.latency.p99, failed: amount - ok };
}

const COUNTS = {
  plain: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = 'purchase'",
  spans: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND distinct_id LIKE 'otel-user-%'",
  calls: "SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = '$ai_generation'",
  priced: "SELECT count(*) AS n FROM llm_events WHERE project_id = $1 AND kind = 'generation' AND total_cost_usd IS NOT NULL",
};

async function run(dialect) {
  const service = await startServiceOn(dialect);
  try {
    const kinds = Object.fromEntries(KINDS.map((kind) => [kind, bodies(service.token, kind)]));
    const totals = Object.fromEntries(KINDS.map((kind) => [kind, { ok: 0, seconds: 0, p99: [], failed: 0, bytes: 0 }]));
    const acknowledged = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
    const amounts = {};
    for (const [kind, next] of Object.entries(kinds)) {
      totals[kind].bytes = Buffer.byteLength(next());
      const warm = await send(service, kind, next, 200);
      acknowledged[kind] += warm.ok * SPANS;
      amounts[kind] = Math.max(100, Math.round((warm.ok / warm.seconds) * ROUND_SECONDS));
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [kind, next] of Object.entries(kinds)) {
        const r = await send(service, kind, next, amounts[kind]);
        const t = totals[kind];
        t.ok += r.ok;
        t.seconds += r.seconds;
        t.p99.push(r.p99);
        t.failed += r.failed;
        acknowledged[kind] += r.ok * SPANS;
      }
    }
    const stored = await countRows(dialect, service, COUNTS);
    const rate = (kind) => (totals[kind].ok * SPANS) / totals[kind].seconds;
    const result = {
      dialect,
      rates: Object.fromEntries(KINDS.map((kind) => [kind, rate(kind)])),
      bytes: Object.fromEntries(KINDS.map((kind) => [kind, totals[kind].bytes])),
      p99: Object.fromEntries(KINDS.map((kind) => [kind, Math.max(...totals[kind].p99)])),
      failed: KINDS.reduce((sum, kind) => sum + totals[kind].failed, 0),
      acknowledged,
      stored,
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await service.stop();
  }
}

export async function otlpMain() {
  const load = os.loadavg()[0].toFixed(1);
  const results = [await run('sqlite')];
  if (await postgresReachable()) results.push(await run('postgres'));
  else console.warn(`PostgreSQL not reachable at ${PG_URL}; set BENCH_DATABASE_URL to include it.`);
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const spans = (r) => r.acknowledged['otlp-json'] + r.acknowledged['otlp-protobuf'];
  // A request the client gave up on (autocannon's 10 s timeout) may still have been stored.
  const within = (stored, acknowledged, r) => stored >= acknowledged && stored <= acknowledged + r.failed * SPANS;
  const ok = (r) =>
    within(r.stored.plain, r.acknowledged.plain, r) &&
    within(r.stored.spans, spans(r), r) &&
    r.stored.priced === r.stored.calls &&
    r.stored.calls === (r.stored.spans * CALLS) / (1 + CALLS);
  const rows = results.map(
    (r) =>
      `| ${r.dialect} | ${fmt(r.rates.plain)} | ${fmt(r.rates['otlp-json'])} | ${fmt(r.rates['otlp-protobuf'])} | ${KINDS.map((k) => r.p99[k]).join(' / ')} | ${r.failed} | ${fmt(r.acknowledged.plain)} / ${fmt(spans(r))} | ${fmt(r.stored.plain)} / ${fmt(r.stored.spans)} / ${fmt(r.stored.priced)} ${ok(r) ? '✓' : '✗'} |`,
  );
  const sizes = results[0].bytes;
  record(
    'LLM ingest over OpenTelemetry (issue 34)',
    `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).
Service (its build, \`service start\`) in its own process; autocannon in the bench process sends requests over ${CONNECTIONS}
connections. OTLP: \`POST /i/v0/ai/otel/v1/traces\`, ${SPANS} spans a request (${TRACES} traces of an agent span and ${CALLS}
\`chat\` spans with GenAI attributes, 2 KB of prompt and answer each, 3 models of 2 providers), made by the OpenTelemetry SDK and
encoded by its own serializers (\`@opentelemetry/otlp-transformer\` 0.301): JSON (${fmt(sizes['otlp-json'])} bytes a request) or
protobuf (${fmt(sizes['otlp-protobuf'])} bytes). Each span is stored as its event (\`$ai_trace\` or \`$ai_generation\`) and its
\`llm_events\` row, each chat span priced from the table. Plain: ${SPANS} events of 5 properties a request through \`/batch/\`. After
200 requests of warm-up each, the three kinds alternate, ${ROUNDS} rounds of about ${ROUND_SECONDS} s each.

| database | plain events/s | OTLP JSON spans/s | OTLP protobuf spans/s | p99 ms (plain / JSON / protobuf) | non-200 | acknowledged (plain / spans) | stored (plain / spans / priced chat rows) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

✓ when every acknowledged event and span is stored (and nothing more than the requests timed out could add), and every
chat span has its priced row. The 2-core virtual machine is shared (other work ran beside this), so the rates move
between runs; compare kinds within one run.`,
  );
  if (results.some((r) => !ok(r))) process.exitCode = 1;
}
