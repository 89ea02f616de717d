import { Anchor, Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { formatTime, timeAgo } from '../../components/format';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { PageHeader } from '../../components/page-header';
import { StackTrace } from './stack-trace';
import { exceptionsOf, STATUS_INFO, type ErrorEvent, type ErrorIssue, type IssueStatus } from './types';
import { errorApi, errorQueries, issueSaved } from './api';
import { Occurrences, People } from './issue-lists';
import { Context, Steps } from './occurrence-details';
import { VolumeChart } from './volume-chart';

// The merge dialog (Modal, Checkbox) loads with its first opening, not with every issue page.
const MergeDialog = lazy(() => import('./merge-dialog'));

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
