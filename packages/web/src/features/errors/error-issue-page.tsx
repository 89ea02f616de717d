import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Timeline,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { formatTime, show, timeAgo } from '../../components/format';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { PageHeader } from '../../components/page-header';
import { StackTrace } from './stack-trace';
import { exceptionsOf, STATUS_INFO, stepsOf, type ErrorEvent, type ErrorIssue, type IssueStatus } from './types';
import { errorApi, errorQueries, issueSaved } from './api';

const TimeChart = lazy(() => import('../../components/time-chart'));
// The merge dialog (Modal, Checkbox) loads with its first opening, not with every issue page.
const MergeDialog = lazy(() => import('./merge-dialog'));
const PEOPLE_STEP = 10;
const EVENTS_STEP = 10;

export default function ErrorIssuePage() {
  const { issueId } = useParams({ strict: false }) as { issueId: string };
  const projectId = useProjectId();
  const me = useMe();
  const queryClient = useQueryClient();
  const trail = [{ label: 'Errors', to: `/project/${projectId}/error_tracking` }];
  const issue = useQuery(errorQueries.detail(projectId, issueId));
  // An occurrence picked in the list below; otherwise the latest.
  const [picked, setPicked] = useState<ErrorEvent | null>(null);
  const saved = (next: ErrorIssue) => void issueSaved(queryClient, projectId, issueId, next);
  const move = useMutation({
    mutationFn: (status: IssueStatus) => errorApi.setStatus(projectId, issueId, status),
    onSuccess: (next) => {
      saved(next);
      toast({ message: `${next.name} is ${STATUS_INFO[next.status].label.toLowerCase()}.` });
    },
    onError: (error) => toast({ color: 'red', title: 'Could not change the issue', message: describeError(error) }),
  });

  if (issue.isPending) return <LoadingState label="Loading the issue…" />;
  if (issue.error)
    return (
      <>
        <PageHeader title="Issue" trail={trail} />
        <ErrorState error={issue.error} retry={() => issue.refetch()} title="Could not load this issue" missingApi="Errors need the error tracking API." />
      </>
    );
  const i = issue.data;
  const writable = canWrite(me.data);
  const status = STATUS_INFO[i.status];
  const shown = picked ?? i.latest_event;
  const action = (to: IssueStatus, label: string, props: { variant?: string; color?: string } = {}) =>
    i.status !== to && (
      <Button variant="default" {...props} onClick={() => move.mutate(to)} loading={move.isPending && move.variables === to} disabled={move.isPending}>
        {label}
      </Button>
    );
  return (
    <>
      <PageHeader
        title={i.name}
        trail={trail}
        description={i.description ? <span className="mono">{i.description}</span> : undefined}
        actions={
          <>
            <Badge size="lg" variant="light" color={status.color} title={status.help}>
              {status.label}
            </Badge>
            {writable && (
              <>
                {action('resolved', 'Resolve', { variant: 'filled' })}
                {action('active', 'Reopen')}
                {action('suppressed', 'Suppress')}
                <MergeIssues projectId={projectId} issue={i} onMerged={saved} />
              </>
            )}
          </>
        }
      />
      <Stack gap="lg">
        {i.regressed_at && i.status === 'active' && (
          <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-orange-light)">
            <Text size="sm">
              <b>Regression:</b> this issue was resolved, and happened again {timeAgo(i.regressed_at)} ({formatTime(i.regressed_at)}).
            </Text>
          </Paper>
        )}
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Stat label="Occurrences" value={i.occurrences.toLocaleString()} />
          <Stat label="People affected" value={i.people.toLocaleString()} />
          <Stat label="First seen" value={timeAgo(i.first_seen)} title={formatTime(i.first_seen)} />
          <Stat label="Last seen" value={timeAgo(i.last_seen)} title={formatTime(i.last_seen)} />
        </SimpleGrid>
        <VolumeChart projectId={projectId} issueId={issueId} />
        <div className="issue-columns">
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="stack-title">
            <Group justify="space-between" mb="md" align="baseline">
              <Title order={2} size="h4" id="stack-title">
                {picked ? 'Occurrence' : 'Latest occurrence'}
              </Title>
              {shown && (
                <Group gap={8} wrap="wrap">
                  <Text size="sm" c="dimmed" title={formatTime(shown.timestamp)}>
                    {timeAgo(shown.timestamp)}
                  </Text>
                  <Anchor component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(shown.distinct_id)}`} size="sm">
                    {shown.distinct_id}
                  </Anchor>
                  {picked && (
                    <Button size="compact-xs" variant="default" onClick={() => setPicked(null)}>
                      Back to the latest
                    </Button>
                  )}
                </Group>
              )}
            </Group>
            {shown ? (
              <StackTrace key={shown.uuid} exceptions={exceptionsOf(shown.properties)} />
            ) : (
              <Text size="sm" c="dimmed">
                No occurrence is stored for this issue.
              </Text>
            )}
          </Paper>
          <Stack gap="lg">
            {shown && <Context event={shown} />}
            {shown && <Steps event={shown} />}
          </Stack>
        </div>
        <People projectId={projectId} issueId={issueId} />
        <Occurrences projectId={projectId} issueId={issueId} picked={shown?.uuid} onPick={setPicked} />
      </Stack>
    </>
  );
}

function Stat({ label, value, title }: { label: string; value: string; title?: string }) {
  return (
    <Card withBorder padding="sm" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" aria-hidden>
        {label}
      </Text>
      <Text size="xl" fw={700} title={title}>
        {value}
      </Text>
    </Card>
  );
}

const RANGES = [
  { value: '14', label: '14 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
];

function VolumeChart({ projectId, issueId }: { projectId: number; issueId: string }) {
  const [days, setDays] = useState('14');
  const volume = useQuery(errorQueries.volume(projectId, issueId, days));
  const points = volume.data?.points ?? [];
  const total = points.reduce((sum, p) => sum + p.occurrences, 0);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="volume-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h5" id="volume-title">
          Occurrences per day
        </Title>
        <SegmentedControl size="xs" data={RANGES} value={days} onChange={setDays} aria-label="Time range" />
      </Group>
      {volume.isPending ? (
        <Skeleton height={200} />
      ) : volume.error ? (
        <ErrorState error={volume.error} retry={() => volume.refetch()} title="Could not load the chart" />
      ) : (
        <Suspense fallback={<Skeleton height={200} />}>
          <TimeChart
            label={`Occurrences per day over the last ${days} days: ${total} in all`}
            days={points.map((p) => p.date)}
            // Occurrences only: people per day do not add up to the people affected, and a legend total of them would mislead.
            series={[{ label: 'Occurrences', values: points.map((p) => p.occurrences) }]}
            height={200}
          />
        </Suspense>
      )}
    </Paper>
  );
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** Where the error happened: page, release, library, browser. */
function Context({ event }: { event: ErrorEvent }) {
  const p = event.properties;
  const join = (...parts: unknown[]) => parts.map(text).filter(Boolean).join(' ') || undefined;
  const rows: [string, string | undefined][] = [
    ['When', formatTime(event.timestamp)],
    ['URL', text(p.$current_url)],
    ['Release', text(p.$release)],
    ['Library', join(p.$lib, p.$lib_version)],
    ['Browser', join(p.$browser, p.$browser_version)],
    ['OS', join(p.$os, p.$os_version)],
    ['Level', text(p.$exception_level)],
  ];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="context-title">
      <Title order={2} size="h5" id="context-title" mb="xs">
        Context
      </Title>
      <Table fz="sm" verticalSpacing={4} aria-label="Context of the occurrence" layout="fixed">
        <Table.Tbody>
          {rows
            .filter(([, v]) => v)
            .map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Th w={80} fw={500} c="dimmed" scope="row">
                  {k}
                </Table.Th>
                <Table.Td className="mono wrap-anywhere">{v}</Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The `$exception_steps` trail: what the person did just before. */
function Steps({ event }: { event: ErrorEvent }) {
  const steps = stepsOf(event.properties);
  const at = Date.parse(event.timestamp);
  const before = (ts?: string) => {
    const ms = at - Date.parse(ts ?? '');
    if (!Number.isFinite(ms)) return undefined;
    return ms < 1000 ? `${Math.max(0, ms)} ms before` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s before` : `${Math.round(ms / 60_000)} min before`;
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="steps-title">
      <Title order={2} size="h5" id="steps-title" mb="sm">
        Steps before the error
      </Title>
      {steps.length === 0 ? (
        <Text size="sm" c="dimmed">
          No steps came with this occurrence. service-js records page views and clicks, and your own with <code>addExceptionStep</code>.
        </Text>
      ) : (
        <Timeline bulletSize={14} lineWidth={2} active={steps.length} aria-label="Steps before the error">
          {steps.map((step, n) => {
            const extra = Object.entries(step).filter(([k]) => !k.startsWith('$'));
            return (
              <Timeline.Item
                key={n}
                title={
                  <Group gap={6} wrap="nowrap" align="baseline">
                    <Text size="sm" fw={600} className="wrap-anywhere">
                      {step.$message}
                    </Text>
                    {step.$type && (
                      <Badge size="xs" variant="light" color="gray" tt="none">
                        {step.$type}
                      </Badge>
                    )}
                  </Group>
                }
              >
                {before(step.$timestamp) && (
                  <Text size="xs" c="dimmed">
                    {before(step.$timestamp)}
                  </Text>
                )}
                {extra.length > 0 && (
                  <Text size="xs" className="mono wrap-anywhere" c="dimmed">
                    {extra.map(([k, v]) => `${k}: ${show(v)}`).join(' · ')}
                  </Text>
                )}
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Paper>
  );
}

function People({ projectId, issueId }: { projectId: number; issueId: string }) {
  const [limit, setLimit] = useState(PEOPLE_STEP);
  const people = useQuery(errorQueries.people(projectId, issueId, limit));
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="people-title">
      <Title order={2} size="h4" id="people-title" mb="sm">
        People affected
      </Title>
      {people.isPending ? (
        <Skeleton height={120} />
      ) : people.error ? (
        <ErrorState error={people.error} retry={() => people.refetch()} title="Could not load the people" />
      ) : people.data.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nobody yet.
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={480}>
            <Table aria-label="People affected" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Person</Table.Th>
                  <Table.Th>Email</Table.Th>
                  <Table.Th ta="right">Occurrences</Table.Th>
                  <Table.Th>Last seen</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {people.data.results.map((p) => (
                  <Table.Tr key={p.distinct_id}>
                    <Table.Td className="wrap-anywhere">
                      <Anchor component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(p.distinct_id)}`} size="sm">
                        {p.distinct_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td className="wrap-anywhere">
                      <Text size="sm" c="dimmed">
                        {text(p.properties?.email) ?? '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{p.occurrences.toLocaleString()}</Table.Td>
                    <Table.Td title={formatTime(p.last_seen)}>{timeAgo(p.last_seen)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {people.data.count > limit && (
            <Button variant="default" size="xs" mt="sm" onClick={() => setLimit(limit + PEOPLE_STEP)} loading={people.isFetching}>
              Show more people ({people.data.count - limit} more)
            </Button>
          )}
        </>
      )}
    </Paper>
  );
}

function Occurrences({ projectId, issueId, picked, onPick }: { projectId: number; issueId: string; picked?: string; onPick: (e: ErrorEvent) => void }) {
  const [limit, setLimit] = useState(EVENTS_STEP);
  const events = useQuery(errorQueries.events(projectId, issueId, limit));
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="events-title">
      <Title order={2} size="h4" id="events-title" mb="sm">
        Occurrences
      </Title>
      {events.isPending ? (
        <Skeleton height={160} />
      ) : events.error ? (
        <ErrorState error={events.error} retry={() => events.refetch()} title="Could not load the occurrences" />
      ) : events.data.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          No occurrence stored.
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label="Occurrences of this issue" verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Person</Table.Th>
                  <Table.Th>Message</Table.Th>
                  <Table.Th>URL</Table.Th>
                  <Table.Th>Release</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Stack</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.data.results.map((e) => {
                  const first = exceptionsOf(e.properties)[0];
                  return (
                    <Table.Tr key={e.uuid} className={e.uuid === picked ? 'occurrence-shown' : undefined}>
                      <Table.Td title={formatTime(e.timestamp)} style={{ whiteSpace: 'nowrap' }}>
                        {timeAgo(e.timestamp)}
                      </Table.Td>
                      <Table.Td className="wrap-anywhere" maw={200}>
                        <Anchor component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(e.distinct_id)}`} size="sm">
                          {e.distinct_id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td maw={320}>
                        <Text size="sm" className="mono" truncate>
                          {first ? `${first.type}: ${first.value}` : '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td maw={240}>
                        <Text size="sm" c="dimmed" truncate>
                          {text(e.properties.$current_url) ?? ''}
                        </Text>
                      </Table.Td>
                      <Table.Td className="mono">{text(e.properties.$release) ?? '—'}</Table.Td>
                      <Table.Td>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          aria-label={`Show the stack of the occurrence of ${e.distinct_id} at ${formatTime(e.timestamp)}`}
                          aria-pressed={e.uuid === picked}
                          onClick={() => {
                            onPick(e);
                            document.getElementById('stack-title')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                          }}
                        >
                          Stack
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {events.data.count > limit && (
            <Button variant="default" size="xs" mt="sm" onClick={() => setLimit(limit + EVENTS_STEP)} loading={events.isFetching}>
              Show older occurrences
            </Button>
          )}
        </>
      )}
    </Paper>
  );
}

/** "Merge…": the button, and the dialog once asked for. */
function MergeIssues({ projectId, issue, onMerged }: { projectId: number; issue: ErrorIssue; onMerged: (i: ErrorIssue) => void }) {
  const [opened, setOpened] = useState(false);
  const [asked, setAsked] = useState(false);
  return (
    <>
      <Button
        variant="default"
        onClick={() => {
          setAsked(true);
          setOpened(true);
        }}
      >
        Merge…
      </Button>
      {asked && (
        <Suspense fallback={null}>
          <MergeDialog projectId={projectId} issue={issue} opened={opened} onClose={() => setOpened(false)} onMerged={onMerged} />
        </Suspense>
      )}
    </>
  );
}
