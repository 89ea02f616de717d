import { Alert, Code, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/states';
import { formatTime } from '../../components/format';
import { llmQueries } from './api';
import { Chat } from './chat';
import { seconds, tokens, usd } from './format';
import { chatOf } from './messages';
import { nodeLabel } from './tree';
import type { TraceNode } from './types';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {value}
      </Text>
    </div>
  );
}

/** A selected node: its figures, its error, and its input and output as a chat (a span's state as JSON). */
export function NodeDetails({ projectId, node }: { projectId: number; node: TraceNode }) {
  // The trace carries each node's properties, except past its byte budget: then the node's event is read alone.
  const cut = node.properties === null;
  const event = useQuery({ ...llmQueries.event(projectId, node), enabled: cut });
  const isCall = node.kind === 'generation' || node.kind === 'embedding';
  const props: Record<string, unknown> = (cut ? event.data?.properties : node.properties) ?? {};
  const found = !cut || event.data !== null;
  const input = isCall ? chatOf(props.$ai_input, 'user') : [];
  const output = isCall ? chatOf(props.$ai_output_choices ?? props.$ai_output, 'assistant') : [];
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Group justify="space-between" align="baseline">
            <Title order={2} size="h4" className={isCall ? 'mono wrap-anywhere' : 'wrap-anywhere'}>
              {nodeLabel(node)}
            </Title>
            <Text size="sm" c="dimmed">
              {node.kind}
              {node.provider ? ` · ${node.provider}` : ''} · {formatTime(node.timestamp)}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Figure label="Latency" value={seconds(node.latency)} />
            {isCall && <Figure label="Cost" value={usd(node.cost_usd)} />}
            {isCall && <Figure label="Input tokens" value={tokens(node.input_tokens)} />}
            {isCall && <Figure label="Output tokens" value={tokens(node.output_tokens)} />}
            {node.time_to_first_token !== null && <Figure label="First token" value={seconds(node.time_to_first_token)} />}
            {node.cache_read_tokens !== null && <Figure label="Cache read tokens" value={tokens(node.cache_read_tokens)} />}
            {node.reasoning_tokens !== null && <Figure label="Reasoning tokens" value={tokens(node.reasoning_tokens)} />}
            {node.http_status !== null && <Figure label="HTTP status" value={String(node.http_status)} />}
          </SimpleGrid>
          {isCall && node.input_tokens === null && (
            <Text size="xs" c="dimmed">
              The provider returned no usage for this call: its tokens and cost are unknown.
            </Text>
          )}
        </Stack>
      </Paper>
      {node.is_error && (
        <Alert color="red" variant="light" title="This call failed" role="alert">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {node.error ?? 'No error message was sent.'}
          </Text>
        </Alert>
      )}
      {cut && event.isPending ? (
        <Skeleton height={160} />
      ) : cut && event.error ? (
        <ErrorState error={event.error} retry={() => event.refetch()} title="Could not load the messages" />
      ) : (
        <>
          {isCall ? (
            <>
              <Section title="Input">{input.length ? <Chat messages={input} label="Input messages" /> : <Nothing privacy={found} />}</Section>
              <Section title="Output">
                {output.length ? <Chat messages={output} label="Output messages" /> : <Nothing privacy={found && !node.is_error} />}
              </Section>
            </>
          ) : (
            <>
              <Section title="Input state">
                <State value={props.$ai_input_state} />
              </Section>
              <Section title="Output state">
                <State value={props.$ai_output_state} />
              </Section>
            </>
          )}
          {Array.isArray(props.$ai_tools) && props.$ai_tools.length > 0 && (
            <Section title={`Tools offered (${props.$ai_tools.length})`}>
              <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 320, overflow: 'auto' }}>
                {JSON.stringify(props.$ai_tools, null, 2)}
              </Code>
            </Section>
          )}
        </>
      )}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** A span's or trace's state: any JSON its code passed, shown as it is. */
function State({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <Nothing privacy={false} />;
  return (
    <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 480, overflow: 'auto' }}>
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </Code>
  );
}

function Nothing({ privacy }: { privacy: boolean }) {
  return (
    <Text size="sm" c="dimmed">
      {privacy ? 'Nothing was sent (the call may have been made in privacy mode).' : 'Nothing was sent.'}
    </Text>
  );
}
