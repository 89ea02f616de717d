import { Anchor, Badge, Button, Group, SegmentedControl, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useProjectId } from '../../api/hooks';
import type { Person } from '../../api/types';
import { timeAgo } from '../../components/format';
import { EmptyState, ErrorState } from '../../components/states';
import { PageHeader } from '../../components/page-header';
import { personQueries } from './api';
import { ListFooter, usePage } from '../../components/list';

const PAGE_SIZE = 50;

/** A property's text, when it is some. */
const textOf = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);

/** A person's name for people: email or name property, else the first distinct id. */
export const personLabel = (p: Person) => textOf(p.properties.email) ?? textOf(p.properties.name) ?? p.distinct_ids[0] ?? p.id;

export default function PersonsPage() {
  const projectId = useProjectId();
  const search = useSearch({ strict: false }) as Record<string, string | undefined>;
  const navigate = useNavigate();
  const by = search.by === 'property' ? 'property' : 'distinct_id';
  const [text, setText] = useState(search.q ?? '');
  const [page, setPage] = usePage();
  const set = (patch: Record<string, string | undefined>) =>
    navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, page: undefined, ...patch }), replace: true });
  const debounced = useDebouncedCallback((q: string) => set({ q: q || undefined }), 400);
  const q = search.q?.trim();
  const persons = useQuery(personQueries.list(projectId, { by, q }, page, PAGE_SIZE));
  return (
    <>
      <PageHeader title="People" description="Everyone your apps identified or saw, with their properties." />
      <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
        <TextInput
          label={by === 'distinct_id' ? 'Search by distinct ID' : 'Search by property value'}
          placeholder={by === 'distinct_id' ? 'user-123' : 'ada@example.com'}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            debounced(e.currentTarget.value);
          }}
          w={{ base: '100%', sm: 320 }}
          maxLength={400}
        />
        <SegmentedControl
          aria-label="Search in"
          data={[
            { value: 'distinct_id', label: 'Distinct ID' },
            { value: 'property', label: 'Properties' },
          ]}
          value={by}
          onChange={(v) => set({ by: v === 'property' ? 'property' : undefined })}
        />
        {q && (
          <Button
            variant="subtle"
            onClick={() => {
              setText('');
              set({ q: undefined });
            }}
          >
            Clear
          </Button>
        )}
      </Group>
      {persons.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} height={40} />
          ))}
        </Stack>
      ) : persons.error ? (
        <ErrorState
          error={persons.error}
          retry={() => persons.refetch()}
          title="Could not load people"
          missingApi={by === 'property' ? 'Searching properties needs the persons search parameter.' : undefined}
        />
      ) : persons.data.results.length === 0 ? (
        q ? (
          <EmptyState title="Nobody found">
            {by === 'distinct_id' ? 'Distinct ids match exactly. Try searching the properties instead.' : 'No person has a property with this value.'}
          </EmptyState>
        ) : (
          <EmptyState title="No people yet">
            A person appears when your app sends its first event, or calls <code>identify('user-123', {'{ email }'})</code>.
          </EmptyState>
        )
      ) : (
        <>
          <Table.ScrollContainer minWidth={360}>
            <Table highlightOnHover aria-label="People">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Person</Table.Th>
                  <Table.Th visibleFrom="sm">Distinct IDs</Table.Th>
                  <Table.Th>Identified</Table.Th>
                  <Table.Th>First seen</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: persons.isPlaceholderData ? 0.6 : 1 }}>
                {persons.data.results.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td className="wrap-anywhere" maw={320}>
                      <Anchor component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(p.distinct_ids[0] ?? p.id)}`} fw={600} size="sm">
                        {personLabel(p)}
                      </Anchor>
                      {textOf(p.properties.name) && textOf(p.properties.email) && (
                        <Text size="xs" c="dimmed">
                          {textOf(p.properties.name)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td className="wrap-anywhere" maw={320} visibleFrom="sm">
                      <Text size="sm" c="dimmed" lineClamp={2}>
                        {p.distinct_ids.join(', ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={p.is_identified ? 'green' : 'gray'}>
                        {p.is_identified ? 'Identified' : 'Anonymous'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{timeAgo(p.created_at)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListFooter
            total={`${persons.data.count} ${persons.data.count === 1 ? 'person' : 'people'}`}
            count={persons.data.count}
            pageSize={PAGE_SIZE}
            page={page}
            onChange={setPage}
          />
        </>
      )}
    </>
  );
}
