import { Badge, Group, Tabs } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { confirm } from '../../components/confirm';
import { PageHeader } from '../../components/page-header';
import { describeError, EmptyState, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { ActivityLog } from '../activity/activity-log';
import { cohortApi, cohortQueries, cohortSaved, cohortsChanged } from './api';
import { cohortKind, KIND_COLOR, KIND_LABEL, toCohortDraft } from './cohort-draft';
import { CohortForm } from './cohort-form';
import { MembersPanel } from './members-panel';

/** `/project/:id/cohorts/:cohortId` (or `new`): a cohort's members, its settings and its history. */
export default function CohortPage() {
  const { cohortId } = useParams({ strict: false }) as { cohortId: string };
  const projectId = useProjectId();
  const { tab = 'people' } = useSearch({ strict: false }) as { tab?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const isNew = cohortId === 'new';
  const cohort = useQuery({ ...cohortQueries.detail(projectId, cohortId), enabled: !isNew });
  const trail = [{ label: 'Cohorts', to: `/project/${projectId}/cohorts` }];
  const remove = useMutation({
    mutationFn: () => cohortApi.remove(projectId, cohortId),
    onSuccess: async () => {
      toast({ message: `Deleted ${cohort.data?.name}.` });
      await cohortsChanged(queryClient, projectId);
      await navigate({ to: `/project/${projectId}/cohorts` });
    },
    // 409 names the flags and cohorts that use it.
    onError: (error) => toast({ color: 'red', title: 'Could not delete the cohort', message: describeError(error), autoClose: 10_000 }),
  });

  if (isNew)
    return (
      <>
        <PageHeader title="New cohort" trail={trail} />
        <CohortForm
          projectId={projectId}
          initial={toCohortDraft()}
          onSave={async (body, ids) => {
            const saved = await cohortApi.create(projectId, body, ids);
            void cohortSaved(queryClient, projectId, saved);
            toast({ message: `Created ${saved.name}: ${saved.count.toLocaleString()} ${saved.count === 1 ? 'person' : 'people'}.` });
            await navigate({ to: `/project/${projectId}/cohorts/${saved.id}`, replace: true });
          }}
        />
      </>
    );
  if (cohort.isPending) return <LoadingState label="Loading the cohort…" />;
  if (cohort.error)
    return (
      <>
        <PageHeader title="Cohort" trail={trail} />
        <ErrorState error={cohort.error} retry={() => cohort.refetch()} title="Could not load this cohort" />
      </>
    );
  const c = cohort.data;
  if (c.deleted)
    return (
      <>
        <PageHeader title={c.name} trail={trail} />
        <EmptyState title="This cohort was deleted">Flags can no longer target it.</EmptyState>
      </>
    );
  const kind = cohortKind(c);
  const writable = canWrite(me.data);
  const setTab = (value: string | null) => navigate({ to: '.', search: { tab: value === 'people' ? undefined : (value ?? undefined) }, replace: true });
  return (
    <>
      <PageHeader
        title={c.name}
        trail={trail}
        description={c.description || undefined}
        actions={
          <Group gap="xs">
            <Badge size="lg" variant="light" color={KIND_COLOR[kind]}>
              {KIND_LABEL[kind]}
            </Badge>
            <Badge size="lg" variant="outline" color="gray">
              {c.count.toLocaleString()} {c.count === 1 ? 'person' : 'people'}
            </Badge>
          </Group>
        }
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="people">People</Tabs.Tab>
          <Tabs.Tab value="settings">Settings</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="people">
          <MembersPanel projectId={projectId} cohort={c} writable={writable} />
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <CohortForm
            key={`${c.id}-${c.updated_at}`}
            projectId={projectId}
            cohortId={c.id}
            initial={toCohortDraft(c)}
            readOnly={!writable}
            onSave={async (body) => {
              const saved = await cohortApi.update(projectId, c.id, body);
              await cohortSaved(queryClient, projectId, saved);
              toast({ color: 'green', message: `Saved ${saved.name}.` });
            }}
            onDelete={async () => {
              const ok = await confirm({
                title: `Delete ${c.name}?`,
                message: 'Flags can no longer target it. A cohort that a flag or another cohort uses cannot be deleted: remove it from them first.',
                confirmLabel: 'Delete cohort',
                danger: true,
              });
              if (ok) await remove.mutateAsync();
              return ok;
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <ActivityLog projectId={projectId} scope="Cohort" itemId={String(c.id)} noun="the cohort" />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
