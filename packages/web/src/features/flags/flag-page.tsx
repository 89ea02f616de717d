import { Anchor, Badge, Button, Card, Code, Group, JsonInput, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { canWrite, useMe, useProject, useProjectId } from '../../api/hooks';
import type { FeatureFlag, FeatureFlagDetail, FlagUse } from '../../api/types';
import { ActivityLog } from '../activity/activity-log';
import { EventCountsChart } from '../../components/chart';
import { confirm } from '../../components/confirm';
import { parseJson } from '../../components/format';
import { describeError, EmptyState, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { PageHeader } from '../../components/page-header';
import { toDraft } from './flag-draft';
import { FlagForm } from './flag-form';
import { reasonInWords } from './reason';
import { isMultivariate } from './flag-summary';
import { flagApi, flagQueries, flagSaved, flagsChanged } from './api';
import { ScheduledChanges } from './scheduled-changes';

export default function FlagPage() {
  const { flagId } = useParams({ strict: false }) as { flagId: string };
  const projectId = useProjectId();
  const { tab = 'overview' } = useSearch({ strict: false }) as { tab?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const isNew = flagId === 'new';
  const flag = useQuery({ ...flagQueries.detail(projectId, flagId), enabled: !isNew });
  const trail = [{ label: 'Feature flags', to: `/project/${projectId}/feature_flags` }];

  const remove = useMutation({
    mutationFn: () => flagApi.remove(projectId, flagId),
    onSuccess: async () => {
      toast({ message: `Deleted ${flag.data?.key}.` });
      await flagsChanged(queryClient, projectId);
      await navigate({ to: `/project/${projectId}/feature_flags` });
    },
    onError: (error) => toast({ color: 'red', title: 'Could not delete the flag', message: describeError(error) }),
  });

  if (isNew)
    return (
      <>
        <PageHeader title="New feature flag" trail={trail} />
        <FlagForm
          projectId={projectId}
          initial={toDraft()}
          onSave={async (body) => {
            const saved = await flagApi.create(projectId, body);
            toast({ message: `Created ${saved.key}.` });
            await flagsChanged(queryClient, projectId);
            await navigate({ to: `/project/${projectId}/feature_flags/${saved.id}`, replace: true });
          }}
        />
      </>
    );
  if (flag.isPending) return <LoadingState label="Loading the flag…" />;
  if (flag.error)
    return (
      <>
        <PageHeader title="Feature flag" trail={trail} />
        <ErrorState error={flag.error} retry={() => flag.refetch()} title="Could not load this feature flag" />
      </>
    );
  const f = flag.data;
  if (f.deleted)
    return (
      <>
        <PageHeader title={f.key} trail={trail} />
        <EmptyState title="This flag was deleted">It no longer answers for anyone. Create a new flag to use the key again.</EmptyState>
      </>
    );
  const setTab = (value: string | null) => navigate({ to: '.', search: { tab: value === 'overview' ? undefined : (value ?? undefined) }, replace: true });

  return (
    <>
      <PageHeader
        title={<span className="mono">{f.key}</span>}
        trail={trail}
        description={f.name || undefined}
        actions={
          <Badge size="lg" variant="light" color={f.active ? 'green' : 'gray'}>
            {f.active ? 'Active' : 'Inactive'}
          </Badge>
        }
      />
      <UsedBy projectId={projectId} flag={f} writable={canWrite(me.data)} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="overview">Settings</Tabs.Tab>
          <Tabs.Tab value="schedule">Schedule</Tabs.Tab>
          <Tabs.Tab value="test">Test a user</Tabs.Tab>
          <Tabs.Tab value="usage">Usage</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <FlagForm
            projectId={projectId}
            key={`${f.id}-${f.version}`}
            initial={toDraft(f)}
            readOnly={!canWrite(me.data)}
            onSave={async (body) => {
              const saved = await flagApi.update(projectId, f.id, body);
              await flagSaved(queryClient, projectId, flagId, saved);
              toast({ color: 'green', message: `Saved ${saved.key}.` });
            }}
            onDelete={async () => {
              const ok = await confirm({
                title: `Delete ${f.key}?`,
                message: 'Code that asks for it will get false (or its fallback).',
                confirmLabel: 'Delete flag',
                danger: true,
              });
              if (ok) await remove.mutateAsync();
              return ok;
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="schedule">
          <ScheduledChanges projectId={projectId} flag={f} writable={canWrite(me.data)} />
        </Tabs.Panel>
        <Tabs.Panel value="test">
          <TestUser flag={f} />
        </Tabs.Panel>
        <Tabs.Panel value="usage">
          <EventCountsChart
            projectId={projectId}
            title="Evaluations in the last 30 days, by value ($feature_flag_called)"
            event="$feature_flag_called"
            breakdown="$feature_flag_response"
            where={{ $feature_flag: f.key }}
            empty={`No evaluations in the last 30 days. Read the flag in your code (isFeatureEnabled('${f.key}') or useFeatureFlagEnabled('${f.key}')): the SDKs then send a $feature_flag_called event, which this chart counts by value.`}
          />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <ActivityLog projectId={projectId} scope="FeatureFlag" itemId={String(f.id)} noun="the flag" />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

const USE_LABEL: Record<FlagUse['type'], string> = { early_access_feature: 'Early access feature', experiment: 'Experiment', survey: 'Survey' };
const USE_PATH: Record<FlagUse['type'], string> = { early_access_feature: 'early_access', experiment: 'experiments', survey: 'surveys' };
const usePath = (projectId: number, use: FlagUse) => `/project/${projectId}/${USE_PATH[use.type]}/${encodeURIComponent(String(use.id))}`;

/**
 * What uses the flag (its early access feature, its experiments, the surveys it limits), each a link; for a
 * multivariate flag with a control variant and no open experiment, a way to start one from its variants and split.
 */
function UsedBy({ projectId, flag, writable }: { projectId: number; flag: FeatureFlagDetail; writable: boolean }) {
  const uses = flag.used_by ?? [];
  const open = uses.some((u) => u.type === 'experiment' && u.status !== 'complete');
  const canExperiment = writable && !open && isMultivariate(flag) && (flag.filters.multivariate?.variants ?? []).some((v) => v.key === 'control');
  if (!uses.length && !canExperiment) return null;
  return (
    <Card withBorder padding="sm" mb="lg" component="section" aria-label="Used by">
      <Group gap="lg" wrap="wrap" align="center">
        <Text size="sm" fw={600}>
          Used by
        </Text>
        {uses.length === 0 && (
          <Text size="sm" c="dimmed">
            Nothing yet
          </Text>
        )}
        {uses.map((use) => (
          <Group key={`${use.type}-${use.id}`} gap={6} wrap="nowrap">
            <Text size="sm" c="dimmed">
              {USE_LABEL[use.type]}
            </Text>
            <Anchor component={Link} to={usePath(projectId, use)} size="sm" className="wrap-anywhere">
              {use.name}
            </Anchor>
            <Badge size="sm" variant="light" color={use.status === 'running' ? 'blue' : use.status === 'complete' ? 'green' : 'gray'}>
              {use.status}
            </Badge>
          </Group>
        ))}
        {canExperiment && (
          <Button component={Link} to={`/project/${projectId}/experiments/new`} search={{ flag: String(flag.id) } as never} variant="light" size="xs" ml="auto">
            Start an experiment on this flag
          </Button>
        )}
      </Group>
    </Card>
  );
}

/** Evaluates the saved flag for one distinct id through `/flags?v=2`, as an SDK would, and says why. */
function TestUser({ flag }: { flag: FeatureFlag }) {
  const { project, isPending } = useProject();
  const [distinctId, setDistinctId] = useState('');
  const [props, setProps] = useState('');
  const [error, setError] = useState<string | null>(null);
  const evaluate = useMutation({
    mutationFn: async () => {
      const parsed = parseJson(props);
      if (parsed.error) throw new Error(`Person properties: ${parsed.error}`);
      if (parsed.value !== undefined && (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)))
        throw new Error('Person properties must be a JSON object.');
      const answer = await flagApi.evaluate({
        token: project!.api_token,
        distinct_id: distinctId.trim(),
        ...(parsed.value ? { person_properties: parsed.value } : {}),
      });
      return answer.flags?.[flag.key] ?? null;
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!distinctId.trim()) return setError('Enter the distinct id of a user.');
    evaluate.mutate();
  };
  const result = evaluate.data;
  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              See what a user gets from the saved version of this flag, and why. Stored person properties are used; you can add or override some.
            </Text>
            <Group align="flex-start" wrap="wrap">
              <TextInput
                label="Distinct ID"
                placeholder="user-123"
                value={distinctId}
                onChange={(e) => setDistinctId(e.currentTarget.value)}
                error={error}
                w={{ base: '100%', sm: 320 }}
                maxLength={400}
              />
              <JsonInput
                label="Person properties (JSON, optional)"
                placeholder='{"email": "ada@example.com"}'
                value={props}
                onChange={setProps}
                validationError="Not valid JSON"
                autosize
                minRows={1}
                maxRows={6}
                style={{ flex: '1 1 300px' }}
              />
            </Group>
            <Group>
              <Button type="submit" loading={evaluate.isPending || isPending} disabled={!project}>
                Evaluate
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      {evaluate.error && <ErrorState error={evaluate.error} title="Could not evaluate the flag" />}
      {evaluate.isSuccess &&
        (result ? (
          <Card withBorder padding="lg" aria-live="polite">
            <Stack gap="xs">
              <Group gap="sm">
                <Text fw={600}>Value</Text>
                <Badge size="lg" color={result.enabled ? 'green' : 'gray'} variant="light" className="mono">
                  {String(result.variant ?? result.enabled)}
                </Badge>
              </Group>
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <Text fw={600}>Reason</Text>
                <Text className="wrap-anywhere" title={result.reason.code}>
                  {reasonInWords(result)}
                </Text>
              </Group>
              {result.metadata?.payload != null && (
                <Stack gap={4}>
                  <Text fw={600}>Payload</Text>
                  <Code block className="wrap-anywhere">
                    {result.metadata.payload}
                  </Code>
                </Stack>
              )}
            </Stack>
          </Card>
        ) : (
          <EmptyState title="The flag was not in the answer">It may have been deleted or changed since this page loaded.</EmptyState>
        ))}
    </Stack>
  );
}
