import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Table, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useProject, useProjectId } from '../../api/hooks';
import type { Person } from '../../api/types';
import { formatTime, timeAgo } from '../../components/format';
import { PropertiesTable } from '../../components/properties-table';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { STAGE_INFO } from '../early-access/stages';
import { reasonInWords } from '../flags/reason';
import { PageHeader } from '../../components/page-header';
import { personLabel } from './persons-page';
import { earlyAccessQueries } from '../early-access/api';
import { personQueries, safeDecode } from './api';
import { eventQueries } from '../events/api';
import { PersonRecordings } from '../replays/person-recordings';

export default function PersonPage() {
  const { distinctId: raw } = useParams({ strict: false }) as { distinctId: string };
  const distinctId = safeDecode(raw);
  const projectId = useProjectId();
  const trail = [{ label: 'People', to: `/project/${projectId}/persons` }];
  const person = useQuery(personQueries.detail(projectId, distinctId));
  if (person.isPending) return <LoadingState />;
  if (person.error)
    return (
      <>
        <PageHeader title={distinctId} trail={trail} />
        <ErrorState error={person.error} retry={() => person.refetch()} title="Could not load this person" />
      </>
    );
  const p = person.data;
  return (
    <>
      <PageHeader
        title={p ? personLabel(p) : distinctId}
        trail={trail}
        description={
          p
            ? `Distinct IDs: ${p.distinct_ids.join(', ')} · first seen ${formatTime(p.created_at)}`
            : 'No person has this distinct id yet: flags are evaluated as for a new visitor.'
        }
        actions={
          p && (
            <Badge size="lg" variant="light" color={p.is_identified ? 'green' : 'gray'}>
              {p.is_identified ? 'Identified' : 'Anonymous'}
            </Badge>
          )
        }
      />
      <Tabs defaultValue={p ? 'properties' : 'flags'} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="properties">Properties</Tabs.Tab>
          <Tabs.Tab value="events">Events</Tabs.Tab>
          <Tabs.Tab value="recordings">Recordings</Tabs.Tab>
          <Tabs.Tab value="flags">Feature flags</Tabs.Tab>
          <Tabs.Tab value="early_access">Early access</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="properties">
          {p ? (
            <Card withBorder padding="md">
              <PersonProperties properties={p.properties} />
            </Card>
          ) : (
            <EmptyState title="No properties">This distinct id has not been seen.</EmptyState>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="events">
          <PersonEvents projectId={projectId} distinctId={distinctId} />
        </Tabs.Panel>
        <Tabs.Panel value="recordings">
          <PersonRecordings projectId={projectId} personId={p?.id} distinctId={distinctId} />
        </Tabs.Panel>
        <Tabs.Panel value="flags">
          <PersonFlags distinctId={distinctId} />
        </Tabs.Panel>
        <Tabs.Panel value="early_access">
          <PersonEarlyAccess projectId={projectId} person={p} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

/**
 * A person's properties without those set to null (an SDK that sends every field of its user, filled or not): they
 * say nothing about the person, and are named below the table.
 */
export function PersonProperties({ properties }: { properties: Record<string, unknown> }) {
  const empty = Object.keys(properties).filter((key) => properties[key] === null);
  const shown = Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== null));
  return (
    <Stack gap="xs">
      <PropertiesTable properties={shown} label="Person properties" />
      {empty.length > 0 && (
        <Text size="xs" c="dimmed" className="wrap-anywhere">
          Without a value (not shown): {empty.sort().join(', ')}
        </Text>
      )}
    </Stack>
  );
}

function PersonEvents({ projectId, distinctId }: { projectId: number; distinctId: string }) {
  const events = useQuery(eventQueries.list(projectId, { distinct_id: distinctId }, 50));
  if (events.isPending) return <LoadingState />;
  if (events.error) return <ErrorState error={events.error} retry={() => events.refetch()} />;
  if (events.data.results.length === 0) return <EmptyState title="No events from this person yet" />;
  return (
    <Stack gap="xs">
      <Table aria-label="Events of this person">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>When</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.data.results.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td className="wrap-anywhere">{e.event}</Table.Td>
              <Table.Td title={formatTime(e.timestamp)}>{timeAgo(e.timestamp)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Anchor component={Link} to={`/project/${projectId}/events?distinct_id=${encodeURIComponent(distinctId)}`} size="sm">
        All events of this person, with their properties
      </Anchor>
    </Stack>
  );
}

function PersonFlags({ distinctId }: { distinctId: string }) {
  const { project, error: projectError } = useProject();
  const flags = useQuery(personQueries.flags(project, distinctId));
  if (projectError) return <ErrorState error={projectError} />;
  if (!project || flags.isPending) return <LoadingState label="Evaluating the flags…" />;
  if (flags.error) return <ErrorState error={flags.error} retry={() => flags.refetch()} title="Could not evaluate the flags" />;
  const rows = Object.values(flags.data.flags ?? {}).sort((a, b) => a.key.localeCompare(b.key));
  if (rows.length === 0) return <EmptyState title="No active feature flags">Flags show here, evaluated for this person, once you create some.</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Feature flag values of this person">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Flag</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((f) => (
            <Table.Tr key={f.key}>
              <Table.Td className="mono wrap-anywhere">
                {f.metadata?.id ? (
                  <Anchor component={Link} to={`/project/${project.id}/feature_flags/${f.metadata.id}`} size="sm" className="mono">
                    {f.key}
                  </Anchor>
                ) : (
                  f.key
                )}
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={f.enabled ? 'green' : 'gray'} className="mono">
                  {String(f.variant ?? f.enabled)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm" title={f.reason.code}>
                  {reasonInWords(f)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function PersonEarlyAccess({ projectId, person }: { projectId: number; person: Person | null }) {
  const features = useQuery(earlyAccessQueries.list(projectId));
  if (features.isPending) return <LoadingState />;
  if (features.error) return <ErrorState error={features.error} retry={() => features.refetch()} />;
  const rows = features.data.results
    .map((f) => ({ feature: f, value: f.feature_flag ? person?.properties[`$feature_enrollment/${f.feature_flag.key}`] : undefined }))
    .filter((r) => r.value !== undefined);
  if (rows.length === 0)
    return (
      <EmptyState title="Not enrolled in any early access feature">
        When this person opts in or out of a feature (or you do it for them), it shows here.
      </EmptyState>
    );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {rows.map(({ feature, value }) => (
        <Card key={feature.id} withBorder padding="md">
          <Group justify="space-between" wrap="nowrap">
            <Anchor component={Link} to={`/project/${projectId}/early_access/${feature.id}`} fw={600} className="wrap-anywhere">
              {feature.name}
            </Anchor>
            <Badge color={value === true ? 'green' : 'gray'} variant="light">
              {value === true ? 'Opted in' : 'Opted out'}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {STAGE_INFO[feature.stage].label}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
