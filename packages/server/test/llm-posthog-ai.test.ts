import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { OpenAI } from '@posthog/ai/openai';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// The official `@posthog/ai` OpenAI wrapper (over the real `openai` client, answered by a loopback server speaking
// OpenAI's API) sends its generations to the service listening on a port: they land with their tokens and cost.

let s: TestService;
let host: string;
let provider: Server;
let providerUrl: string;

const usage = { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, prompt_tokens_details: { cached_tokens: 400 } };
beforeAll(async () => {
  s = await startService();
  host = await s.app.listen({ port: 0, host: '127.0.0.1' });
  provider = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as { model: string; stream?: boolean };
      const message = { role: 'assistant', content: 'Paris.' };
      if (request.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
        const base = { id: 'c2', object: 'chat.completion.chunk', created: 1, model: request.model };
        chunk({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Par' }, finish_reason: null }] });
        chunk({ ...base, choices: [{ index: 0, delta: { content: 'is.' }, finish_reason: 'stop' }] });
        chunk({ ...base, choices: [], usage });
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 1,
          model: request.model,
          choices: [{ index: 0, message, finish_reason: 'stop' }],
          usage,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => provider.close(resolve));
  await s.close();
});

const generations = async (traceId: string) => {
  const res = await s.app.inject({ url: `/api/projects/${s.projectId}/llm/generations/?trace_id=${traceId}`, headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as Record<string, unknown>[];
};

describe('@posthog/ai', () => {
  it('OpenAI chat completions, streamed and not, land as generations priced as OpenAI bills cached tokens', async () => {
    const posthog = new PostHog(s.token, { host, flushAt: 1, flushInterval: 0 });
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: providerUrl, posthog });
    const traceId = randomUUID();
    const answer = await openai.chat.completions.create({
      model: 'gpt-4o-mini-2024-07-18',
      messages: [{ role: 'user', content: 'Capital of France?' }],
      posthogDistinctId: 'alice',
      posthogTraceId: traceId,
    });
    expect(answer.choices[0]!.message.content).toBe('Paris.');
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Again?' }],
      stream: true,
      stream_options: { include_usage: true },
      posthogDistinctId: 'alice',
      posthogTraceId: traceId,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Paris.');
    await posthog.shutdown();

    const rows = await generations(traceId);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        provider: 'openai',
        input_tokens: 1000,
        output_tokens: 200,
        cache_read_tokens: 400,
        distinct_id: 'alice',
        is_error: false,
        trace_id: traceId,
      });
      // 600 uncached at 0.15, 400 cached at 0.075, 200 out at 0.6 (USD per million).
      expect(row.cost_usd).toBeCloseTo((600 * 0.15 + 400 * 0.075 + 200 * 0.6) / 1e6, 12);
      expect(typeof row.latency).toBe('number');
    }
    expect(rows.map((r) => r.model).sort()).toEqual(['gpt-4o-mini', 'gpt-4o-mini-2024-07-18']);
  });
});
