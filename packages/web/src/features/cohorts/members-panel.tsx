import { Anchor, Badge, Button, Card, FileInput, Group, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { Cohort, CohortMember } from '../../api/types';
import { ListFooter, ListSkeleton } from '../../components/list';
import { describeError, EmptyState, ErrorState } from '../../components/states';
import { toast } from '../../components/toast';
import { cohortApi, cohortQueries, cohortSaved, type DistinctIds } from './api';
import { parseIds } from './cohort-draft';

const PAGE_SIZE = 50;

/** A member's name for people: the stored person's email or name, if any. */
const nameOf = (m: CohortMember) => {
  const p = m.properties as Record<string, unknown>;
  const name = p.email ?? p.name ?? p.$email;
  return typeof name === 'string' ? name : null;
};

/** A cohort's members, a page at a time, each a link to their person; a static cohort's ids are added and removed here too. */
export function MembersPanel({ projectId, cohort, writable }: { projectId: number; cohort: Cohort; writable: boolean }) {
  const [page, setPage] = useState(1);
  const members = useQuery(cohortQueries.members(projectId, String(cohort.id), page, PAGE_SIZE));
  return (
    <Stack gap="lg">
      {cohort.is_static && writable && <ChangeMembers projectId={projectId} cohort={cohort} />}
      {members.isPending ? (
        <ListSkeleton rows={5} height={36} />
      ) : members.error ? (
        <ErrorState error={members.error} retry={() => members.refetch()} title="Could not load the members" />
      ) : members.data.results.length === 0 ? (
        <EmptyState title="Nobody is in this cohort yet">
          {cohort.is_static
            ? 'Add distinct IDs above: people are members from the moment their ID is listed, seen yet or not.'
            : 'People join as soon as their properties or the events they do match its criteria.'}
        </EmptyState>
      ) : (
        <section aria-label="Members">
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs" aria-label="Members of the cohort">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Distinct ID</Table.Th>
                  <Table.Th>Email or name</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: members.isPlaceholderData ? 0.6 : 1 }}>
                {members.data.results.map((m) => (
                  <Table.Tr key={m.distinct_id}>
                    <Table.Td className="mono wrap-anywhere">
                      {m.person_id ? (
                        <Anchor component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(m.distinct_id)}`} size="sm">
                          {m.distinct_id}
                        </Anchor>
                      ) : (
                        <Group gap="xs">
                          <Text size="sm" className="mono">
                            {m.distinct_id}
                          </Text>
                          <Badge size="sm" variant="light" color="gray">
                            Not seen yet
                          </Badge>
                        </Group>
                      )}
                    </Table.Td>
                    <Table.Td className="wrap-anywhere">
                      <Text size="sm">{nameOf(m) ?? '—'}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListFooter
            total={`${members.data.count.toLocaleString()} ${members.data.count === 1 ? 'person' : 'people'}`}
            count={members.data.count}
            pageSize={PAGE_SIZE}
            page={page}
            onChange={setPage}
          />
        </section>
      )}
    </Stack>
  );
}

/** Adds or removes a static cohort's distinct ids: pasted, or from a CSV file. */
function ChangeMembers({ projectId, cohort }: { projectId: number; cohort: Cohort }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: async ({ add }: { add: boolean }) => {
      const ids: DistinctIds = file ? { csv: await file.text() } : { ids: parseIds(text) };
      return cohortApi.changeMembers(projectId, cohort.id, ids, add);
    },
    onSuccess: (saved, { add }) => {
      const before = cohort.count;
      void cohortSaved(queryClient, projectId, saved);
      toast({
        message: `${add ? 'Added' : 'Removed'} ${Math.abs(saved.count - before).toLocaleString()}: ${saved.count.toLocaleString()} in ${saved.name} now.`,
      });
      setText('');
      setFile(null);
    },
    onError: (e) => setError(describeError(e)),
  });
  const go = (add: boolean) => {
    setError(null);
    if (!file && parseIds(text).length === 0) return setError('Paste distinct IDs, or choose a CSV file.');
    change.mutate({ add });
  };
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Add or remove people
        </Title>
        <Group align="flex-start" gap="md" wrap="wrap">
          <Textarea
            label="Distinct IDs"
            description="One a line, or separated by commas."
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setError(null);
            }}
            disabled={file !== null}
            autosize
            minRows={3}
            maxRows={10}
            style={{ flex: '1 1 320px' }}
            classNames={{ input: 'mono' }}
          />
          <FileInput
            label="Or a CSV file"
            description="One ID a line, or a distinct_id column."
            accept=".csv,text/csv,text/plain"
            value={file}
            onChange={(f) => {
              setFile(f);
              setError(null);
            }}
            clearable
            w={260}
          />
        </Group>
        {error && (
          <Text c="red" size="sm" role="alert" className="wrap-anywhere">
            {error}
          </Text>
        )}
        <Group gap="sm">
          <Button onClick={() => go(true)} loading={change.isPending && change.variables?.add}>
            Add to cohort
          </Button>
          <Button variant="default" onClick={() => go(false)} loading={change.isPending && !change.variables?.add}>
            Remove from cohort
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
