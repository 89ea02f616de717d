import { Badge, Code, Group, Paper, Spoiler, Stack, Text } from '@mantine/core';
import type { ChatMessage, Part } from './messages';

const ROLE_COLORS: Record<string, string> = {
  system: 'gray',
  developer: 'gray',
  user: 'blue',
  assistant: 'indigo',
  model: 'indigo',
  tool: 'orange',
  function: 'orange',
};

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

function PartView({ part }: { part: Part }) {
  switch (part.kind) {
    case 'text':
      return (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {part.text}
        </Text>
      );
    case 'tool_call':
      return (
        <Stack gap={4}>
          <Text size="xs" fw={600}>
            Calls tool <span className="mono">{part.name || '(unnamed)'}</span>
            {part.id ? (
              <Text span size="xs" c="dimmed" className="mono">
                {' '}
                · {part.id}
              </Text>
            ) : null}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {pretty(part.args)}
          </Code>
        </Stack>
      );
    case 'tool_result':
      return (
        <Stack gap={4}>
          <Text size="xs" fw={600}>
            Tool result{part.id ? <span className="mono"> · {part.id}</span> : null}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {pretty(part.text)}
          </Code>
        </Stack>
      );
    default:
      return (
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {JSON.stringify(part.value, null, 2)}
        </Code>
      );
  }
}

/** Messages as a chat: each with its role, its text, the tools it called and their results. */
export function Chat({ messages, label }: { messages: ChatMessage[]; label: string }) {
  return (
    <Stack gap="xs" component="ol" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {messages.map((m, i) => (
        <Paper key={i} component="li" withBorder p="sm" radius="md" className={`chat-message chat-${m.role}`}>
          <Group gap="xs" mb={6}>
            <Badge size="sm" variant="light" color={ROLE_COLORS[m.role] ?? 'gray'}>
              {m.role}
            </Badge>
          </Group>
          <Spoiler maxHeight={320} showLabel="Show all" hideLabel="Show less">
            <Stack gap="xs">
              {m.parts.length === 0 ? (
                <Text size="sm" c="dimmed">
                  (empty)
                </Text>
              ) : (
                m.parts.map((p, j) => <PartView key={j} part={p} />)
              )}
            </Stack>
          </Spoiler>
        </Paper>
      ))}
    </Stack>
  );
}
