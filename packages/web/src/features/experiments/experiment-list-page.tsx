import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { formatTime } from '../../components/format';
import { EmptyState, ErrorState } from '../../components/states';
import { PageHeader } from '../../components/page-header';
import { metricLabel, STATUS_INFO } from './types';
import { experimentQueries, EXPERIMENTS_PAGE } from './api';
import { ListSkeleton, Pager, usePage } from '../../components/list';

export default function ExperimentListPage() {
  const projectId = useProjectId();
  const me = useMe();
  const [page, setPage] = usePage();
  const list = useQuery(experimentQueries.list(projectId, page, EXPERIMENTS_PAGE));
  const newButton = canWrite(me.data) && (
    <Button component={Link} to={`/project/${projectId}/experiments/new`}>
      New experiment
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Experiments"
        description="A/B tests on a multivariate flag: who saw which variant, what they did next, and whether the difference is real."
        actions={newButton}
      />
      {list.isPending ? (
        <ListSkeleton />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the experiments" missingApi="Experiments need the experiments API." />
      ) : list.data.results.length === 0 ? (
        <EmptyState title="No experiments yet" action={newButton}>
          An experiment splits the people who reach a feature between a control and one or more variants, and compares what they do next (a conversion, or a
          mean per person). Create one, read its variant in your app with <code>useFeatureFlagVariantKey('key')</code>, then watch the results here.
        </EmptyState>
      ) : (
        <Stack gap="md">
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label="Experiments" verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Feature flag</Table.Th>
                  <Table.Th w={120}>Status</Table.Th>
                  <Table.Th>Primary metric</Table.Th>
                  <Table.Th>Variants</Table.Th>
                  <Table.Th>Started</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.results.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td className="wrap-anywhere">
                      <Anchor component={Link} to={`/project/${projectId}/experiments/${e.id}`} fw={600}>
                        {e.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td className="mono wrap-anywhere">{e.feature_flag_key}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATUS_INFO[e.status].color}>
                        {STATUS_INFO[e.status].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td className="wrap-anywhere">
                      {e.metrics[0] ? (
                        metricLabel(e.metrics[0])
                      ) : (
                        <Text span c="dimmed" size="sm">
                          none yet
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{e.variants.map((v) => `${v.key} ${v.rollout_percentage} %`).join(' · ')}</Table.Td>
                    <Table.Td>{e.start_date ? formatTime(e.start_date) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.data.count > EXPERIMENTS_PAGE && (
            <Group justify="center">
              <Pager count={list.data.count} pageSize={EXPERIMENTS_PAGE} page={page} onChange={setPage} />
            </Group>
          )}
        </Stack>
      )}
    </>
  );
}
