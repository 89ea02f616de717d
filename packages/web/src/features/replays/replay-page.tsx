import { Anchor, Badge, Button, Card, Grid, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { confirm } from '../../components/confirm';
import { formatTime } from '../../components/format';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { recordingDeleted, replayApi, replayQueries } from './api';
import { bounds, bytes, clock, duration, markersOf, MARKER_INFO, playable, type Marker } from './timeline';
import { isOngoing, personOf, type SessionRecordingDetail } from './types';
import './replays.css';

// rrweb's replayer is the page's own chunk, loaded beside the recording's events.
const Player = lazy(() => import('./player'));

export default function ReplayPage() {
  const { sessionId } = useParams({ strict: false }) as { sessionId: string };
  const { at } = useSearch({ strict: false }) as { at?: string };
  const projectId = useProjectId();
  const trail = [{ label: 'Replays', to: `/project/${projectId}/replays` }];
  const detail = useQuery(replayQueries.detail(projectId, sessionId));
  const snapshots = useQuery(replayQueries.snapshots(projectId, sessionId));
  const events = useQuery(replayQueries.events(projectId, sessionId));
  const [seek, setSeek] = useState<{ offset: number; n: number }>();
  const [time, setTime] = useState(0);
  const start = useMemo(() => bounds(snapshots.data ?? []), [snapshots.data]);
  // From a moment of the session (`?at=`): a second before it, to see what led there.
  const from = useMemo(() => {
    const t = at ? Date.parse(at) : NaN;
    return Number.isNaN(t) || !snapshots.data ? undefined : { offset: Math.max(0, t - start.start - 1000), n: 0 };
  }, [at, start, snapshots.data]);
  const markers = useMemo(() => markersOf(events.data?.results ?? [], start.start, start.end - start.start), [events.data, start]);

  if (detail.isPending) return <LoadingState label="Loading the recording…" />;
  if (detail.error)
    return (
      <>
        <PageHeader title="Recording" trail={trail} />
        <ErrorState error={detail.error} retry={() => detail.refetch()} title="Could not load this recording" />
      </>
    );
  const r = detail.data;
  const who = personOf(r);
  return (
    <>
      <PageHeader
        title={`Recording of ${who}`}
        trail={trail}
        description={`${formatTime(r.start_time)} · ${duration(r.duration)}${r.start_url ? ` · ${r.start_url}` : ''}`}
        actions={<DeleteButton projectId={projectId} recording={r} />}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          {snapshots.isPending ? (
            <Skeleton height={480} aria-label="Loading the recording's snapshots" />
          ) : snapshots.error ? (
            <ErrorState error={snapshots.error} retry={() => snapshots.refetch()} title="Could not load the recording's snapshots" />
          ) : !playable(snapshots.data) ? (
            <EmptyState title="Nothing to play yet">
              The recording has no full snapshot of the page{isOngoing(r) ? ' yet: the session is still going on, try again in a moment' : ''}.
            </EmptyState>
          ) : (
            <Suspense fallback={<Skeleton height={480} />}>
              <Player events={snapshots.data} markers={markers} seek={seek ?? from} onTime={setTime} />
            </Suspense>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            <Metadata recording={r} projectId={projectId} />
            <Card withBorder padding="sm">
              <Title order={2} size="h5" mb="xs" px={4}>
                Events
              </Title>
              {events.isPending ? (
                <Skeleton height={120} />
              ) : events.error ? (
                <ErrorState error={events.error} retry={() => events.refetch()} title="Could not load the session's events" />
              ) : markers.length === 0 ? (
                <Text size="sm" c="dimmed" px={4}>
                  No pageviews, clicks, custom events or exceptions in this session.
                </Text>
              ) : (
                <EventList markers={markers} time={time} onSeek={(offset) => setSeek((s) => ({ offset, n: (s?.n ?? 0) + 1 }))} />
              )}
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}

const count = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;

function Metadata({ recording: r, projectId }: { recording: SessionRecordingDetail; projectId: number }) {
  const stat = (label: string, value: string | number, color?: string) => (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} c={color}>
        {value}
      </Text>
    </div>
  );
  const errors = r.console_error_count + r.exception_count;
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Anchor
            component={Link}
            to={`/project/${projectId}/persons/${encodeURIComponent(r.distinct_id)}`}
            fw={600}
            style={{ overflowWrap: 'break-word', minWidth: 0 }}
          >
            {personOf(r)}
          </Anchor>
          {isOngoing(r) && (
            <Badge variant="light" color="green">
              Ongoing
            </Badge>
          )}
        </Group>
        <SimpleGrid cols={3} spacing="sm" verticalSpacing="xs">
          {stat('Duration', duration(r.duration))}
          {stat('Active', duration(r.active_seconds))}
          {stat('Size', bytes(r.size_bytes))}
          {stat('Clicks', r.click_count)}
          {stat('Key presses', r.keypress_count)}
          {stat('Errors', errors, errors ? 'red' : undefined)}
        </SimpleGrid>
        {(r.console_warn_count > 0 || r.console_log_count > 0) && (
          <Text size="xs" c="dimmed">
            Console: {count(r.console_log_count, 'log')}, {count(r.console_warn_count, 'warning')}, {count(r.console_error_count, 'error')}
          </Text>
        )}
        {r.urls.length > 0 && (
          <div>
            <Text size="xs" c="dimmed">
              Pages visited
            </Text>
            {r.urls.slice(0, 10).map((u) => (
              <Text key={u} size="sm" className="mono wrap-anywhere">
                {u}
              </Text>
            ))}
            {r.urls.length > 10 && (
              <Text size="xs" c="dimmed">
                and {r.urls.length - 10} more
              </Text>
            )}
          </div>
        )}
        {r.skipped_count > 0 && (
          <Text size="xs" c="orange.8">
            {r.skipped_count} recorded change{r.skipped_count === 1 ? '' : 's'} could not be read and {r.skipped_count === 1 ? 'is' : 'are'} left out.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** The session's events beside the player: the one playing is marked; a click plays from there. */
export function EventList({ markers, time, onSeek }: { markers: Marker[]; time: number; onSeek: (offset: number) => void }) {
  const current = markers.findLast((m) => m.offset <= time);
  return (
    <div className="replay-events" role="list" aria-label="Events of the session">
      {markers.map((m) => (
        <div role="listitem" key={m.id}>
          <button type="button" className="replay-event" aria-current={m === current ? 'true' : undefined} onClick={() => onSeek(m.offset)}>
            <Text span size="xs" c="dimmed" className="mono" style={{ flexShrink: 0 }}>
              {clock(m.offset / 1000)}
            </Text>
            <Badge size="xs" variant="dot" color={MARKER_INFO[m.kind].color} style={{ flexShrink: 0 }}>
              {MARKER_INFO[m.kind].label}
            </Badge>
            <Text span size="sm" className="wrap-anywhere" lineClamp={2}>
              {m.label}
            </Text>
          </button>
        </div>
      ))}
    </div>
  );
}

function DeleteButton({ projectId, recording }: { projectId: number; recording: SessionRecordingDetail }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => replayApi.remove(projectId, recording.id),
    onSuccess: async () => {
      toast({ message: 'Recording deleted.' });
      await navigate({ to: `/project/${projectId}/replays` });
      void recordingDeleted(queryClient, projectId, recording.id);
    },
    onError: (e) => toast({ color: 'red', message: e instanceof Error ? e.message : 'Could not delete the recording.' }),
  });
  if (!canWrite(me.data)) return null;
  const ask = async () => {
    const ok = await confirm({
      title: 'Delete this recording?',
      message: `The replay of ${personOf(recording)}'s session of ${formatTime(recording.start_time)} is deleted for good. Their events stay.`,
      confirmLabel: 'Delete recording',
      danger: true,
    });
    if (ok) remove.mutate();
  };
  return (
    <Button color="red" variant="light" onClick={() => void ask()} loading={remove.isPending}>
      Delete
    </Button>
  );
}
