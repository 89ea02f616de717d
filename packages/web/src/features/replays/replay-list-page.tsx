import { Badge, Button, Checkbox, CloseButton, Group, NativeSelect, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useProjectId } from '../../api/hooks';
import { ListFooter, ListSkeleton, usePage } from '../../components/list';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState } from '../../components/states';
import { replayQueries, type RecordingFilters } from './api';
import { FILTER_NAMES, filtersOf } from './filters';
import { RecordingsTable } from './recordings-table';

const PAGE_SIZE = 25;
const DATES = [
  { value: '', label: 'Any time' },
  { value: '-1d', label: 'Last 24 hours' },
  { value: '-7d', label: 'Last 7 days' },
  { value: '-30d', label: 'Last 30 days' },
];
const DURATIONS = [
  { value: '', label: 'Any length' },
  { value: '10', label: '10 s or more' },
  { value: '60', label: '1 min or more' },
  { value: '300', label: '5 min or more' },
  { value: '1800', label: '30 min or more' },
];

/** A text filter that writes to the address 300 ms after the last keystroke, and follows the address when it changes. */
function TextFilter({
  label,
  placeholder,
  value,
  onChange,
  width,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (v: string) => void;
  width: number;
}) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  const debounced = useDebouncedCallback(onChange, 300);
  if (value !== seen) {
    setSeen(value);
    setText(value);
  }
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        debounced(e.currentTarget.value.trim());
      }}
      w={{ base: '100%', sm: width }}
      maxLength={500}
    />
  );
}

export default function ReplayListPage() {
  const projectId = useProjectId();
  const search = filtersOf(useSearch({ strict: false })) as Record<string, string | undefined>;
  const navigate = useNavigate();
  const [page, setPage] = usePage();
  const filters: RecordingFilters = Object.fromEntries(FILTER_NAMES.map((n) => [n, search[n] || undefined]).filter(([, v]) => v));
  const setFilter = (patch: RecordingFilters) =>
    void navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, page: undefined, ...patch }), replace: true });
  const clear = () => void navigate({ to: '.', search: {}, replace: true });
  const filtered = Object.keys(filters).length > 0;
  const list = useQuery(replayQueries.list(projectId, filters, page, PAGE_SIZE));
  // Nothing recorded yet: is recording on? (On: wait for the first sessions; off: how to turn it on.)
  const settings = useQuery({ ...replayQueries.settings(projectId), enabled: !filtered && list.data?.count === 0, retry: false });

  return (
    <>
      <PageHeader
        title="Replays"
        description="Recordings of what people did in your app: their clicks, typing and pages, beside their events and errors."
        actions={
          <Button component={Link} to={`/project/${projectId}/settings/project`} hash="session-replay" variant="default">
            Recording settings
          </Button>
        }
      />
      <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
        <TextFilter
          label="Person"
          placeholder="Distinct id"
          value={filters.distinct_id ?? ''}
          onChange={(v) => setFilter({ distinct_id: v || undefined })}
          width={180}
        />
        <NativeSelect
          label="When"
          data={DATES}
          value={filters.date_from ?? ''}
          onChange={(e) => setFilter({ date_from: e.currentTarget.value || undefined })}
          w={140}
        />
        <NativeSelect
          label="Duration"
          data={DURATIONS}
          value={filters.duration_min ?? ''}
          onChange={(e) => setFilter({ duration_min: e.currentTarget.value || undefined })}
          w={140}
        />
        <TextFilter
          label="Visited URL"
          placeholder="Part of an address"
          value={filters.url ?? ''}
          onChange={(v) => setFilter({ url: v || undefined })}
          width={220}
        />
        <Checkbox
          label="With errors"
          checked={filters.has_errors === 'true'}
          onChange={(e) => setFilter({ has_errors: e.currentTarget.checked ? 'true' : undefined })}
          mb={8}
        />
        {filtered && (
          <Button variant="subtle" onClick={clear}>
            Clear filters
          </Button>
        )}
      </Group>
      {(filters.person_id || filters.flag) && (
        <Group gap="xs" mb="md">
          {filters.person_id && (
            <Badge
              variant="light"
              size="lg"
              rightSection={<CloseButton size="xs" aria-label="Remove the person filter" onClick={() => setFilter({ person_id: undefined })} />}
            >
              Person {filters.person_id.length > 12 ? `${filters.person_id.slice(0, 8)}…` : filters.person_id}
            </Badge>
          )}
          {filters.flag && (
            <Badge
              variant="light"
              size="lg"
              color="grape"
              rightSection={<CloseButton size="xs" aria-label="Remove the flag filter" onClick={() => setFilter({ flag: undefined, variant: undefined })} />}
            >
              Flag {filters.flag}
              {filters.variant ? ` = ${filters.variant}` : ''}
            </Badge>
          )}
        </Group>
      )}
      {list.isPending ? (
        <ListSkeleton rows={5} height={44} />
      ) : list.error ? (
        <ErrorState
          error={list.error}
          retry={() => list.refetch()}
          title="Could not load the recordings"
          missingApi="Replays need the session recordings API."
        />
      ) : list.data.results.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No recording matches these filters"
            action={
              <Button variant="default" onClick={clear}>
                Clear filters
              </Button>
            }
          >
            Try a longer time range or fewer filters.
          </EmptyState>
        ) : settings.data?.enabled ? (
          <EmptyState
            title="No recordings yet"
            action={
              <Button component={Link} to={`/project/${projectId}/settings/project`} hash="session-replay" variant="default">
                Recording settings
              </Button>
            }
          >
            Recording is on: a session shows up here a few seconds after someone opens a page of your app with the client installed
            {settings.data.sample_rate < 1 ? ` (${Math.round(settings.data.sample_rate * 100)}% of sessions are recorded)` : ''}.
          </EmptyState>
        ) : settings.isPending && settings.fetchStatus !== 'idle' ? (
          <ListSkeleton rows={2} height={80} />
        ) : (
          <EmptyState
            title="No recordings yet"
            action={
              <Button component={Link} to={`/project/${projectId}/settings/project`} hash="session-replay">
                Turn on recording
              </Button>
            }
          >
            Turn session recording on in the project settings: the client starts recording on its next page load, and sessions show up here within seconds.
            Inputs and passwords are always masked.
          </EmptyState>
        )
      ) : (
        <>
          <RecordingsTable projectId={projectId} recordings={list.data.results} dimmed={list.isPlaceholderData} />
          <ListFooter
            total={`${list.data.count} recording${list.data.count === 1 ? '' : 's'}`}
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
