import { Anchor, Autocomplete, Badge, Button, Group, Paper, Skeleton, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useProjectId } from '../../api/hooks';
import { EventCountsChart } from '../../components/chart';
import { formatTime, isoToLocal, localToIso, timeAgo } from '../../components/format';
import { PropertiesTable } from '../../components/properties-table';
import { EmptyState, ErrorState } from '../../components/states';
import { PageHeader } from '../../components/page-header';
import { completeFilters, parsePropertyFilters, PropertyFilters } from './property-filters';
import { eventQueries } from './api';

const STEP = 50;

/** The events every app sends through the SDKs, offered before any was seen. */
const COMMON_EVENTS = ['$pageview', '$pageleave', '$autocapture', '$identify', '$exception', '$feature_flag_called', '$feature_enrollment_update'];

export default function EventsPage() {
  const projectId = useProjectId();
  const { properties: propertiesInAddress, ...search } = useSearch({ strict: false }) as Record<string, string | undefined> & { properties?: unknown };
  const propertyFilters = completeFilters(parsePropertyFilters(propertiesInAddress));
  const navigate = useNavigate();
  const [eventText, setEventText] = useState(search.event ?? '');
  const [personText, setPersonText] = useState(search.distinct_id ?? '');
  const [limit, setLimit] = useState(STEP);
  const [live, setLive] = useState(true);
  const [open, setOpen] = useState<string | null>(null);
  const seen = useRef<Set<string> | null>(null);
  const set = (patch: Record<string, unknown>) => navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, ...patch }), replace: true });
  const debounced = useDebouncedCallback(set, 400);
  const filters = {
    event: search.event,
    distinct_id: search.distinct_id,
    after: search.after,
    before: search.before,
    properties: propertyFilters && JSON.stringify(propertyFilters),
  };
  const canLive = !search.before;
  const events = useQuery({
    ...eventQueries.list(projectId, filters, limit),
    placeholderData: keepPreviousData,
    refetchInterval: live && canLive ? 5000 : false,
    refetchIntervalInBackground: false,
  });
  // Rows that arrived since the last look are highlighted once.
  const fresh = new Set<string>();
  if (events.data && seen.current) for (const e of events.data.results) if (!seen.current.has(e.id)) fresh.add(e.id);
  useEffect(() => {
    if (events.data) seen.current = new Set(events.data.results.map((e) => e.id));
  }, [events.data]);
  const filtered = Object.values(filters).some(Boolean);
  // The picker offers the names seen on the page so far, then the SDKs' own events.
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    const seenNames = events.data?.results.map((e) => e.event) ?? [];
    setNames((known) => (seenNames.every((n) => known.includes(n)) ? known : [...new Set([...known, ...seenNames])].sort()));
  }, [events.data]);
  const pickable = [...names, ...COMMON_EVENTS.filter((n) => !names.includes(n))];
  // Property names to filter by: those of the events seen so far.
  const [keys, setKeys] = useState<string[]>([]);
  useEffect(() => {
    const seenKeys = (events.data?.results ?? []).flatMap((e) => Object.keys(e.properties));
    setKeys((known) => (seenKeys.every((k) => known.includes(k)) ? known : [...new Set([...known, ...seenKeys])].sort()));
  }, [events.data]);
  const where = Object.fromEntries((propertyFilters ?? []).map((f) => [f.key, f.value]));

  return (
    <>
      <PageHeader
        title="Events"
        description="What your apps send, newest first."
        actions={
          <Switch
            label={
              <Group gap={6}>
                Live
                {live && canLive && (
                  <Badge size="xs" color="green" variant="dot">
                    every 5 s
                  </Badge>
                )}
              </Group>
            }
            checked={live && canLive}
            disabled={!canLive}
            onChange={(e) => setLive(e.currentTarget.checked)}
          />
        }
      />
      <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
        <Autocomplete
          label="Event"
          placeholder="$pageview"
          data={pickable}
          value={eventText}
          onChange={(value) => {
            setEventText(value);
            debounced({ event: value || undefined });
          }}
          w={{ base: '100%', sm: 240 }}
          maxLength={400}
          limit={50}
        />
        <TextInput
          label="Person (distinct ID)"
          placeholder="user-123"
          value={personText}
          onChange={(e) => {
            setPersonText(e.currentTarget.value);
            debounced({ distinct_id: e.currentTarget.value || undefined });
          }}
          w={{ base: '100%', sm: 220 }}
          maxLength={400}
        />
        <TextInput
          label="After"
          type="datetime-local"
          value={isoToLocal(search.after)}
          onChange={(e) => set({ after: localToIso(e.currentTarget.value) })}
          w={210}
        />
        <TextInput
          label="Before"
          type="datetime-local"
          value={isoToLocal(search.before)}
          onChange={(e) => set({ before: localToIso(e.currentTarget.value) })}
          w={210}
        />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setEventText('');
              setPersonText('');
              void navigate({ to: '.', search: {}, replace: true });
            }}
          >
            Clear filters
          </Button>
        )}
      </Group>
      <PropertyFilters value={propertiesInAddress} keys={keys} onChange={(properties) => void set({ properties })} />
      {search.event && (
        <Stack mb="md">
          <EventCountsChart
            projectId={projectId}
            title={`${search.event} per day, last 30 days${Object.keys(where).length ? ', with these properties' : ''}`}
            event={search.event}
            where={Object.keys(where).length ? where : undefined}
            empty={`No ${search.event} event${Object.keys(where).length ? ' with these properties' : ''} in the last 30 days.`}
            labelOf={() => search.event!}
          />
        </Stack>
      )}
      {events.data && events.data.count > 0 && (
        <Text size="sm" c="dimmed" mb="xs">
          {events.data.count.toLocaleString()} {events.data.count === 1 ? 'event' : 'events'}
          {filtered ? ' match' : ' in all'}
        </Text>
      )}
      {events.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      ) : events.error ? (
        <ErrorState error={events.error} retry={() => events.refetch()} title="Could not load the events" />
      ) : events.data.results.length === 0 ? (
        filtered ? (
          <EmptyState title="No event matches these filters">
            Event names and property values match exactly (e.g. $pageview, or true for a property set to true). Widen the time range or clear the filters.
          </EmptyState>
        ) : (
          <EmptyState title="No events yet">
            Events appear here seconds after your app sends them. Install an SDK (Settings shows the snippets) and call <code>capture('signed_up')</code>.
          </EmptyState>
        )
      ) : (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={360}>
            <Table highlightOnHover aria-label="Events">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Person</Table.Th>
                  <Table.Th visibleFrom="sm">URL</Table.Th>
                  <Table.Th>When</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.data.results.map((e) => (
                  <Fragment key={e.id}>
                    <Table.Tr className={fresh.has(e.id) ? 'row-new row-link' : 'row-link'} onClick={() => setOpen(open === e.id ? null : e.id)}>
                      <Table.Td className="wrap-anywhere" maw={280}>
                        <Anchor
                          component="button"
                          type="button"
                          size="sm"
                          fw={600}
                          aria-expanded={open === e.id}
                          onClick={(ev: React.MouseEvent) => {
                            ev.stopPropagation();
                            setOpen(open === e.id ? null : e.id);
                          }}
                          className="wrap-anywhere"
                        >
                          {e.event}
                        </Anchor>
                      </Table.Td>
                      <Table.Td className="wrap-anywhere" maw={240}>
                        <Anchor
                          component={Link}
                          to={`/project/${projectId}/persons/${encodeURIComponent(e.distinct_id)}`}
                          size="sm"
                          onClick={(ev) => ev.stopPropagation()}
                        >
                          {e.distinct_id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td maw={280} visibleFrom="sm">
                        <Text size="sm" c="dimmed" truncate>
                          {typeof e.properties.$current_url === 'string' ? e.properties.$current_url : ''}
                        </Text>
                      </Table.Td>
                      <Table.Td title={formatTime(e.timestamp)} style={{ whiteSpace: 'nowrap' }}>
                        <Text size="sm">{timeAgo(e.timestamp)}</Text>
                      </Table.Td>
                    </Table.Tr>
                    {open === e.id && (
                      <Table.Tr>
                        <Table.Td colSpan={4} bg="var(--mantine-color-default-hover)">
                          <Text size="xs" c="dimmed" mb={4}>
                            {formatTime(e.timestamp)} · id <span className="mono">{e.id}</span>
                          </Text>
                          <PropertiesTable properties={e.properties} label={`Properties of ${e.event}`} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {events.data && events.data.count > limit && (
        <Group justify="center" mt="md">
          <Button variant="default" onClick={() => setLimit(limit + STEP)} loading={events.isFetching && events.isPlaceholderData}>
            Show older events
          </Button>
        </Group>
      )}
    </>
  );
}
