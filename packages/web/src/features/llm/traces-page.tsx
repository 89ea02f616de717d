import { Anchor, Badge, Button, Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useProjectId } from '../../api/hooks';
import { formatTime, timeAgo } from '../../components/format';
import { ListFooter, ListSkeleton, usePage } from '../../components/list';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState } from '../../components/states';
import { llmQueries } from './api';
import { FilterBar, useFilterNavigation } from './filter-bar';
import { llmFiltersOf, traceUrl } from './filters';
import { seconds, tokens, usd } from './format';
import { GettingStarted } from './getting-started';
import { LlmNav } from './section';
import type { TraceSummary } from './types';

const PAGE_SIZE = 25;

export default function TracesPage() {
  const projectId = useProjectId();
  const { provider: _p, cost_min: _c, trace_id: _t, ...filters } = llmFiltersOf(useSearch({ strict: false }));
  const [page, setPage] = usePage();
  const { clear } = useFilterNavigation();
  const list = useQuery(llmQueries.traces(projectId, filters, page, PAGE_SIZE));
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <PageHeader title="Traces" description="Each request or agent run: its spans and model calls together, with what they cost and how long they took." />
      <LlmNav projectId={projectId} current="Traces" />
      <FilterBar filters={filters} />
      {list.isPending ? (
        <ListSkeleton rows={6} height={44} />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the traces" missingApi="This page needs the LLM traces API." />
      ) : list.data.results.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No trace matches these filters"
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
          <TracesTable projectId={projectId} traces={list.data.results} dimmed={list.isPlaceholderData} />
          <ListFooter
            total={`${list.data.count} trace${list.data.count === 1 ? '' : 's'}`}
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

/** A trace's name: the one sent, else its id shortened. */
export const traceName = (t: { name: string | null; id: string }) => t.name || (t.id.length > 18 ? `${t.id.slice(0, 8)}…${t.id.slice(-4)}` : t.id);

function TracesTable({ projectId, traces, dimmed }: { projectId: number; traces: TraceSummary[]; dimmed: boolean }) {
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={640}>
        <Table highlightOnHover verticalSpacing="sm" aria-label="Traces">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Trace</Table.Th>
              <Table.Th>Person</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th ta="right">Calls</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">
                Tokens in / out
              </Table.Th>
              <Table.Th ta="right">Cost</Table.Th>
              <Table.Th ta="right">Latency</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: dimmed ? 0.6 : 1 }}>
            {traces.map((t) => (
              <Table.Tr key={t.id} className="row-link row-stretched">
                <Table.Td style={{ maxWidth: 280 }}>
                  <Anchor component={Link} to={traceUrl(projectId, t.id)} fw={600} size="sm" className="stretched-link wrap-anywhere">
                    {traceName(t)}
                  </Anchor>
                  {t.is_error && (
                    <Badge size="xs" color="red" variant="light" ml={6}>
                      Error
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td style={{ maxWidth: 200 }}>
                  <Text size="sm" truncate="end" title={t.distinct_id}>
                    {t.distinct_id}
                  </Text>
                </Table.Td>
                <Table.Td title={formatTime(t.started_at)} style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">{timeAgo(t.started_at)}</Text>
                </Table.Td>
                <Table.Td ta="right">{t.generations}</Table.Td>
                <Table.Td ta="right" visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                  {tokens(t.input_tokens)} / {tokens(t.output_tokens)}
                </Table.Td>
                <Table.Td ta="right">{usd(t.cost_usd)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {seconds(t.latency)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
