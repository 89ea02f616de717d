import { isObject } from '../../json';
import type { Attrs } from './attributes';

/**
 * A span's prompt and completion in the shapes the wrappers send (`$ai_input`: chat messages `{role, content}`;
 * `$ai_output_choices`: `[{role, content: [parts]}]` with `text` and `function` parts, as `@posthog/ai` sends them),
 * from each way instrumentations write them: the GenAI conventions' `gen_ai.input.messages` / `gen_ai.output.messages`
 * (messages of typed parts), their older `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` (OpenLLMetry), and the Vercel AI
 * SDK's `ai.prompt.messages` / `ai.response.*`, which are its own model messages and content parts and stay as they are
 * (what service-node's AI SDK middleware sends).
 */

type Json = Record<string, unknown>;

const functionPart = (id: unknown, name: unknown, args: unknown): Json => ({ type: 'function', id: id ?? '', function: { name, arguments: args } });

/** A part of a GenAI conventions message as the wrappers' parts. */
function partOf(part: unknown): unknown {
  if (!isObject(part)) return part;
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.content };
    case 'tool_call':
      return functionPart(part.id, part.name, part.arguments);
    case 'tool_call_response':
      return { type: 'tool_result', tool_call_id: part.id ?? '', content: part.response };
    case 'reasoning':
      return { type: 'reasoning', text: part.content };
    default:
      return part;
  }
}

const isText = (part: unknown): part is { text: unknown } => isObject(part) && part.type === 'text';

/** GenAI conventions messages (`[{role, parts: [...]}]`): a message of text only has its text as content. */
function conventionMessages(messages: unknown, textAsString: boolean): unknown[] | undefined {
  if (!Array.isArray(messages)) return undefined;
  return messages.map((message) => {
    if (!isObject(message) || !Array.isArray(message.parts)) return message;
    const parts = message.parts.map(partOf);
    const content = textAsString && parts.every(isText) ? parts.map((p) => String(p.text ?? '')).join('') : parts;
    return { role: message.role, content };
  });
}

/** `gen_ai.prompt.N.<field>` (or `completion`) attributes by N, each a record of its fields, in N's order. */
function numbered(attrs: Attrs, kind: 'prompt' | 'completion'): Record<string, unknown>[] {
  const prefix = `gen_ai.${kind}.`;
  const byIndex = new Map<number, Record<string, unknown>>();
  for (const key in attrs.values) {
    if (!key.startsWith(prefix)) continue;
    const match = /^(\d{1,5})\.(.+)$/.exec(key.slice(prefix.length));
    if (!match) continue;
    const index = Number(match[1]);
    let fields = byIndex.get(index);
    // Without a prototype: a field is named by the sender (`gen_ai.prompt.0.__proto__` is a plain key).
    if (!fields) byIndex.set(index, (fields = Object.create(null) as Record<string, unknown>));
    fields[match[2]!] = attrs.values[key];
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, fields]) => fields);
}

/** The `tool_calls.M.<field>` of a numbered message as function parts. */
function numberedToolCalls(fields: Record<string, unknown>): Json[] {
  const calls = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(fields)) {
    const match = /^tool_calls\.(\d{1,4})\.(id|name|arguments)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    calls.set(index, { ...calls.get(index), [match[2]!]: value });
  }
  return [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => functionPart(call.id, call.name, call.arguments));
}

