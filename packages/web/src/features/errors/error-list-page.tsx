import { Anchor, Badge, Button, Group, NativeSelect, Paper, SegmentedControl, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useProjectId } from '../../api/hooks';
import { formatTime, timeAgo } from '../../components/format';
import { EmptyState, ErrorState } from '../../components/states';
import { PageHeader } from '../../components/page-header';
import { STATUS_INFO } from './types';
import { errorQueries } from './api';
import { ListSkeleton, ListFooter, usePage } from '../../components/list';

// The first visit's instructions (code blocks with copy buttons and their tooltips) load only when there is nothing yet.
const GettingStarted = lazy(() => import('./getting-started'));
const PAGE_SIZE = 25;
const STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'suppressed', label: 'Suppressed' },
  { value: 'all', label: 'All' },
];
const ORDERS = [
  { value: 'last_seen', label: 'Last seen' },
  { value: 'occurrences', label: 'Occurrences' },
  { value: 'people', label: 'People affected' },
];

export default function ErrorListPage() {
  const projectId = useProjectId();
  const search = useSearch({ strict: false }) as Record<string, string | undefined>;
  const navigate = useNavigate();
  const [page, setPage] = usePage();
  // Active issues by default, as in PostHog: resolved and suppressed ones are one click away.
  const status = STATUSES.some((s) => s.value === search.status) ? search.status! : 'active';
  const orderBy = ORDERS.some((o) => o.value === search.order_by) ? search.order_by! : 'last_seen';
  const [text, setText] = useState(search.search ?? '');
  const setSearch = (patch: Record<string, string | undefined>) =>
    navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, page: undefined, ...patch }), replace: true });
  // The list follows the box at once; the address follows it 300 ms after the last keystroke.
  const [written, setWritten] = useState<string | null>(null);
  const debounced = useDebouncedCallback((value: string) => {
    setWritten(value);
    void setSearch({ search: value || undefined });
  }, 300);
  // The address changed otherwise (a link, back): the box follows it.
  const [seen, setSeen] = useState(search.search ?? '');
  if ((search.search ?? '') !== seen) {
    setSeen(search.search ?? '');
    if ((search.search ?? '') !== written) setText(search.search ?? '');
  }
  const filters = { status: status === 'all' ? undefined : status, order_by: orderBy, search: text.trim() || undefined };
  const list = useQuery(errorQueries.list(projectId, filters, page, PAGE_SIZE));
  const filtered = Boolean(filters.search) || status !== 'active';
  // No active issue: are there any at all? (Nothing yet → how to start; else all of them are resolved or suppressed.)
  const anyIssue = useQuery({ ...errorQueries.any(projectId), enabled: !filtered && list.data?.count === 0 });
  const clear = () => {
    debounced.cancel();
    setText('');
    void navigate({ to: '.', search: {}, replace: true });
  };

  return (
    <>
      <PageHeader title="Errors" description="Exceptions your apps capture, grouped into issues: how often, for whom, and where in your code." />
      <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Type or message"
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            debounced(e.currentTarget.value);
          }}
          w={{ base: '100%', sm: 300 }}
          maxLength={200}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="error-status-label">
            Status
          </Text>
          <SegmentedControl
            aria-labelledby="error-status-label"
            data={STATUSES}
            value={status}
            onChange={(value) => void setSearch({ status: value === 'active' ? undefined : value })}
          />
        </Stack>
        <NativeSelect
          label="Sort by"
          w={170}
          data={ORDERS}
          value={orderBy}
          onChange={(e) => void setSearch({ order_by: e.currentTarget.value === 'last_seen' ? undefined : e.currentTarget.value })}
        />
        {filtered && (
          <Button variant="subtle" onClick={clear}>
            Clear filters
          </Button>
        )}
      </Group>

      {list.isPending ? (
        <ListSkeleton rows={4} height={56} />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the errors" missingApi="Errors need the error tracking API." />
      ) : list.data.results.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No issue matches these filters"
            action={
              <Button variant="default" onClick={clear}>
                Clear filters
              </Button>
            }
          >
            Search looks in the exception's type and message. Try another word, or another status.
          </EmptyState>
        ) : anyIssue.data && anyIssue.data.count > 0 ? (
          <EmptyState
            title="No active errors"
            action={
              <Button variant="default" onClick={() => void setSearch({ status: 'all' })}>
                Show all issues
              </Button>
            }
          >
            Every issue is resolved or suppressed. A resolved issue that happens again comes back here as a regression.
          </EmptyState>
        ) : anyIssue.isPending ? (
          <Skeleton height={200} />
        ) : (
          <Suspense fallback={<Skeleton height={200} />}>
            <GettingStarted />
          </Suspense>
        )
      ) : (
        <>
          <Paper withBorder>
            <Table.ScrollContainer minWidth={360}>
              <Table highlightOnHover verticalSpacing="sm" aria-label="Error issues">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Issue</Table.Th>
                    <Table.Th ta="right">Occurrences</Table.Th>
                    <Table.Th ta="right" visibleFrom="sm">
                      People
                    </Table.Th>
                    <Table.Th visibleFrom="sm">First seen</Table.Th>
                    <Table.Th>Last seen</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
                  {list.data.results.map((issue) => (
                    <Table.Tr key={issue.id} className="row-link row-stretched">
                      <Table.Td style={{ maxWidth: 560 }}>
                        <Group gap={8} wrap="nowrap" align="baseline">
                          <Anchor
                            component={Link}
                            to={`/project/${projectId}/error_tracking/${issue.id}`}
                            fw={600}
                            size="sm"
                            className="wrap-anywhere stretched-link"
                          >
                            {issue.name}
                          </Anchor>
                          <Badge size="xs" variant="light" color={STATUS_INFO[issue.status].color} style={{ flexShrink: 0 }}>
                            {STATUS_INFO[issue.status].label}
                          </Badge>
                          {issue.regressed_at && issue.status === 'active' && (
                            <Badge size="xs" variant="light" color="orange" style={{ flexShrink: 0 }} title={`Regressed ${formatTime(issue.regressed_at)}`}>
                              Regressed
                            </Badge>
                          )}
                        </Group>
                        {issue.description && (
                          <Text size="xs" c="dimmed" lineClamp={2} className="mono wrap-anywhere" mt={2}>
                            {issue.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td ta="right" fw={600}>
                        {issue.occurrences.toLocaleString()}
                      </Table.Td>
                      <Table.Td ta="right" visibleFrom="sm">
                        {issue.people.toLocaleString()}
                      </Table.Td>
                      <Table.Td title={formatTime(issue.first_seen)} style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                        <Text size="sm">{timeAgo(issue.first_seen)}</Text>
                      </Table.Td>
                      <Table.Td title={formatTime(issue.last_seen)} style={{ whiteSpace: 'nowrap' }}>
                        <Text size="sm">{timeAgo(issue.last_seen)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
          <ListFooter
            total={`${list.data.count} issue${list.data.count === 1 ? '' : 's'}`}
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
