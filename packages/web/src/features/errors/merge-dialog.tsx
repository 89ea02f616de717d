import { Badge, Button, Checkbox, Group, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { timeAgo } from '../../components/format';
import { describeError, EmptyState, ErrorState } from '../../components/states';
import { toast } from '../../components/toast';
import { STATUS_INFO, type ErrorIssue } from './types';
import { errorApi, errorQueries, issueMerged } from './api';

/** "Merge": pick other issues that are the same error; their fingerprints and occurrences move into this one. */
export default function MergeDialog({
  projectId,
  issue,
  opened,
  onClose,
  onMerged,
}: {
  projectId: number;
  issue: ErrorIssue;
  opened: boolean;
  onClose: () => void;
  onMerged: (i: ErrorIssue) => void;
}) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [ids, setIds] = useState<string[]>([]);
  const others = useQuery({ ...errorQueries.mergeCandidates(projectId, debounced), enabled: opened });
  const merge = useMutation({
    mutationFn: () => errorApi.merge(projectId, issue.id, ids),
    onSuccess: (merged) => {
      onMerged(merged);
      issueMerged(queryClient, projectId, issue.id);
      toast({ color: 'green', message: `Merged ${ids.length} issue${ids.length === 1 ? '' : 's'} into ${merged.name}.` });
      setIds([]);
      onClose();
    },
  });
  const candidates = (others.data?.results ?? []).filter((o) => o.id !== issue.id);
  return (
    <Modal opened={opened} onClose={() => onClose()} title="Merge issues into this one" size="lg">
      <Stack gap="md">
        <Text size="sm">
          Pick issues that are the same error as <b>{issue.name}</b>. Their occurrences and fingerprints move here (future occurrences too), and they are
          deleted.
        </Text>
        <TextInput label="Find issues" placeholder="Type or message" value={search} onChange={(e) => setSearch(e.currentTarget.value)} data-autofocus />
        {others.isPending ? (
          <Skeleton height={120} />
        ) : others.error ? (
          <ErrorState error={others.error} retry={() => others.refetch()} title="Could not load the issues" />
        ) : candidates.length === 0 ? (
          <EmptyState title="No other issue">{debounced ? 'Nothing matches this search.' : 'This is the only issue so far.'}</EmptyState>
        ) : (
          <Checkbox.Group label="Issues to merge" value={ids} onChange={setIds}>
            <Stack gap="xs" mt="xs" mah={320} style={{ overflowY: 'auto' }}>
              {candidates.map((o) => (
                <Checkbox
                  key={o.id}
                  value={o.id}
                  label={
                    <Group gap={6}>
                      <Text size="sm" fw={600} className="wrap-anywhere">
                        {o.name}
                      </Text>
                      <Badge size="xs" variant="light" color={STATUS_INFO[o.status].color}>
                        {STATUS_INFO[o.status].label}
                      </Badge>
                    </Group>
                  }
                  description={`${o.description ? `${o.description.slice(0, 120)} · ` : ''}${o.occurrences} occurrences · last ${timeAgo(o.last_seen)}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        {merge.error && (
          <Text size="sm" c="red" role="alert">
            {describeError(merge.error)}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose()}>
            Cancel
          </Button>
          <Button onClick={() => merge.mutate()} loading={merge.isPending} disabled={ids.length === 0}>
            {ids.length ? `Merge ${ids.length} issue${ids.length === 1 ? '' : 's'}` : 'Merge'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
