import { Anchor, Badge, Button, Group, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { formatTime } from '../../components/format';
import { ListFooter, ListSkeleton, usePage } from '../../components/list';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState } from '../../components/states';
import { surveyQueries, SURVEYS_PAGE } from './api';
import { percent, STATUS_INFO, TYPE_INFO } from './labels';
import { Labelled } from './labelled';
import { TemplatesDialog } from './templates-dialog';
import type { Survey, SurveyStatus } from './types';
import './surveys.css';

const STATUSES = [
  { value: '', label: 'All' },
  { value: 'draft', label: 'Draft' },
  { value: 'running', label: 'Running' },
  { value: 'stopped', label: 'Stopped' },
];

/** A survey's responses in the list: how many sent it, and of how many shown it. */
function Responses({ projectId, survey }: { projectId: number; survey: Survey }) {
  const count = useQuery({ ...surveyQueries.responseCount(projectId, survey.id), enabled: survey.status !== 'draft' });
  if (survey.status === 'draft') return <Text c="dimmed">—</Text>;
  if (count.isPending) return <Text c="dimmed">…</Text>;
  if (count.error) return <Text c="dimmed">?</Text>;
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {count.data.sent.toLocaleString()}
      </Text>
      {count.data.shown > 0 && (
        <Text size="xs" c="dimmed">
          {percent(count.data.response_rate)} of {count.data.shown.toLocaleString()} shown
        </Text>
      )}
    </Stack>
  );
}

export default function SurveyListPage() {
  const projectId = useProjectId();
  const search = useSearch({ strict: false }) as { search?: string; status?: string; new?: string };
  const navigate = useNavigate();
  const me = useMe();
  const [page, setPage] = usePage();
  const [text, setText] = useState(search.search ?? '');
  const setSearch = (patch: Record<string, string | undefined>) =>
    navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, page: undefined, ...patch }), replace: true });
  const writeSearch = useDebouncedCallback((value: string) => void setSearch({ search: value || undefined }), 300);
  const status = STATUSES.some((s) => s.value === search.status) ? (search.status as SurveyStatus) : undefined;
  const filters = { search: text.trim() || undefined, status };
  const list = useQuery(surveyQueries.list(projectId, filters, page));
  const choosing = search.new === 'template';
  const setChoosing = (on: boolean) => void setSearch({ new: on ? 'template' : undefined });
  const newButton = canWrite(me.data) && <Button onClick={() => setChoosing(true)}>New survey</Button>;
  const filtered = Boolean(filters.search || filters.status);

  return (
    <>
      <PageHeader
        title="Surveys"
        description="Ask people in your product what they think: NPS, satisfaction, beta feedback. Answers arrive as events, and add up here."
        actions={newButton}
      />
      {(filtered || (list.data && list.data.count > 0)) && (
        <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Name"
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              writeSearch(e.currentTarget.value);
            }}
            w={{ base: '100%', sm: 280 }}
            maxLength={400}
          />
          <Labelled label="Status">
            {(id) => (
              <SegmentedControl aria-labelledby={id} data={STATUSES} value={status ?? ''} onChange={(v) => void setSearch({ status: v || undefined })} />
            )}
          </Labelled>
        </Group>
      )}
      {list.isPending ? (
        <ListSkeleton />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the surveys" missingApi="Surveys need the surveys API." />
      ) : list.data.results.length === 0 ? (
        filtered ? (
          <EmptyState title="No survey matches">Try another search or status.</EmptyState>
        ) : (
          <EmptyState title="No surveys yet" action={newButton}>
            A survey asks people a few questions inside your app: how likely they are to recommend you, how satisfied they are, what they think of a beta. Start
            from a template, preview it as people will see it, and launch it when it reads right.
          </EmptyState>
        )
      ) : (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label="Surveys" verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th w={150}>Type</Table.Th>
                  <Table.Th w={110}>Status</Table.Th>
                  <Table.Th w={160}>Responses</Table.Th>
                  <Table.Th w={220}>Started</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.results.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td className="wrap-anywhere">
                      <Anchor component={Link} to={`/project/${projectId}/surveys/${s.id}`} fw={600}>
                        {s.name}
                      </Anchor>
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {s.questions.length === 1 ? '1 question' : `${s.questions.length} questions`}
                        {s.description ? ` · ${s.description}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>{TYPE_INFO[s.type]?.label ?? s.type}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATUS_INFO[s.status].color}>
                        {STATUS_INFO[s.status].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Responses projectId={projectId} survey={s} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{s.start_date ? formatTime(s.start_date) : '—'}</Text>
                      {s.end_date && (
                        <Text size="xs" c="dimmed">
                          ended {formatTime(s.end_date)}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListFooter
            total={list.data.count === 1 ? '1 survey' : `${list.data.count} surveys`}
            count={list.data.count}
            pageSize={SURVEYS_PAGE}
            page={page}
            onChange={setPage}
          />
        </>
      )}
      <TemplatesDialog projectId={projectId} opened={choosing} onClose={() => setChoosing(false)} />
    </>
  );
}
