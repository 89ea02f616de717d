// `$ai_input` and `$ai_output_choices` as a chat. They come in each provider's shape (OpenAI chat and Responses,
// Anthropic messages, the Vercel AI SDK, OpenTelemetry's gen_ai messages) and are read defensively: whatever is not
// recognised is still shown, as JSON, rather than lost.

/** One piece of a message. */
export type Part =
  | { kind: 'text'; text: string }
  | { kind: 'tool_call'; name: string; args: string; id?: string }
  | { kind: 'tool_result'; text: string; id?: string }
  | { kind: 'json'; value: unknown };

export interface ChatMessage {
  role: string;
  parts: Part[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v, null, 2));
const optId = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function partsOf(content: unknown): Part[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return [partOf(content)];
  return content.map(partOf);
}

function partOf(part: unknown): Part {
  if (typeof part === 'string') return { kind: 'text', text: part };
  if (!isObj(part)) return { kind: 'json', value: part };
  const type = part.type;
  if (typeof part.text === 'string' && (type === undefined || type === 'text' || type === 'input_text' || type === 'output_text'))
    return { kind: 'text', text: part.text };
  if (typeof part.content === 'string' && type === 'text') return { kind: 'text', text: part.content };
  // OpenAI-style `{type: 'function', function: {name, arguments}}` (what @posthog/ai sends for every provider).
  if (isObj(part.function)) return { kind: 'tool_call', name: str(part.function.name), args: str(part.function.arguments), id: optId(part.id) };
  // Anthropic `tool_use`, the AI SDK's `tool-call`, OTel's `tool_call`, Responses' `function_call`.
  if (type === 'tool_use' || type === 'tool-call' || type === 'tool_call' || type === 'function_call')
    return {
      kind: 'tool_call',
      name: str(part.name ?? part.toolName),
      args: str(part.input ?? part.args ?? part.arguments),
      id: optId(part.id ?? part.toolCallId ?? part.call_id),
    };
  if (type === 'tool_result' || type === 'tool-result' || type === 'tool_call_response' || type === 'function_call_output') {
    const result = part.content ?? part.result ?? part.response ?? part.output;
    const text = Array.isArray(result) ? result.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : str(p))).join('\n') : str(result);
    return { kind: 'tool_result', text, id: optId(part.tool_use_id ?? part.toolCallId ?? part.id ?? part.call_id) };
  }
  return { kind: 'json', value: part };
}

function messageOf(raw: unknown, fallbackRole: string): ChatMessage {
  if (typeof raw === 'string') return { role: fallbackRole, parts: [{ kind: 'text', text: raw }] };
  if (!isObj(raw)) return { role: fallbackRole, parts: [{ kind: 'json', value: raw }] };
  // A chat completion choice: `{index, message: {...}}`.
  if (isObj(raw.message) && raw.role === undefined) return messageOf(raw.message, fallbackRole);
  // A Responses item that is not a message (a function call or its output) is a message of its own.
  if (raw.role === undefined && typeof raw.type === 'string' && raw.type !== 'message') {
    const part = partOf(raw);
    return { role: part.kind === 'tool_result' ? 'tool' : fallbackRole, parts: [part] };
  }
  // Not a message at all (a span's state, an unknown shape): shown as it is.
  if (raw.role === undefined && raw.content === undefined && raw.parts === undefined) return { role: fallbackRole, parts: [{ kind: 'json', value: raw }] };
  const role = typeof raw.role === 'string' ? raw.role : fallbackRole;
  const parts = partsOf(raw.content ?? raw.parts);
  if (Array.isArray(raw.tool_calls))
    for (const call of raw.tool_calls) parts.push(partOf(isObj(call) && call.type === undefined ? { ...call, type: 'function' } : call));
  // An OpenAI `tool` message answers a call: its text is the result.
  if (role === 'tool' && typeof raw.tool_call_id === 'string')
    return { role, parts: parts.map((p) => (p.kind === 'text' ? { kind: 'tool_result', text: p.text, id: raw.tool_call_id as string } : p)) };
  return { role, parts };
}

/** The messages of `$ai_input` or `$ai_output_choices`: a list, one message, or plain text (an embedding's input). */
export function chatOf(value: unknown, fallbackRole: 'user' | 'assistant'): ChatMessage[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') {
    // OTel exporters and some SDKs send the messages as JSON text.
    const trimmed = value.trim();
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      try {
        return chatOf(JSON.parse(trimmed) as unknown, fallbackRole);
      } catch {
        // Text that only looks like JSON is text.
      }
    }
    return [{ role: fallbackRole, parts: [{ kind: 'text', text: value }] }];
  }
  if (Array.isArray(value)) return value.map((m) => messageOf(m, fallbackRole));
  // A whole Responses or chat answer: its output list, or its choices.
  if (isObj(value) && Array.isArray(value.choices)) return chatOf(value.choices, fallbackRole);
  if (isObj(value) && Array.isArray(value.output)) return chatOf(value.output, fallbackRole);
  return [messageOf(value, fallbackRole)];
}
