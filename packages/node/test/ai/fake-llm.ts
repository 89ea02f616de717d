// One loopback HTTP server answering as the OpenAI and Anthropic APIs do (JSON, server-sent events, errors, a
// stream cut halfway), and as the service's `/batch/` does, so a test sees the events as they are sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures

export interface SentEvent {
  event: string;
  distinct_id: string;
  properties: Json;
}

/** The model name picks the behaviour: `fail-<status>`, `cut` (stream dropped halfway), `no-usage`, else success. */
export interface FakeLlm {
  url: string;
  events: SentEvent[];
  /** Request bodies the provider routes received, in order. */
  requests: Json[];
  close(): Promise<void>;
}

const sse = (res: http.ServerResponse, frames: Array<[event: string | null, data: unknown]>, cutAfter?: number) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_1' });
  frames.forEach(([event, data], i) => {
    if (cutAfter !== undefined && i >= cutAfter) return;
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  });
  // A cut stream ends with the socket torn down, as a proxy or a crashed upstream does.
  if (cutAfter !== undefined) setTimeout(() => res.socket?.destroy(), 20);
  else res.end();
};

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
  res.end(JSON.stringify(body));
};

function chat(body: Json, res: http.ServerResponse) {
  const usage =
    body.model === 'no-usage'
      ? undefined
      : { prompt_tokens: 12, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 2 } };
  if (!body.stream) {
    return json(res, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: `${body.model}-2024-08-06`,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there' }, finish_reason: 'stop' }],
      usage,
    });
  }
  const chunk = (delta: Json, finish: string | null = null, extra: Json = {}) => ({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: body.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
  const frames: Array<[null, unknown]> = [
    [null, chunk({ role: 'assistant', content: '' })],
    [null, chunk({ content: 'Hel' })],
    [null, chunk({ content: 'lo' })],
    [null, chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] })],
    [null, chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, 'tool_calls')],
  ];
  if (usage && body.stream_options?.include_usage)
    frames.push([null, { id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage }]);
  frames.push([null, '[DONE]']);
  sse(res, frames, body.model === 'cut' ? 3 : undefined);
}

function responses(body: Json, res: http.ServerResponse) {
  const response = {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: body.model,
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi!', annotations: [] }] }],
    usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
  if (!body.stream) return json(res, 200, response);
  const frames: Array<[string, unknown]> = [
    ['response.created', { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [], usage: null } }],
    [
      'response.output_text.delta',
      { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hi' },
    ],
    ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, delta: '!' }],
    ['response.completed', { type: 'response.completed', sequence_number: 3, response }],
  ];
  sse(res, frames, body.model === 'cut' ? 2 : undefined);
}

function messages(body: Json, res: http.ServerResponse) {
  const usage = { input_tokens: 20, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 30 };
  if (!body.stream) {
    return json(res, 200, {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text: 'Bonjour' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    });
  }
  const frames: Array<[string, unknown]> = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Bon' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'jour' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } }],
    ['message_stop', { type: 'message_stop' }],
  ];
  sse(res, frames, body.model === 'cut' ? 3 : undefined);
}

/** The SDK asks for base64 (little-endian float32) by default and decodes it. */
const embedding = (format: unknown) => (format === 'base64' ? Buffer.from(new Float32Array([0.5, 0.25]).buffer).toString('base64') : [0.5, 0.25]);

function failure(path: string, status: number, res: http.ServerResponse) {
  if (path === '/v1/messages')
    return json(res, status, { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message: `fake ${status}` } });
  json(res, status, { error: { message: `fake ${status}`, type: 'invalid_request_error', code: null } });
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const events: SentEvent[] = [];
  const requests: Json[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Json;
      const path = (req.url ?? '').split('?')[0]!;
      if (path === '/batch/') {
        events.push(...(body.batch as SentEvent[]));
        return json(res, 200, { status: 1 });
      }
      requests.push(body);
      const failed = /^fail-(\d{3})$/.exec(String(body.model));
      if (failed) return failure(path, Number(failed[1]), res);
      if (path === '/v1/chat/completions') return chat(body, res);
      if (path === '/v1/responses') return responses(body, res);
      if (path === '/v1/embeddings')
        return json(res, 200, {
          object: 'list',
          model: body.model,
          data: [{ object: 'embedding', index: 0, embedding: embedding(body.encoding_format) }],
          usage: { prompt_tokens: 6, total_tokens: 6 },
        });
      if (path === '/v1/messages') return messages(body, res);
      json(res, 404, { error: { message: 'no route' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
