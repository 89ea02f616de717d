import { Anchor, Button, Paper, Skeleton, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatTime, timeAgo } from '../../components/format';
import { ErrorState } from '../../components/states';
import { exceptionsOf, type ErrorEvent } from './types';
import { errorQueries } from './api';
import { text } from './occurrence-details';

// An issue's people and occurrences, each a list that grows by ten.
const PEOPLE_STEP = 10;
const EVENTS_STEP = 10;

export function People({ projectId, issueId }: { projectId: number; issueId: string }) {
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

export function Occurrences({ projectId, issueId, picked, onPick }: { projectId: number; issueId: string; picked?: string; onPick: (e: ErrorEvent) => void }) {
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
