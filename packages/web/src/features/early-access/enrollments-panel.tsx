import {
  Anchor,
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
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import type { EarlyAccessFeature } from '../../api/types';
import { confirm } from '../../components/confirm';
import { timeAgo } from '../../components/format';
import { describeError, EmptyState, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { earlyAccessApi, earlyAccessQueries, enrollmentsChanged } from './api';
import { personApi } from '../persons/api';
import { Pager } from '../../components/list';
import { replaysUrl } from '../replays/filters';

const TimeChart = lazy(() => import('../../components/time-chart'));

/**
 * The feature's own opt-ins and opt-outs per day, last 30 days: each person's latest choice on the day they made it, so
 * the lines add up to the counts above. Its query sits under the enrollments' key: opting someone in redraws it at once.
 */
function EnrollmentsPerDayChart({ projectId, featureId }: { projectId: number; featureId: string }) {
  const query = useQuery(earlyAccessQueries.perDay(projectId, featureId));
  const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h5">
            Opt-ins and opt-outs per day, last 30 days
          </Title>
          <Text size="xs" c="dimmed">
            Each person once, on the day of their latest choice: the lines add up to the counts above.
          </Text>
        </div>
        {query.isPending ? (
          <Skeleton height={240} />
        ) : query.error ? (
          <ErrorState error={query.error} retry={() => query.refetch()} title="Could not load the chart" />
        ) : total(query.data.opted_in) + total(query.data.opted_out) === 0 ? (
          <Text c="dimmed" size="sm" py="lg" ta="center">
            Nobody opted in or out of this feature yet. People opt in from your app (the Code tab shows how), or you can opt someone in below; each choice is
            counted here.
          </Text>
        ) : (
          <Suspense fallback={<Skeleton height={240} />}>
            <TimeChart
              label={`Opt-ins and opt-outs per day: ${total(query.data.opted_in)} opted in, ${total(query.data.opted_out)} opted out`}
              days={query.data.days}
              series={[
                { label: 'Opted in', values: query.data.opted_in },
                { label: 'Opted out', values: query.data.opted_out },
              ]}
            />
          </Suspense>
        )}
      </Stack>
    </Paper>
  );
}

const PEOPLE_PAGE = 20;

/** A feature's people: counts, the opt-ins chart, opting someone in or out, and who opted in or out. */
export function EnrollmentsPanel({ projectId, feature, writable }: { projectId: number; feature: EarlyAccessFeature; writable: boolean }) {
  const [filter, setFilter] = useState<'enrolled' | 'opted_out'>('enrolled');
  const [page, setPage] = useState(1);
  const [distinctId, setDistinctId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const list = useQuery(earlyAccessQueries.enrollments(projectId, feature.id, filter, page, PEOPLE_PAGE));
  const change = useMutation({
    mutationFn: (body: { distinct_id: string; enrolled: boolean }) => earlyAccessApi.enroll(projectId, feature.id, body),
    onSuccess: (_data, body) => {
      toast({ message: `${body.distinct_id} is now ${body.enrolled ? 'opted in' : 'opted out'}.` });
      setDistinctId('');
      void enrollmentsChanged(queryClient, projectId, feature.id);
    },
    onError: (e) => setError(describeError(e)),
  });
  /**
   * A distinct id nobody has been seen with is often a typo: the app asks before recording a choice for it (which
   * would otherwise apply to whoever first shows up with it).
   */
  const submit = async (enrolled: boolean) => {
    setError(null);
    const id = distinctId.trim();
    if (!id) return setError('Enter the distinct id of the person.');
    let known: boolean;
    try {
      known = (await personApi.byDistinctId(projectId, id)).results.length > 0;
    } catch (e) {
      return setError(describeError(e));
    }
    const ok =
      known ||
      (await confirm({
        title: `Nobody with the distinct id ${id} has been seen`,
        message: `No event or identify call came with "${id}" yet: check it for typos. If it is right, the choice is kept and applies from their first visit.`,
        confirmLabel: enrolled ? 'Opt in anyway' : 'Opt out anyway',
      }));
    if (ok) change.mutate({ distinct_id: id, enrolled });
  };
  const counts = list.data?.counts;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2 }} maw={420}>
        <Card withBorder padding="sm">
          <Text size="xs" c="dimmed">
            Opted in
          </Text>
          <Text fz={28} fw={700}>
            {counts ? counts.enrolled : '—'}
          </Text>
        </Card>
        <Card withBorder padding="sm">
          <Text size="xs" c="dimmed">
            Opted out
          </Text>
          <Text fz={28} fw={700}>
            {counts ? counts.opted_out : '—'}
          </Text>
        </Card>
      </SimpleGrid>
      {feature.feature_flag && <EnrollmentsPerDayChart projectId={projectId} featureId={feature.id} />}
      {writable && (
        <Card withBorder padding="md">
          <form
            noValidate
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              void submit(true);
            }}
          >
            <Group align="flex-start" wrap="wrap">
              <TextInput
                label="Opt a person in or out"
                description="On their behalf, by distinct id. Their own choice later wins. Enter opts in."
                placeholder="user-123"
                value={distinctId}
                onChange={(e) => {
                  setDistinctId(e.currentTarget.value);
                  setError(null);
                }}
                error={error}
                w={{ base: '100%', sm: 320 }}
                maxLength={400}
              />
              <Group mt={{ base: 0, sm: 46 }} gap="xs">
                <Button type="submit" loading={change.isPending && change.variables?.enrolled === true}>
                  Opt in
                </Button>
                <Button variant="default" onClick={() => void submit(false)} loading={change.isPending && change.variables?.enrolled === false}>
                  Opt out
                </Button>
              </Group>
            </Group>
          </form>
        </Card>
      )}
      <SegmentedControl
        w={260}
        data={[
          { value: 'enrolled', label: 'Opted in' },
          { value: 'opted_out', label: 'Opted out' },
        ]}
        value={filter}
        onChange={(v) => {
          setFilter(v as 'enrolled' | 'opted_out');
          setPage(1);
        }}
        aria-label="Show people who"
      />
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState
          error={list.error}
          retry={() => list.refetch()}
          title="Could not load the people"
          missingApi="The list of people needs the enrollments endpoint."
        />
      ) : list.data.results.length === 0 ? (
        <EmptyState title={filter === 'enrolled' ? 'Nobody opted in yet' : 'Nobody opted out'}>
          People opt in from your app (see the Code tab), or you can opt someone in above.
        </EmptyState>
      ) : (
        <div>
          <Table.ScrollContainer minWidth={500}>
            <Table aria-label={filter === 'enrolled' ? 'People who opted in' : 'People who opted out'}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Person</Table.Th>
                  <Table.Th>Stage when they chose</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Replays</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.results.map((e) => (
                  <Table.Tr key={`${e.distinct_id}-${e.group_key ?? ''}`}>
                    <Table.Td className="wrap-anywhere">
                      <Anchor component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(String(e.distinct_id))}`} size="sm">
                        {e.group_key ? `${e.group_type}: ${e.group_key}` : e.distinct_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{e.stage ?? '—'}</Table.Td>
                    <Table.Td>{timeAgo(e.updated_at)}</Table.Td>
                    <Table.Td>
                      {e.person_id && (
                        <Anchor
                          component={Link}
                          to={replaysUrl(projectId, { person_id: e.person_id })}
                          size="sm"
                          aria-label={`Replays of ${e.distinct_id ?? 'this person'}`}
                        >
                          Replays
                        </Anchor>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.data.count > PEOPLE_PAGE && (
            <Group justify="space-between" mt="sm">
              <Text size="sm" c="dimmed">
                {list.data.count} people
              </Text>
              <Pager count={list.data.count} pageSize={PEOPLE_PAGE} page={page} onChange={setPage} />
            </Group>
          )}
        </div>
      )}
    </Stack>
  );
}
