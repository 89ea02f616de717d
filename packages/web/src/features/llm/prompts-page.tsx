import { Anchor, Badge, Button, Group, Modal, Paper, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { timeAgo, formatTime } from '../../components/format';
import { ListFooter, ListSkeleton, usePage } from '../../components/list';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState } from '../../components/states';
import { toast } from '../../components/toast';
import { llmQueries, promptApi, promptsChanged } from './api';
import { TextFilter } from './filter-bar';
import { PromptForm } from './prompt-form';
import { LlmNav } from './section';

const PAGE_SIZE = 50;

export default function PromptsPage() {
  const projectId = useProjectId();
  const me = useMe();
  const search = (useSearch({ strict: false }) as { search?: string }).search ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [page, setPage] = usePage();
  const [creating, setCreating] = useState(false);
  const list = useQuery(llmQueries.prompts(projectId, search, page, PAGE_SIZE));
  const writable = canWrite(me.data);
  const newButton = writable && <Button onClick={() => setCreating(true)}>New prompt</Button>;
  return (
    <>
      <PageHeader
        title="Prompts"
        description="Prompts your code fetches by name and label (Prompts.get): a new version or a moved label ships without a deploy, as a flag change does."
        actions={newButton}
      />
      <LlmNav projectId={projectId} current="Prompts" />
      <Group mb="md">
        <TextFilter
          label="Search"
          placeholder="Part of a name"
          value={search}
          onChange={(v) => void navigate({ to: '.', search: v ? { search: v } : {}, replace: true })}
          width={240}
        />
      </Group>
      {list.isPending ? (
        <ListSkeleton rows={4} />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the prompts" missingApi="This page needs the LLM prompts API." />
      ) : list.data.results.length === 0 ? (
        search ? (
          <EmptyState title="No prompt matches">No prompt name contains “{search}”.</EmptyState>
        ) : (
          <EmptyState title="No prompts yet" action={newButton}>
            Keep your prompts here instead of in code: each change is a new version, and labels such as production say which version your app gets.
          </EmptyState>
        )
      ) : (
        <>
          <Paper withBorder>
            <Table.ScrollContainer minWidth={520}>
              <Table highlightOnHover verticalSpacing="sm" aria-label="Prompts">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th ta="right">Version</Table.Th>
                    <Table.Th>Labels</Table.Th>
                    <Table.Th>Updated</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
                  {list.data.results.map((p) => (
                    <Table.Tr key={p.id} className="row-link row-stretched">
                      <Table.Td>
                        <Anchor component={Link} to={`/project/${projectId}/llm/prompts/${p.id}`} fw={600} size="sm" className="stretched-link mono">
                          {p.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td ta="right">{p.version}</Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          {p.labels.map((l) => (
                            <Badge key={l.name} size="sm" variant="light">
                              {l.name} → v{l.version}
                            </Badge>
                          ))}
                        </Group>
                      </Table.Td>
                      <Table.Td title={formatTime(p.updated_at)}>
                        <Text size="sm">{timeAgo(p.updated_at)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
          <ListFooter
            total={`${list.data.count} prompt${list.data.count === 1 ? '' : 's'}`}
            count={list.data.count}
            pageSize={PAGE_SIZE}
            page={page}
            onChange={setPage}
          />
        </>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="New prompt" size="lg">
        <PromptForm
          withName
          submitLabel="Create prompt"
          onCancel={() => setCreating(false)}
          save={async (input) => {
            const created = await promptApi.create(projectId, input);
            setCreating(false);
            toast({ message: `Prompt ${created.name} created.` });
            void promptsChanged(queryClient, projectId);
            await navigate({ to: `/project/${projectId}/llm/prompts/${created.id}` });
          }}
        />
      </Modal>
    </>
  );
}
