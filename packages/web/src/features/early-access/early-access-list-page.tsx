import { Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { STAGES } from '../../api/types';
import { EmptyState, ErrorState } from '../../components/states';
import { PageHeader } from '../../components/page-header';
import { STAGE_INFO } from './stages';
import { earlyAccessQueries } from './api';
import { useQuery } from '@tanstack/react-query';

export default function EarlyAccessListPage() {
  const projectId = useProjectId();
  const me = useMe();
  const list = useQuery(earlyAccessQueries.list(projectId));
  const newButton = canWrite(me.data) && (
    <Button component={Link} to={`/project/${projectId}/early_access/new`}>
      New early access feature
    </Button>
  );
  return (
    <>
      <PageHeader title="Early access" description="Let users opt in to features before everyone gets them, stage by stage." actions={newButton} />
      {list.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={120} />
          ))}
        </SimpleGrid>
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the early access features" />
      ) : list.data.results.length === 0 ? (
        <EmptyState title="No early access features yet" action={newButton}>
          An early access feature is a flag your users can opt in to themselves, from a page in your app. Create one, then show it with{' '}
          <code>useEarlyAccessFeatures()</code>.
        </EmptyState>
      ) : (
        <Stack gap="xl">
          {STAGES.map((stage) => {
            const features = list.data.results.filter((f) => f.stage === stage);
            if (features.length === 0) return null;
            return (
              <section key={stage} aria-labelledby={`stage-${stage}`}>
                <Group gap="xs" mb="sm">
                  <Title order={2} size="h4" id={`stage-${stage}`}>
                    {STAGE_INFO[stage].label}
                  </Title>
                  <Badge variant="light" color="gray" circle>
                    {features.length}
                  </Badge>
                  <Text size="sm" c="dimmed">
                    {STAGE_INFO[stage].help}
                  </Text>
                </Group>
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                  {features.map((f) => (
                    <Card key={f.id} withBorder padding="md">
                      <Stack gap={6}>
                        <Anchor component={Link} to={`/project/${projectId}/early_access/${f.id}`} fw={600} className="wrap-anywhere">
                          {f.name}
                        </Anchor>
                        <Text size="sm" c="dimmed" lineClamp={3} className="wrap-anywhere">
                          {f.description || 'No description.'}
                        </Text>
                        <Group gap="xs">
                          <Badge variant="light" color={STAGE_INFO[f.stage].color}>
                            {STAGE_INFO[f.stage].label}
                          </Badge>
                          {f.feature_flag && (
                            <Text size="xs" c="dimmed" className="mono wrap-anywhere">
                              {f.feature_flag.key}
                            </Text>
                          )}
                        </Group>
                      </Stack>
                    </Card>
                  ))}
                </SimpleGrid>
              </section>
            );
          })}
        </Stack>
      )}
    </>
  );
}
