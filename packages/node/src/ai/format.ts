// `$ai_output_choices` in the shape `@posthog/ai` sends (what the service and PostHog's views render as a chat):
// one assistant message whose content is a list of `text` and `function` parts.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- provider payloads, read defensively

export interface OutputMessage {
  role: string;
  content: Json[];
}

const toolPart = (id: unknown, name: unknown, args: unknown): Json => ({ type: 'function', id: id ?? '', function: { name, arguments: args } });

/** A chat completion message (or a streamed one put together) as an output message; null when empty. */
export function chatMessage(message: Json | undefined): OutputMessage | null {
  if (!message) return null;
  const content: Json[] = [];
  if (message.content) content.push({ type: 'text', text: message.content });
  for (const call of message.tool_calls ?? []) content.push(toolPart(call.id, call.function?.name, call.function?.arguments));
  if (message.audio) content.push({ type: 'audio', ...message.audio });
  return content.length > 0 ? { role: message.role ?? 'assistant', content } : null;
}

export const chatOutput = (choices: Json[] | undefined): OutputMessage[] =>
  (choices ?? []).map((choice) => chatMessage(choice.message)).filter((m): m is OutputMessage => m !== null);

/** A Responses API `output` list as one output message. */
export function responsesOutput(output: Json[] | undefined): OutputMessage[] {
  const content: Json[] = [];
  let role = 'assistant';
  for (const item of output ?? []) {
    if (item.type === 'message') {
      role = item.role ?? role;
      if (Array.isArray(item.content)) {
        for (const part of item.content) {
          if (part.type === 'output_text' && part.text) content.push({ type: 'text', text: part.text });
          else if (part.text) content.push({ type: 'text', text: part.text });
        }
      } else if (item.content) content.push({ type: 'text', text: String(item.content) });
    } else if (item.type === 'function_call') content.push(toolPart(item.call_id || item.id, item.name, item.arguments || {}));
  }
  return content.length > 0 ? [{ role, content }] : [];
}
