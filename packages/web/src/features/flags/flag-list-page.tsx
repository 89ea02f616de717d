import { Anchor, Badge, Button, Group, NativeSelect, Switch, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import type { FeatureFlag } from '../../api/types';
import { personQueries } from '../persons/api';
import { confirm } from '../../components/confirm';
import { describeError, EmptyState, ErrorState } from '../../components/states';
import { toast } from '../../components/toast';
import { PageHeader } from '../../components/page-header';
import { isMultivariate, rolloutSummary } from './flag-summary';
import { flagApi, flagQueries, flagsChanged } from './api';
import { ListSkeleton, Pager, usePage } from '../../components/list';

const PAGE_SIZE = 25;

export default function FlagListPage() {
  const projectId = useProjectId();
  const search = useSearch({ strict: false }) as Record<string, string | undefined>;
  const navigate = useNavigate();
  const me = useMe();
  const [page, setPage] = usePage();
  const [text, setText] = useState(search.search ?? '');
  const setSearch = (patch: Record<string, string | undefined>) =>
    navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, page: undefined, ...patch }), replace: true });
  // The list follows the box at once (one request a keystroke; a superseded one is aborted); the address follows it
  // 300 ms after the last keystroke, so typing does not rewrite the history on every letter.
  const [written, setWritten] = useState<string | null>(null);
  const writeSearch = (value: string) => {
    setWritten(value);
    void setSearch({ search: value || undefined });
  };
  const debounced = useDebouncedCallback(writeSearch, 300);
  // The address changed otherwise (a link, Clear filters, back): the box follows it.
  const [seen, setSeen] = useState(search.search ?? '');
  if ((search.search ?? '') !== seen) {
    setSeen(search.search ?? '');
    if ((search.search ?? '') !== written) setText(search.search ?? '');
  }
  const filters = { search: text || undefined, active: search.active, type: search.type, has_early_access: search.has_early_access };
  const list = useQuery(flagQueries.list(projectId, filters, page, PAGE_SIZE));
  const filtered = Object.values(filters).some(Boolean);
  const newButton = canWrite(me.data) && (
    <Button component={Link} to={`/project/${projectId}/feature_flags/new`}>
      New feature flag
    </Button>
  );

  return (
    <>
      <PageHeader title="Feature flags" description="Turn features on for some users, roll them out gradually, or show variants." actions={newButton} />
      <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Key or description"
          value={text}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setText(value);
            // Past page 1 the page number goes at once (a new search starts on page 1).
            if (page > 1) writeSearch(value);
            else debounced(value);
          }}
          w={{ base: '100%', sm: 280 }}
          maxLength={400}
        />
        <NativeSelect
          label="Status"
          w={150}
          data={[
            { value: '', label: 'Any' },
            { value: 'true', label: 'Active' },
            { value: 'false', label: 'Inactive' },
          ]}
          value={search.active ?? ''}
          onChange={(e) => setSearch({ active: e.currentTarget.value || undefined })}
        />
        <NativeSelect
          label="Type"
          w={170}
          data={[
            { value: '', label: 'Any' },
            { value: 'boolean', label: 'Boolean' },
            { value: 'multivariant', label: 'Multiple variants' },
          ]}
          value={search.type ?? ''}
          onChange={(e) => setSearch({ type: e.currentTarget.value || undefined })}
        />
        <NativeSelect
          label="Early access"
          w={170}
          data={[
            { value: '', label: 'Any' },
            { value: 'true', label: 'Has early access' },
            { value: 'false', label: 'No early access' },
          ]}
          value={search.has_early_access ?? ''}
          onChange={(e) => setSearch({ has_early_access: e.currentTarget.value || undefined })}
        />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setText('');
              void navigate({ to: '.', search: {}, replace: true });
            }}
          >
            Clear filters
          </Button>
        )}
      </Group>

      {list.isPending ? (
        <ListSkeleton rows={4} />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the feature flags" />
      ) : list.data.results.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No flag matches these filters"
            action={
              <Button
                variant="default"
                onClick={() => {
                  setText('');
                  void navigate({ to: '.', search: {} });
                }}
              >
                Clear filters
              </Button>
            }
          >
            Try another search, or clear the filters to see every flag.
          </EmptyState>
        ) : (
          <EmptyState
            title="No feature flags yet"
            action={
              // Not a second "New feature flag" next to the header's: two links of one name are one too many for a screen reader.
              canWrite(me.data) && (
                <Button component={Link} to={`/project/${projectId}/feature_flags/new`} variant="default">
                  Create your first flag
                </Button>
              )
            }
          >
            A feature flag decides, per user, whether a feature is on. Create one, then check it in your code with <code>useFeatureFlagEnabled('key')</code> or{' '}
            <code>isFeatureEnabled('key')</code>.
          </EmptyState>
        )
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table highlightOnHover verticalSpacing="sm" aria-label="Feature flags">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Release</Table.Th>
                  <Table.Th>Active</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
                {list.data.results.map((flag) => (
                  <FlagRow key={flag.id} flag={flag} projectId={projectId} editable={canWrite(me.data)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" mt="md">
            <Text size="sm" c="dimmed">
              {list.data.count} flag{list.data.count === 1 ? '' : 's'}
            </Text>
            <Pager count={list.data.count} pageSize={PAGE_SIZE} page={page} onChange={setPage} />
          </Group>
        </>
      )}
    </>
  );
}

function FlagRow({ flag, projectId, editable }: { flag: FeatureFlag; projectId: number; editable: boolean }) {
  const queryClient = useQueryClient();
  const groupTypes = useQuery(personQueries.groupTypes(projectId)).data?.results;
  const toggle = useMutation({
    mutationFn: (active: boolean) => flagApi.update(projectId, flag.id, { active }),
    onSuccess: (saved) => {
      toast({ message: `${saved.key} is now ${saved.active ? 'active' : 'inactive'}.` });
      void flagsChanged(queryClient, projectId);
    },
    onError: (error) => toast({ color: 'red', title: 'Could not change the flag', message: describeError(error) }),
  });
  return (
    <Table.Tr>
      <Table.Td style={{ maxWidth: 420 }}>
        <Anchor component={Link} to={`/project/${projectId}/feature_flags/${flag.id}`} fw={600} className="mono wrap-anywhere" size="sm">
          {flag.key}
        </Anchor>
        {flag.name && (
          <Text size="xs" c="dimmed" lineClamp={2} className="wrap-anywhere">
            {flag.name}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={isMultivariate(flag) ? 'grape' : 'gray'}>
          {isMultivariate(flag) ? `${flag.filters.multivariate!.variants.length} variants` : 'Boolean'}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{rolloutSummary(flag, groupTypes)}</Text>
      </Table.Td>
      <Table.Td>
        <Switch
          aria-label={`Active: ${flag.key}`}
          checked={toggle.isPending ? toggle.variables : flag.active}
          disabled={!editable || toggle.isPending}
          onChange={async (e) => {
            const active = e.currentTarget.checked;
            const ok =
              active ||
              (await confirm({
                title: `Turn off ${flag.key}?`,
                message: 'Everyone will get false until you turn it on again.',
                confirmLabel: 'Turn off',
                danger: true,
              }));
            if (ok) toggle.mutate(active);
          }}
        />
      </Table.Td>
    </Table.Tr>
  );
}
