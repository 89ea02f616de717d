import { Anchor, Badge, Button, NativeSelect, Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useProjectId } from '../../api/hooks';
import { formatTime, timeAgo } from '../../components/format';
import { ListFooter, ListSkeleton, usePage } from '../../components/list';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState } from '../../components/states';
import { llmQueries } from './api';
import { FilterBar, TextFilter, useFilterNavigation } from './filter-bar';
import { llmFiltersOf, traceUrl } from './filters';
import { seconds, tokens, usd } from './format';
import { GettingStarted } from './getting-started';
import { LlmNav } from './section';
import type { Generation } from './types';

const PAGE_SIZE = 50;
const PROVIDERS = ['', 'openai', 'anthropic', 'google', 'azure', 'bedrock', 'mistral', 'groq'].map((p) => ({ value: p, label: p || 'Any provider' }));
const COSTS = [
  { value: '', label: 'Any cost' },
  { value: '0.001', label: '$0.001 or more' },
  { value: '0.01', label: '$0.01 or more' },
  { value: '0.1', label: '$0.10 or more' },
  { value: '1', label: '$1 or more' },
];

export default function GenerationsPage() {
  const projectId = useProjectId();
  const filters = llmFiltersOf(useSearch({ strict: false }));
  const [page, setPage] = usePage();
  const { set, clear } = useFilterNavigation();
  const list = useQuery(llmQueries.generations(projectId, filters, page, PAGE_SIZE));
  const filtered = Object.keys(filters).length > 0;
  const providers =
    filters.provider && !PROVIDERS.some((p) => p.value === filters.provider) ? [...PROVIDERS, { value: filters.provider, label: filters.provider }] : PROVIDERS;
  const costs =
    filters.cost_min && !COSTS.some((c) => c.value === filters.cost_min)
      ? [...COSTS, { value: filters.cost_min, label: `$${filters.cost_min} or more` }]
      : COSTS;
  return (
    <>
      <PageHeader title="Generations" description="Every model call and embedding, newest first, with its tokens, cost and latency." />
      <LlmNav projectId={projectId} current="Generations" />
      <FilterBar filters={filters}>
        <NativeSelect
          label="Provider"
          data={providers}
          value={filters.provider ?? ''}
          onChange={(e) => set({ provider: e.currentTarget.value || undefined })}
          w={150}
        />
        <NativeSelect
          label="Cost"
          data={costs}
          value={filters.cost_min ?? ''}
          onChange={(e) => set({ cost_min: e.currentTarget.value || undefined })}
          w={150}
        />
        <TextFilter label="Trace" placeholder="Trace id" value={filters.trace_id ?? ''} onChange={(v) => set({ trace_id: v || undefined })} width={180} />
      </FilterBar>
      {list.isPending ? (
        <ListSkeleton rows={8} height={40} />
      ) : list.error ? (
        <ErrorState
          error={list.error}
          retry={() => list.refetch()}
          title="Could not load the generations"
          missingApi="This page needs the LLM generations API."
        />
      ) : list.data.results.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No generation matches these filters"
            action={
              <Button variant="default" onClick={clear}>
                Clear filters
              </Button>
            }
          >
            Try a longer time range or fewer filters.
          </EmptyState>
        ) : (
          <GettingStarted />
        )
      ) : (
        <>
          <GenerationsTable projectId={projectId} generations={list.data.results} dimmed={list.isPlaceholderData} />
          <ListFooter
            total={`${list.data.count} generation${list.data.count === 1 ? '' : 's'}`}
            count={list.data.count}
            pageSize={PAGE_SIZE}
            page={page}
            onChange={setPage}
          />
        </>
      )}
    </>
  );
}

function GenerationsTable({ projectId, generations, dimmed }: { projectId: number; generations: Generation[]; dimmed: boolean }) {
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={720}>
        <Table highlightOnHover verticalSpacing="xs" aria-label="Generations">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Model</Table.Th>
              <Table.Th>Person</Table.Th>
              <Table.Th>Time</Table.Th>
              <Table.Th ta="right">Tokens in / out</Table.Th>
              <Table.Th ta="right">Cost</Table.Th>
              <Table.Th ta="right">Latency</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: dimmed ? 0.6 : 1 }}>
            {generations.map((g) => (
              <Table.Tr key={g.id} className="row-link row-stretched">
                <Table.Td style={{ maxWidth: 300 }}>
                  <Anchor component={Link} to={traceUrl(projectId, g.trace_id, g.id)} size="sm" fw={600} className="stretched-link mono wrap-anywhere">
                    {g.model ?? '(no model)'}
                  </Anchor>
                  <Text span size="xs" c="dimmed" ml={6}>
                    {g.provider}
                    {g.kind === 'embedding' ? ' · embedding' : ''}
                  </Text>
                  {g.is_error && (
                    <Badge size="xs" color="red" variant="light" ml={6}>
                      {g.http_status ?? 'Error'}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td style={{ maxWidth: 200 }}>
                  <Text size="sm" truncate="end" title={g.distinct_id}>
                    {g.distinct_id}
                  </Text>
                </Table.Td>
                <Table.Td title={formatTime(g.timestamp)} style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">{timeAgo(g.timestamp)}</Text>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {tokens(g.input_tokens)} / {tokens(g.output_tokens)}
                </Table.Td>
                <Table.Td ta="right">{usd(g.cost_usd)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {seconds(g.latency)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
