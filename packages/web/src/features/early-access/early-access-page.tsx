import { Badge, Card, SegmentedControl, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { STAGES, type EarlyAccessFeature, type Stage } from '../../api/types';
import { ActivityLog } from '../activity/activity-log';
import { confirm } from '../../components/confirm';
import { CopyCode } from '../../components/copy-code';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { PageHeader } from '../../components/page-header';
import { EnrollmentsPanel } from './enrollments-panel';
import { FeatureForm } from './feature-form';
import { confirmStageChange, STAGE_INFO } from './stages';
import { earlyAccessApi, earlyAccessQueries, featureSaved, featuresChanged } from './api';

export default function EarlyAccessPage() {
  const { featureId } = useParams({ strict: false }) as { featureId: string };
  const projectId = useProjectId();
  const { tab = 'people' } = useSearch({ strict: false }) as { tab?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const isNew = featureId === 'new';
  const feature = useQuery({ ...earlyAccessQueries.detail(projectId, featureId), enabled: !isNew });
  const trail = [{ label: 'Early access', to: `/project/${projectId}/early_access` }];
  const saved = (f: EarlyAccessFeature) => void featureSaved(queryClient, projectId, f);
  const move = useMutation({
    mutationFn: (stage: Stage) => earlyAccessApi.update(projectId, featureId, { stage }),
    onSuccess: (f) => {
      saved(f);
      toast({ message: `${f.name} moved to ${STAGE_INFO[f.stage].label}.` });
    },
    onError: (error) => toast({ color: 'red', title: 'Could not move the feature', message: describeError(error) }),
  });
  const remove = useMutation({
    mutationFn: () => earlyAccessApi.remove(projectId, featureId),
    onSuccess: async () => {
      await featuresChanged(queryClient, projectId);
      toast({ message: 'Deleted the early access feature. Its flag stays.' });
      await navigate({ to: `/project/${projectId}/early_access` });
    },
    onError: (error) => toast({ color: 'red', title: 'Could not delete', message: describeError(error) }),
  });

  if (isNew)
    return (
      <>
        <PageHeader title="New early access feature" trail={trail} />
        <FeatureForm
          projectId={projectId}
          onSave={async (body) => {
            const f = await earlyAccessApi.create(projectId, body);
            saved(f);
            toast({ message: `Created ${f.name}.` });
            await navigate({ to: `/project/${projectId}/early_access/${f.id}`, replace: true });
          }}
        />
      </>
    );
  if (feature.isPending) return <LoadingState />;
  if (feature.error)
    return (
      <>
        <PageHeader title="Early access feature" trail={trail} />
        <ErrorState error={feature.error} retry={() => feature.refetch()} title="Could not load this early access feature" />
      </>
    );
  const f = feature.data;
  const writable = canWrite(me.data);
  const setTab = (value: string | null) => navigate({ to: '.', search: { tab: value === 'people' ? undefined : (value ?? undefined) }, replace: true });
  return (
    <>
      <PageHeader
        title={f.name}
        trail={trail}
        description={f.description || undefined}
        actions={
          <Badge size="lg" variant="light" color={STAGE_INFO[f.stage].color}>
            {STAGE_INFO[f.stage].label}
          </Badge>
        }
      />
      <Stack gap="lg">
        {writable && (
          <Card withBorder padding="md">
            <Stack gap="xs">
              <Text size="sm" fw={600} id="move-stage">
                Move to stage
              </Text>
              <SegmentedControl
                aria-labelledby="move-stage"
                data={STAGES.map((s) => ({ value: s, label: STAGE_INFO[s].label }))}
                value={move.isPending ? move.variables : f.stage}
                onChange={async (v) => {
                  if (await confirmStageChange(f.name, f.stage, v as Stage)) move.mutate(v as Stage);
                }}
                disabled={move.isPending}
                fullWidth
                style={{ overflowX: 'auto' }}
              />
              <Text size="xs" c="dimmed">
                {STAGE_INFO[f.stage].help}
              </Text>
            </Stack>
          </Card>
        )}
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="people">People</Tabs.Tab>
            <Tabs.Tab value="settings">Settings</Tabs.Tab>
            <Tabs.Tab value="code">Code</Tabs.Tab>
            <Tabs.Tab value="history">History</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="people">
            <EnrollmentsPanel projectId={projectId} feature={f} writable={writable} />
          </Tabs.Panel>
          <Tabs.Panel value="settings">
            <FeatureForm
              key={f.id}
              projectId={projectId}
              feature={f}
              readOnly={!writable}
              onSave={async (body) => {
                saved(await earlyAccessApi.update(projectId, f.id, body));
                toast({ color: 'green', message: 'Saved.' });
              }}
              onDelete={async () => {
                const ok = await confirm({
                  title: `Delete ${f.name}?`,
                  message: `People can no longer opt in or out, and those who opted in lose the feature. Its flag ${f.feature_flag?.key ?? ''} stays, and so do the people's choices.`,
                  confirmLabel: 'Delete feature',
                  danger: true,
                });
                if (ok) await remove.mutateAsync();
                return ok;
              }}
            />
          </Tabs.Panel>
          <Tabs.Panel value="code">
            <Snippet feature={f} />
          </Tabs.Panel>
          <Tabs.Panel value="history">
            <ActivityLog projectId={projectId} scope="EarlyAccessFeature" itemId={f.id} noun="the feature" />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </>
  );
}

function Snippet({ feature }: { feature: EarlyAccessFeature }) {
  const key = feature.feature_flag?.key ?? 'your-flag-key';
  const stage = feature.stage === 'draft' || feature.stage === 'archived' ? 'beta' : feature.stage;
  const code = `import { ServiceFeature, useEarlyAccessFeatures } from 'service-js/react'

// The features people can opt in to (this one is in '${stage}').
export function EarlyAccessList() {
  const { features, enroll } = useEarlyAccessFeatures([${JSON.stringify(stage)}])
  return (
    <ul>
      {features.map((f) => (
        <li key={f.flagKey}>
          <button aria-pressed={f.enrolled} onClick={() => enroll(f.flagKey!, !f.enrolled)}>
            {f.action === 'register-interest' ? 'Register interest' : 'Try it'}: {f.name}
          </button>
        </li>
      ))}
    </ul>
  )
}

// ${feature.name.replace(/\s+/g, ' ').slice(0, 80)}: only for the people who opted in.
export function ${pascal(feature.name)}() {
  return (
    <ServiceFeature flag=${JSON.stringify(key)} fallback={null}>
      {(payload) => <div>{/* the new feature; payload is the flag's payload */}</div>}
    </ServiceFeature>
  )
}`;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Show it in your React app
      </Title>
      <Text size="sm" c="dimmed">
        With <code>service-js/react</code> and a <code>ServiceProvider</code> around your app (see Settings for the install snippet).
      </Text>
      <CopyCode code={code} label="Copy the React snippet" />
    </Stack>
  );
}

function pascal(name: string) {
  const words = name
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, 5);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(joined) ? joined.slice(0, 40) : `Feature${joined.slice(0, 40)}`;
}