/** `$ai_input` of a span; undefined when it has none. */
export function inputOf(attrs: Attrs): unknown {
  const vercel = attrs.json('ai.prompt.messages');
  if (vercel !== undefined) return vercel;
  const messages = conventionMessages(attrs.json('gen_ai.input.messages'), true);
  if (messages) {
    // The conventions carry the system prompt apart, as a list of parts (or, from some, a text).
    const system = attrs.json('gen_ai.system_instructions');
    if (typeof system === 'string') return [{ role: 'system', content: system }, ...messages];
    if (Array.isArray(system)) {
      const text = system
        .map(partOf)
        .filter(isText)
        .map((part) => String(part.text ?? ''))
        .join('');
      return [{ role: 'system', content: text }, ...messages];
    }
    return messages;
  }
  const legacy = numbered(attrs, 'prompt');
  if (legacy.length) {
    return legacy.map((fields) => {
      const message: Json = { role: fields.role ?? 'user', content: fields.content ?? null };
      const calls = numberedToolCalls(fields);
      if (calls.length) message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: c.function }));
      if (fields.tool_call_id !== undefined) message.tool_call_id = fields.tool_call_id;
      return message;
    });
  }
  // Embeddings: the texts embedded.
  return attrs.jsonList('ai.values') ?? attrs.json('ai.value') ?? attrs.json('gen_ai.prompt');
}

/** What a span's completion says: its output messages and why the model stopped. */
export interface Completion {
  output: unknown[] | undefined;
  stopReason: string | undefined;
}

/** The Vercel AI SDK's response as one assistant message of its content parts. */
function vercelOutput(attrs: Attrs): unknown[] | undefined {
  const content: unknown[] = [];
  const reasoning = attrs.str('ai.response.reasoning');
  if (reasoning) content.push({ type: 'reasoning', text: reasoning });
  const text = attrs.str('ai.response.text') ?? attrs.str('ai.response.object');
  if (text) content.push({ type: 'text', text });
  const calls = attrs.json('ai.response.toolCalls');
  if (Array.isArray(calls)) {
    for (const call of calls) {
      if (isObject(call)) content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input ?? call.args });
    }
  }
  return content.length ? [{ role: 'assistant', content }] : undefined;
}

/** `$ai_output_choices` and `$ai_stop_reason` of a span. */
export function completionOf(attrs: Attrs): Completion {
  const reasons = attrs.strs('gen_ai.response.finish_reasons');
  const vercelReason = attrs.str('ai.response.finishReason');
  const vercel = vercelOutput(attrs);
  if (vercel) return { output: vercel, stopReason: vercelReason ?? reasons?.[0] };
  const raw = attrs.json('gen_ai.output.messages');
  const messages = conventionMessages(raw, false);
  if (messages) {
    const first = Array.isArray(raw) && isObject(raw[0]) && typeof raw[0].finish_reason === 'string' ? raw[0].finish_reason : undefined;
    return { output: messages, stopReason: reasons?.[0] ?? first };
  }
  const legacy = numbered(attrs, 'completion');
  if (legacy.length) {
    const output = legacy.map((fields) => {
      const content: Json[] = fields.content !== undefined && fields.content !== null ? [{ type: 'text', text: fields.content }] : [];
      return { role: fields.role ?? 'assistant', content: [...content, ...numberedToolCalls(fields)] };
    });
    const reason = legacy[0]!.finish_reason;
    return { output, stopReason: reasons?.[0] ?? (typeof reason === 'string' ? reason : undefined) };
  }
  const text = attrs.json('gen_ai.completion');
  return { output: text === undefined ? undefined : [{ role: 'assistant', content: [{ type: 'text', text }] }], stopReason: vercelReason ?? reasons?.[0] };
}

/** `$ai_tools`: the GenAI conventions' definitions, the AI SDK's tools, or OpenLLMetry's `llm.request.functions.N.*`. */
export function toolsOf(attrs: Attrs): unknown {
  const tools = attrs.json('gen_ai.tool.definitions') ?? attrs.jsonList('ai.prompt.tools');
  if (tools !== undefined) return tools;
  const functions = new Map<number, Json>();
  for (const key in attrs.values) {
    const match = /^llm\.request\.functions\.(\d{1,4})\.(name|description|parameters)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    functions.set(index, { ...functions.get(index), [match[2]!]: match[2] === 'parameters' ? attrs.json(key) : attrs.values[key] });
  }
  return functions.size ? [...functions.entries()].sort(([a], [b]) => a - b).map(([, f]) => ({ type: 'function', function: f })) : undefined;
}
