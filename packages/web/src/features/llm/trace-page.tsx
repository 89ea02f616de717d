import { Badge, Button, Grid, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useProjectId } from '../../api/hooks';
import { formatTime } from '../../components/format';
import { PageHeader } from '../../components/page-header';
import { ErrorState, LoadingState } from '../../components/states';
import { replayUrl } from '../replays/filters';
import { llmQueries } from './api';
import { seconds, usd } from './format';
import { NodeDetails } from './node-details';
import { flatten, initialNode, nodeLabel, traceSeconds, type FlatNode } from './tree';
import type { TraceNode } from './types';
import './llm.css';

const KIND_COLORS: Record<string, string> = { trace: 'violet', span: 'gray', generation: 'blue', embedding: 'blue' };

export default function TracePage() {
  const projectId = useProjectId();
  const { traceId } = useParams({ strict: false }) as { traceId: string };
  const search = useSearch({ strict: false }) as { node?: string };
  const navigate = useNavigate();
  const trace = useQuery(llmQueries.trace(projectId, traceId));
  const flat = useMemo(() => flatten(trace.data?.children ?? []), [trace.data]);
  const trail = [
    { label: 'LLM', to: `/project/${projectId}/llm` },
    { label: 'Traces', to: `/project/${projectId}/llm/traces` },
  ];
  if (trace.isPending) return <LoadingState label="Loading the trace…" />;
  if (trace.error)
    return (
      <>
        <PageHeader title="Trace" trail={trail} />
        <ErrorState error={trace.error} retry={() => trace.refetch()} title="Could not load this trace" missingApi="This page needs the LLM traces API." />
      </>
    );
  const selected = initialNode(flat, search.node);
  const root = flat.find((f) => f.node.kind === 'trace')?.node;
  const first = flat[0]?.node;
  const distinctId = first?.distinct_id;
  const sessionId = flat.find((f) => f.node.session_id)?.node.session_id;
  const select = (node: TraceNode) => void navigate({ to: '.', search: { node: node.id }, replace: true });
  return (
    <>
      <PageHeader
        title={root?.name ?? `Trace ${traceId}`}
        trail={trail}
        description={`Started ${formatTime(trace.data.start_time)} · ${trace.data.generation_count} model call${trace.data.generation_count === 1 ? '' : 's'} · ${usd(trace.data.cost_usd)} · ${seconds(root?.latency ?? traceSeconds(flat))}`}
        actions={
          <>
            {trace.data.is_error && (
              <Badge color="red" variant="light" size="lg">
                Failed
              </Badge>
            )}
            {distinctId && (
              <Button component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(distinctId)}`} variant="default" size="xs">
                View person
              </Button>
            )}
            {sessionId && (
              <Button component={Link} to={replayUrl(projectId, sessionId, trace.data.start_time)} variant="default" size="xs">
                Watch replay
              </Button>
            )}
            {distinctId && (
              <Button
                component={Link}
                to={`/project/${projectId}/events?${new URLSearchParams({ event: '$exception', distinct_id: distinctId })}`}
                variant="default"
                size="xs"
              >
                Their errors
              </Button>
            )}
          </>
        }
      />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="xs" radius="md" component="nav" aria-label="Spans and generations">
            <TreeList flat={flat} selected={selected} onSelect={select} />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>{selected && <NodeDetails projectId={projectId} node={selected} />}</Grid.Col>
      </Grid>
    </>
  );
}

function TreeList({ flat, selected, onSelect }: { flat: FlatNode[]; selected: TraceNode | undefined; onSelect: (node: TraceNode) => void }) {
  return (
    <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {flat.map(({ node, depth }) => {
        const current = node.id === selected?.id;
        return (
          <li key={node.id}>
            <UnstyledButton
              onClick={() => onSelect(node)}
              aria-current={current ? 'true' : undefined}
              className={`trace-node${current ? ' trace-node-current' : ''}`}
              style={{ paddingLeft: 8 + depth * 16 }}
            >
              <Group gap={6} wrap="nowrap" justify="space-between">
                <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                  <Badge size="xs" variant="light" color={node.is_error ? 'red' : (KIND_COLORS[node.kind] ?? 'gray')} style={{ flexShrink: 0 }}>
                    {node.kind}
                  </Badge>
                  <Text size="sm" truncate="end" title={nodeLabel(node)} className={node.kind === 'generation' ? 'mono' : undefined}>
                    {nodeLabel(node)}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {seconds(node.latency)}
                </Text>
              </Group>
            </UnstyledButton>
          </li>
        );
      })}
    </Stack>
  );
}
