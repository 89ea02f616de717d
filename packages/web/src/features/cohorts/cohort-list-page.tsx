import { Anchor, Badge, Button, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { formatTime, timeAgo } from '../../components/format';
import { ListFooter, ListSkeleton, usePage } from '../../components/list';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState } from '../../components/states';
import { cohortQueries } from './api';
import { cohortKind, KIND_COLOR, KIND_LABEL } from './cohort-draft';

const PAGE_SIZE = 25;

/** `/project/:id/cohorts`: the project's cohorts, newest first, with their kind and how many people are in each. */
export default function CohortListPage() {
  const projectId = useProjectId();
  const me = useMe();
  const [page, setPage] = usePage();
  const list = useQuery(cohortQueries.list(projectId, page, PAGE_SIZE));
  const newButton = canWrite(me.data) && (
    <Button component={Link} to={`/project/${projectId}/cohorts/new`}>
      New cohort
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Cohorts"
        description="Saved groups of people: a list of distinct IDs, or everyone matching criteria on their properties and the events they did. Flags target them in their release conditions."
        actions={newButton}
      />
      {list.isPending ? (
        <ListSkeleton rows={4} />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the cohorts" />
      ) : list.data.results.length === 0 ? (
        <EmptyState
          title="No cohorts yet"
          action={
            canWrite(me.data) && (
              <Button component={Link} to={`/project/${projectId}/cohorts/new`} variant="default">
                Create your first cohort
              </Button>
            )
          }
        >
          A cohort is a group of people you can release a flag to: paste or upload their distinct IDs, or describe them (people on the pro plan, people who
          bought twice this month, people who got a flag's test variant).
        </EmptyState>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table highlightOnHover verticalSpacing="sm" aria-label="Cohorts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th ta="right">People</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
                {list.data.results.map((cohort) => {
                  const kind = cohortKind(cohort);
                  return (
                    <Table.Tr key={cohort.id}>
                      <Table.Td style={{ maxWidth: 420 }}>
                        <Anchor component={Link} to={`/project/${projectId}/cohorts/${cohort.id}`} fw={600} size="sm" className="wrap-anywhere">
                          {cohort.name}
                        </Anchor>
                        {cohort.description && (
                          <Text size="xs" c="dimmed" lineClamp={2} className="wrap-anywhere">
                            {cohort.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={KIND_COLOR[kind]}>
                          {KIND_LABEL[kind]}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                          {cohort.count.toLocaleString()}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" title={formatTime(cohort.created_at)}>
                          {timeAgo(cohort.created_at)}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListFooter
            total={`${list.data.count} cohort${list.data.count === 1 ? '' : 's'}`}
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
