import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  JsonInput,
  Pagination,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, qs } from '../../api/client';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { STAGES, type EarlyAccessFeature, type Enrollments, type FeatureFlag, type Page, type Stage } from '../../api/types';
import { ActivityLog } from '../../components/activity-log';
import { EventCountsChart } from '../../components/chart';
import { CopyCode } from '../../components/copy-code';
import { useFormErrors } from '../../components/form-errors';
import { parseJson, timeAgo } from '../../components/format';
import { describeError, EmptyState, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { PageHeader } from '../page-header';
import { STAGE_INFO } from './stages';

export default function EarlyAccessPage() {
  const { featureId } = useParams({ strict: false }) as { featureId: string };
  const projectId = useProjectId();
  const { tab = 'people' } = useSearch({ strict: false }) as { tab?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const isNew = featureId === 'new';
  const base = `/api/projects/${projectId}/early_access_feature/`;
  const feature = useQuery({
    queryKey: ['early_access_feature', projectId, featureId],
    queryFn: () => api.get<EarlyAccessFeature>(`${base}${encodeURIComponent(featureId)}/`),
    enabled: !isNew,
  });
  const trail = [{ label: 'Early access', to: `/project/${projectId}/early_access` }];
  const saved = (f: EarlyAccessFeature) => {
    queryClient.setQueryData(['early_access_feature', projectId, f.id], f);
    void queryClient.invalidateQueries({ queryKey: ['early_access', projectId] });
  };
  const move = useMutation({
    mutationFn: (stage: Stage) => api.patch<EarlyAccessFeature>(`${base}${featureId}/`, { stage }),
    onSuccess: (f) => {
      saved(f);
      toast({ message: `${f.name} moved to ${STAGE_INFO[f.stage].label}.` });
    },
    onError: (error) => toast({ color: 'red', title: 'Could not move the feature', message: describeError(error) }),
  });
  const remove = useMutation({
    mutationFn: () => api.delete(`${base}${featureId}/`),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['early_access', projectId] });
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
            const f = await api.post<EarlyAccessFeature>(base, body);
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
        <Card withBorder padding="md">
          <Stack gap="xs">
            <Text size="sm" fw={600} id="move-stage">
              Move to stage
            </Text>
            <SegmentedControl
              aria-labelledby="move-stage"
              data={STAGES.map((s) => ({ value: s, label: STAGE_INFO[s].label }))}
              value={move.isPending ? move.variables : f.stage}
              onChange={(v) => move.mutate(v as Stage)}
              disabled={!writable || move.isPending}
              fullWidth
              style={{ overflowX: 'auto' }}
            />
            <Text size="xs" c="dimmed">
              {STAGE_INFO[f.stage].help}
            </Text>
          </Stack>
        </Card>
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
                saved(await api.patch<EarlyAccessFeature>(`${base}${f.id}/`, body));
                toast({ color: 'green', message: 'Saved.' });
              }}
              onDelete={() => {
                if (window.confirm(`Delete ${f.name}? Its feature flag stays, and so do the people's choices.`)) remove.mutate();
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

function FeatureForm({
  projectId,
  feature,
  onSave,
  onDelete,
  readOnly,
}: {
  projectId: number;
  feature?: EarlyAccessFeature;
  onSave: (body: Record<string, unknown>) => Promise<void>;
  onDelete?: () => void;
  readOnly?: boolean;
}) {
  const [name, setName] = useState(feature?.name ?? '');
  const [description, setDescription] = useState(feature?.description ?? '');
  const [stage, setStage] = useState<Stage>(feature?.stage ?? 'draft');
  const [docs, setDocs] = useState(feature?.documentation_url ?? '');
  const [flagId, setFlagId] = useState<string>('');
  const [payload, setPayload] = useState(feature?.payload ? JSON.stringify(feature.payload, null, 2) : '');
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors((attr) =>
    ['name', 'description', 'stage', 'documentation_url', 'payload'].includes(attr) ? attr : attr.startsWith('feature_flag') ? 'flag' : undefined,
  );
  const flags = useQuery({
    queryKey: ['feature_flags', projectId, 'all'],
    queryFn: () => api.get<Page<FeatureFlag>>(`/api/projects/${projectId}/feature_flags/?limit=500`),
    enabled: !feature,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    if (!name.trim()) return errors.set('name', 'Give the feature a name your users will understand.');
    if (docs.trim() && !/^https?:\/\/\S+$/i.test(docs.trim())) return errors.set('documentation_url', 'Enter a full link, starting with https://.');
    const parsed = parseJson(payload);
    if (parsed.error) return errors.set('payload', parsed.error);
    if (parsed.value !== undefined && (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)))
      return errors.set('payload', 'The payload must be a JSON object, like {"beta_banner": true}.');
    setBusy(true);
    try {
      await onSave({
        name: name.trim(),
        description,
        stage,
        documentation_url: docs.trim(),
        ...(parsed.value !== undefined || feature?.payload ? { payload: parsed.value ?? null } : {}),
        ...(feature ? {} : { feature_flag_id: flagId ? Number(flagId) : null }),
      });
    } catch (error) {
      errors.fromError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Card withBorder padding="lg">
          <Stack gap="md">
            {errors.general && (
              <Alert color="red" role="alert" className="wrap-anywhere">
                {errors.general}
              </Alert>
            )}
            <TextInput
              label="Name"
              description="Shown to your users in the opt-in list."
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.field('name')}
              maxLength={200}
              required
            />
            <Textarea
              label="Description"
              description="What the feature does, for your users."
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={errors.field('description')}
              autosize
              minRows={2}
              maxRows={10}
              maxLength={100_000}
            />
            <Select
              label="Stage"
              data={STAGES.map((s) => ({ value: s, label: STAGE_INFO[s].label }))}
              value={stage}
              onChange={(v) => v && setStage(v as Stage)}
              description={STAGE_INFO[stage].help}
              error={errors.field('stage')}
              allowDeselect={false}
              w={{ base: '100%', sm: 320 }}
            />
            <TextInput
              label="Documentation URL"
              placeholder="https://docs.example.com/new-feature"
              value={docs}
              onChange={(e) => setDocs(e.currentTarget.value)}
              error={errors.field('documentation_url')}
              maxLength={800}
            />
            {feature ? (
              <Text size="sm">
                Feature flag:{' '}
                {feature.feature_flag ? (
                  <Anchor component={Link} to={`/project/${projectId}/feature_flags/${feature.feature_flag.id}`} className="mono">
                    {feature.feature_flag.key}
                  </Anchor>
                ) : (
                  'none'
                )}
              </Text>
            ) : (
              <Select
                label="Feature flag"
                description="The flag that turns the feature on for the people who opt in."
                data={[
                  { value: '', label: 'Create a new flag named after the feature' },
                  ...(flags.data?.results ?? []).map((f) => ({ value: String(f.id), label: f.key })),
                ]}
                value={flagId}
                onChange={(v) => setFlagId(v ?? '')}
                searchable
                allowDeselect={false}
                error={errors.field('flag') ?? (flags.error ? describeError(flags.error) : undefined)}
                w={{ base: '100%', sm: 420 }}
              />
            )}
            <JsonInput
              label="Payload (JSON object, optional)"
              description="Extra data your app receives with the feature."
              placeholder='{"beta_banner": true}'
              value={payload}
              onChange={setPayload}
              error={errors.field('payload')}
              validationError="Not valid JSON"
              formatOnBlur
              autosize
              minRows={2}
              maxRows={12}
            />
            {!readOnly && (
              <Group justify="space-between">
                <Button type="submit" loading={busy}>
                  Save
                </Button>
                {onDelete && (
                  <Button variant="subtle" color="red" onClick={onDelete}>
                    Delete feature
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        </Card>
      </fieldset>
    </form>
  );
}

const PEOPLE_PAGE = 20;

function EnrollmentsPanel({ projectId, feature, writable }: { projectId: number; feature: EarlyAccessFeature; writable: boolean }) {
  const [filter, setFilter] = useState<'enrolled' | 'opted_out'>('enrolled');
  const [page, setPage] = useState(1);
  const [distinctId, setDistinctId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const path = `/api/projects/${projectId}/early_access_feature/${feature.id}/enrollments/`;
  const list = useQuery({
    queryKey: ['enrollments', projectId, feature.id, filter, page],
    queryFn: () => api.get<Enrollments>(`${path}${qs({ enrolled: filter === 'enrolled', limit: PEOPLE_PAGE, offset: (page - 1) * PEOPLE_PAGE })}`),
    placeholderData: keepPreviousData,
  });
  const change = useMutation({
    mutationFn: (body: { distinct_id: string; enrolled: boolean }) => api.post(path, body),
    onSuccess: (_data, body) => {
      toast({ message: `${body.distinct_id} is now ${body.enrolled ? 'opted in' : 'opted out'}.` });
      setDistinctId('');
      void queryClient.invalidateQueries({ queryKey: ['enrollments', projectId, feature.id] });
    },
    onError: (e) => setError(describeError(e)),
  });
  const submit = (enrolled: boolean) => {
    setError(null);
    if (!distinctId.trim()) return setError('Enter the distinct id of the person.');
    change.mutate({ distinct_id: distinctId.trim(), enrolled });
  };
  const counts = list.data?.counts;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2 }} maw={420}>
        <Card withBorder padding="sm">
          <Text size="xs" c="dimmed">
            Opted in
          </Text>
          <Text fz={28} fw={700}>
            {counts ? counts.enrolled : '—'}
          </Text>
        </Card>
        <Card withBorder padding="sm">
          <Text size="xs" c="dimmed">
            Opted out
          </Text>
          <Text fz={28} fw={700}>
            {counts ? counts.opted_out : '—'}
          </Text>
        </Card>
      </SimpleGrid>
      {feature.feature_flag && (
        <EventCountsChart
          projectId={projectId}
          title="Opt-ins and opt-outs per day, last 30 days"
          event="$feature_enrollment_update"
          breakdown="$feature_enrollment"
          where={{ $feature_flag: feature.feature_flag.key }}
          labelOf={(v) => (v === 'true' ? 'Opted in' : v === 'false' ? 'Opted out' : String(v))}
          empty="Nobody opted in or out in the last 30 days. People opt in from your app (the Code tab shows how); each choice is counted here."
        />
      )}
      {writable && (
        <Card withBorder padding="md">
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label="Opt a person in or out"
              description="On their behalf, by distinct id. Their own choice later wins."
              placeholder="user-123"
              value={distinctId}
              onChange={(e) => setDistinctId(e.currentTarget.value)}
              error={error}
              w={{ base: '100%', sm: 320 }}
              maxLength={400}
            />
            <Group mt={{ base: 0, sm: 46 }} gap="xs">
              <Button onClick={() => submit(true)} loading={change.isPending && change.variables?.enrolled === true}>
                Opt in
              </Button>
              <Button variant="default" onClick={() => submit(false)} loading={change.isPending && change.variables?.enrolled === false}>
                Opt out
              </Button>
            </Group>
          </Group>
        </Card>
      )}
      <SegmentedControl
        w={260}
        data={[
          { value: 'enrolled', label: 'Opted in' },
          { value: 'opted_out', label: 'Opted out' },
        ]}
        value={filter}
        onChange={(v) => {
          setFilter(v as 'enrolled' | 'opted_out');
          setPage(1);
        }}
        aria-label="Show people who"
      />
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState
          error={list.error}
          retry={() => list.refetch()}
          title="Could not load the people"
          missingApi="The list of people needs the enrollments endpoint."
        />
      ) : list.data.results.length === 0 ? (
        <EmptyState title={filter === 'enrolled' ? 'Nobody opted in yet' : 'Nobody opted out'}>
          People opt in from your app (see the Code tab), or you can opt someone in above.
        </EmptyState>
      ) : (
        <div>
          <Table.ScrollContainer minWidth={500}>
            <Table aria-label={filter === 'enrolled' ? 'People who opted in' : 'People who opted out'}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Person</Table.Th>
                  <Table.Th>Stage when they chose</Table.Th>
                  <Table.Th>When</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.results.map((e) => (
                  <Table.Tr key={`${e.distinct_id}-${e.group_key ?? ''}`}>
                    <Table.Td className="wrap-anywhere">
                      <Anchor component={Link} to={`/project/${projectId}/persons/${encodeURIComponent(e.distinct_id)}`} size="sm">
                        {e.group_key ? `${e.group_type}: ${e.group_key}` : e.distinct_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{e.stage ?? '—'}</Table.Td>
                    <Table.Td>{timeAgo(e.updated_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.data.count > PEOPLE_PAGE && (
            <Group justify="space-between" mt="sm">
              <Text size="sm" c="dimmed">
                {list.data.count} people
              </Text>
              <Pagination
                total={Math.ceil(list.data.count / PEOPLE_PAGE)}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              />
            </Group>
          )}
        </div>
      )}
    </Stack>
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
