// npm run bench -- llm-wrapper: the time service-node/ai's wrappers add to a call of the official `openai` and
// `@anthropic-ai/sdk` clients, per call and to the first streamed chunk, next to the same bare client.
// Both clients get the provider's answers from an in-process `fetch` (canned JSON and server-sent events), so that
// the difference is the wrapper's own work (reading the result, building the event, queueing it); the events go to
// a loopback `/batch/` sink in batches of 20, gzipped, as a deployment sends them. Target: ≤ 1 ms added.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ReadableStream } from 'node:stream/web';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { register } from 'tsx/esm/api';
import { machine, record, root } from './lib.mjs';

const COMMAND = 'npm run bench -- llm-wrapper';
const version = (name) => JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
const ROUNDS = 7;
const CALLS = 1000;

register(); // service-node is TypeScript source in the monorepo
const { Service } = await import('../packages/node/src/index.ts');
const { wrapAnthropic, wrapOpenAI } = await import('../packages/node/src/ai/index.ts');

const messages = [
  { role: 'system', content: 'You are a helpful support agent for an online shop. Answer briefly.' },
  { role: 'user', content: 'Where is my order #1234? It was due yesterday and the tracking page shows nothing.' },
];
const reply = 'Your order left our warehouse this morning; the carrier updates tracking within 24 hours.';
const words = reply.split(' ');

const chatJson = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 40, completion_tokens: 18 },
});
const chatSse = [
  ...words.map(
    (w, i) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: (i ? ' ' : '') + w }, finish_reason: null }] })}\n\n`,
  ),
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 40, completion_tokens: 18 } })}\n\n`,
  'data: [DONE]\n\n',
];
const messageJson = JSON.stringify({
  id: 'm1',
  type: 'message',
  role: 'assistant',
  model: 'claude-haiku-4-5',
  content: [{ type: 'text', text: reply }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 40, output_tokens: 18 },
});
const messageSse = [
  `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm1', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [], usage: { input_tokens: 40, output_tokens: 1 } } })}\n\n`,
  `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`,
  ...words.map(
    (w, i) =>
      `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: (i ? ' ' : '') + w } })}\n\n`,
  ),
  `event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n`,
  `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 18 } })}\n\n`,
  `event: message_stop\ndata: {"type":"message_stop"}\n\n`,
];

const { Response } = globalThis; // undici's, as the SDKs' default fetch returns
const encoder = new TextEncoder();
const sse = (frames) =>
  new Response(new ReadableStream({ start: (c) => (frames.forEach((f) => c.enqueue(encoder.encode(f))), c.close()) }), {
    headers: { 'content-type': 'text/event-stream' },
  });
/** The provider, answered in process: only the client's own work is timed. */
async function fakeFetch(url, init) {
  const body = JSON.parse(init.body);
  const anthropic = String(url).endsWith('/v1/messages');
  if (body.stream) return sse(anthropic ? messageSse : chatSse);
  return new Response(anthropic ? messageJson : chatJson, { headers: { 'content-type': 'application/json' } });
}

const sink = http.createServer((req, res) => req.resume().on('end', () => res.end('{"status":1}')));
await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
const service = new Service('phc_bench', { host: `http://127.0.0.1:${sink.address().port}` });

const options = { apiKey: 'k', maxRetries: 0, fetch: fakeFetch };
const bare = { openai: new OpenAI({ ...options, baseURL: 'http://llm.invalid/v1' }), anthropic: new Anthropic({ ...options, baseURL: 'http://llm.invalid' }) };
const wrapped = {
  openai: wrapOpenAI(new OpenAI({ ...options, baseURL: 'http://llm.invalid/v1' }), service, { distinctId: 'user-1' }),
  anthropic: wrapAnthropic(new Anthropic({ ...options, baseURL: 'http://llm.invalid' }), service, { distinctId: 'user-1' }),
};

/** The kinds of call: each returns the time to its first chunk (streams) and runs to its end. */
const CASES = {
  'OpenAI chat completion': async (c) => void (await c.openai.chat.completions.create({ model: 'gpt-4o-mini', messages })),
  'OpenAI chat completion, streamed': async (c) => {
    const start = performance.now();
    let first;
    const stream = await c.openai.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true } });
    for await (const _ of stream) first ??= performance.now() - start;
    return first;
  },
  'Anthropic message': async (c) =>
    void (await c.anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 256, messages: messages.slice(1), system: messages[0].content })),
  'Anthropic message, streamed': async (c) => {
    const start = performance.now();
    let first;
    const stream = await c.anthropic.messages.create({ model: 'claude-haiku-4-5', max_tokens: 256, messages: messages.slice(1), stream: true });
    for await (const _ of stream) first ??= performance.now() - start;
    return first;
  },
};

/** Mean ms per call and to the first chunk over CALLS sequential calls (and, wrapped, sending their events). */
async function round(run, client) {
  let firstTotal = 0;
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) firstTotal += (await run(client)) ?? 0;
  // The round's events are sent before its clock stops: what the wrapper costs includes delivering them.
  if (client === wrapped) await service.flush();
  return { call: (performance.now() - start) / CALLS, first: firstTotal / CALLS };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${(ms * 1000).toFixed(0)} µs`;

const load = os.loadavg()[0].toFixed(1);
const rows = [];
let worst = 0;
try {
  for (const [name, run] of Object.entries(CASES)) {
    await round(run, bare); // warm-up of both paths
    await round(run, wrapped);
    const b = [];
    const w = [];
    // Alternating rounds, so that a change of the machine's load hits both.
    for (let r = 0; r < ROUNDS; r++) {
      b.push(await round(run, bare));
      w.push(await round(run, wrapped));
    }
    const addedCall = median(w.map((x, i) => x.call - b[i].call));
    const streamed = name.endsWith('streamed');
    const addedFirst = streamed ? median(w.map((x, i) => x.first - b[i].first)) : undefined;
    worst = Math.max(worst, addedCall, addedFirst ?? 0);
    rows.push(
      `| ${name} | ${fmt(median(b.map((x) => x.call)))} | ${fmt(median(w.map((x) => x.call)))} | **${fmt(addedCall)}** | ${streamed ? `${fmt(median(b.map((x) => x.first)))} → ${fmt(median(w.map((x) => x.first)))}: **${fmt(addedFirst)}**` : '–'} |`,
    );
    console.log(rows.at(-1));
  }
} finally {
  await service.shutdown(5000);
  sink.close();
}

const lines = [
  `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${load} at start).`,
  `openai ${version('openai')}, @anthropic-ai/sdk ${version('@anthropic-ai/sdk')}; the provider answers from an in-process \`fetch\` (a JSON reply, or ${words.length} text chunks as server-sent events), so only client-side work is timed;`,
  `the wrapped clients send their events to a loopback \`/batch/\` (gzip), each round timed until its events are sent. ${ROUNDS} alternating rounds of ${CALLS} sequential calls per client; medians of the rounds.`,
  '',
  '| call | bare client, per call | wrapped, per call | added per call | time to first chunk: bare → wrapped, added |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows,
  '',
  `Most added: ${fmt(worst)} (target ≤ 1 ms).`,
];
console.log(lines.join('\n'));
if (worst > 1) throw new Error('the wrapper adds more than 1 ms');
record('LLM wrappers: added time per call (issue 34)', lines.join('\n'));
