import { Anchor, Badge, Group, Paper, Table, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { formatTime, timeAgo } from '../../components/format';
import { replayUrl } from './filters';
import { duration } from './timeline';
import { isOngoing, personOf, type SessionRecording } from './types';

/** Recordings as a table, each row a link to its player (the list, and a person's page). */
export function RecordingsTable({
  projectId,
  recordings,
  dimmed,
  showPerson = true,
}: {
  projectId: number;
  recordings: SessionRecording[];
  dimmed?: boolean;
  showPerson?: boolean;
}) {
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={520}>
        <Table highlightOnHover verticalSpacing="sm" aria-label="Recordings">
          <Table.Thead>
            <Table.Tr>
              {showPerson && <Table.Th>Person</Table.Th>}
              <Table.Th>Start</Table.Th>
              <Table.Th ta="right">Duration</Table.Th>
              <Table.Th ta="right" visibleFrom="sm">
                Clicks
              </Table.Th>
              <Table.Th ta="right" visibleFrom="sm">
                Keys
              </Table.Th>
              <Table.Th ta="right">Errors</Table.Th>
              <Table.Th visibleFrom="md">Start URL</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody style={{ opacity: dimmed ? 0.6 : 1 }}>
            {recordings.map((r) => {
              const errors = r.console_error_count + r.exception_count;
              const link = (
                <Anchor
                  component={Link}
                  to={replayUrl(projectId, r.id)}
                  fw={600}
                  size="sm"
                  className="stretched-link"
                  style={{ overflowWrap: 'break-word', minWidth: 0 }}
                >
                  {showPerson ? personOf(r) : formatTime(r.start_time)}
                </Anchor>
              );
              return (
                <Table.Tr key={r.id} className="row-link row-stretched">
                  {showPerson && (
                    <Table.Td style={{ maxWidth: 260 }}>
                      <Group gap={6} wrap="wrap">
                        {link}
                        {isOngoing(r) && (
                          <Badge size="xs" variant="light" color="green" style={{ flexShrink: 0 }}>
                            Ongoing
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                  )}
                  <Table.Td title={formatTime(r.start_time)} style={{ whiteSpace: 'nowrap' }}>
                    {showPerson ? <Text size="sm">{timeAgo(r.start_time)}</Text> : link}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} title={`Active for ${duration(r.active_seconds)}`}>
                    {duration(r.duration)}
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">
                    {r.click_count.toLocaleString()}
                  </Table.Td>
                  <Table.Td ta="right" visibleFrom="sm">
                    {r.keypress_count.toLocaleString()}
                  </Table.Td>
                  <Table.Td ta="right">
                    {errors ? (
                      <Badge size="sm" variant="light" color="red">
                        {errors}
                      </Badge>
                    ) : (
                      <Text size="sm" c="dimmed">
                        0
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td visibleFrom="md" style={{ maxWidth: 320 }}>
                    <Text size="sm" className="mono" truncate="end" title={r.start_url ?? undefined}>
                      {r.start_url ?? '—'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
