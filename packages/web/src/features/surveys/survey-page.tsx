import { Anchor, Badge, Button, Card, Code, Group, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { confirm } from '../../components/confirm';
import { formatTime } from '../../components/format';
import { PageHeader } from '../../components/page-header';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { earlyAccessQueries } from '../early-access/api';
import { flagQueries } from '../flags/api';
import { surveyApi, surveyArchived, surveyQueries, surveySaved } from './api';
import { SCHEDULES, STATUS_INFO, TYPE_INFO } from './labels';
import { SurveyBuilder } from './survey-builder';
import { toDraft } from './survey-draft';
import { SurveyResultsPanel } from './survey-results';
import { fromTemplate } from './templates';
import type { Survey } from './types';

/** Asks before launching: from now on, people who match see it. */
const confirmLaunch = (name: string) =>
  confirm({
    title: `Launch ${name}?`,
    message: 'From now on, people who match its conditions see it in your app, and their answers arrive here.',
    confirmLabel: 'Launch survey',
  });

export default function SurveyPage() {
  const { surveyId } = useParams({ strict: false }) as { surveyId: string };
  return surveyId === 'new' ? <NewSurvey /> : <ExistingSurvey surveyId={surveyId} />;
}

function NewSurvey() {
  const projectId = useProjectId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const search = useSearch({ strict: false }) as { template?: string; feature?: string };
  const features = useQuery({ ...earlyAccessQueries.list(projectId), enabled: Boolean(search.feature) });
  const trail = [{ label: 'Surveys', to: `/project/${projectId}/surveys` }];
  if (search.feature && features.isPending) return <LoadingState label="Loading the early access feature…" />;
  const feature = features.data?.results.find((f) => f.id === search.feature);
  const initial = fromTemplate(search.template, feature);
  return (
    <>
      <PageHeader
        title="New survey"
        trail={trail}
        description="Write the questions, choose when they show and to whom; the preview shows what people will see."
      />
      <SurveyBuilder
        key={`${search.template}-${search.feature}`}
        projectId={projectId}
        initial={initial}
        onSave={async (body, launch) => {
          if (launch && !(await confirmLaunch(String(body.name)))) return false;
          let survey = await surveyApi.create(projectId, body);
          if (launch) survey = await surveyApi.launch(projectId, survey.id);
          surveySaved(queryClient, projectId, survey);
          toast({ message: launch ? `${survey.name} is running.` : `Saved ${survey.name} as a draft.` });
          await navigate({ to: `/project/${projectId}/surveys/${survey.id}`, replace: true });
        }}
      />
    </>
  );
}

function ExistingSurvey({ surveyId }: { surveyId: string }) {
  const projectId = useProjectId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const search = useSearch({ strict: false }) as { tab?: string };
  const survey = useQuery(surveyQueries.detail(projectId, surveyId));
  const trail = [{ label: 'Surveys', to: `/project/${projectId}/surveys` }];
  const [version, setVersion] = useState(0);
  const saved = (s: Survey) => surveySaved(queryClient, projectId, s);
  const act = useMutation({
    mutationFn: (action: 'launch' | 'stop') => surveyApi[action](projectId, surveyId),
    onSuccess: (s) => {
      saved(s);
      toast({ message: s.status === 'running' ? `${s.name} is running.` : `${s.name} is stopped: nobody is shown it any more.` });
    },
    onError: (error) => toast({ color: 'red', title: 'Could not change the survey', message: describeError(error) }),
  });
  const archive = useMutation({
    mutationFn: () => surveyApi.archive(projectId, surveyId),
    onSuccess: async () => {
      toast({ message: 'Survey archived.' });
      await navigate({ to: `/project/${projectId}/surveys` });
      void surveyArchived(queryClient, projectId, surveyId);
    },
    onError: (error) => toast({ color: 'red', title: 'Could not archive the survey', message: describeError(error) }),
  });

  if (survey.isPending) return <LoadingState label="Loading the survey…" />;
  if (survey.error)
    return (
      <>
        <PageHeader title="Survey" trail={trail} />
        <ErrorState error={survey.error} retry={() => survey.refetch()} title="Could not load this survey" missingApi="Surveys need the surveys API." />
      </>
    );
  const s = survey.data;
  const writable = canWrite(me.data);
  const status = STATUS_INFO[s.status];
  const tab = search.tab ?? (s.status === 'draft' ? 'edit' : 'results');
  const setTab = (value: string | null) =>
    void navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, tab: value ?? undefined }), replace: true });
  const launch = async () => {
    if (await confirmLaunch(s.name)) act.mutate('launch');
  };
  return (
    <>
      <PageHeader
        title={s.name}
        trail={trail}
        description={s.description || undefined}
        actions={
          <>
            <Badge size="lg" variant="light" color={status.color}>
              {status.label}
            </Badge>
            {writable && s.status === 'draft' && (
              <Button onClick={launch} loading={act.isPending}>
                Launch
              </Button>
            )}
            {writable && s.status === 'running' && (
              <Button
                variant="default"
                loading={act.isPending}
                onClick={async () => {
                  const ok = await confirm({
                    title: `Stop ${s.name}?`,
                    message: 'Nobody is shown it any more. Its results stay; answers that still arrive are kept and shown as late.',
                    confirmLabel: 'Stop survey',
                    danger: true,
                  });
                  if (ok) act.mutate('stop');
                }}
              >
                Stop
              </Button>
            )}
            {writable && (
              <Button
                variant="subtle"
                color="red"
                loading={archive.isPending}
                onClick={async () => {
                  const ok = await confirm({
                    title: `Archive ${s.name}?`,
                    message: 'It stops showing and leaves the list. Its answers stay in your events.',
                    confirmLabel: 'Archive survey',
                    danger: true,
                  });
                  if (ok) archive.mutate();
                }}
              >
                Archive
              </Button>
            )}
          </>
        }
      />
      <Stack gap="lg">
        <Overview projectId={projectId} survey={s} />
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List mb="lg">
            <Tabs.Tab value="results">Results</Tabs.Tab>
            <Tabs.Tab value="edit">{writable ? 'Questions and settings' : 'Questions'}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="results">
            <SurveyResultsPanel projectId={projectId} survey={s} onLaunch={writable && s.status === 'draft' ? launch : undefined} />
          </Tabs.Panel>
          <Tabs.Panel value="edit">
            <fieldset disabled={!writable} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
              <SurveyBuilder
                key={`${s.id}-${version}`}
                projectId={projectId}
                initial={toDraft(s)}
                status={s.status}
                onSave={async (body, andLaunch) => {
                  if (andLaunch && !(await confirmLaunch(String(body.name)))) return false;
                  let next = await surveyApi.update(projectId, s.id, body);
                  if (andLaunch) next = await surveyApi.launch(projectId, s.id);
                  saved(next);
                  setVersion((v) => v + 1);
                  toast({ message: andLaunch ? `${next.name} is running.` : `Saved ${next.name}.` });
                  if (andLaunch) setTab('results');
                }}
              />
            </fieldset>
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </>
  );
}

/** What the survey is and does, at a glance: its type and schedule, its dates, and the flags that decide who sees it. */
function Overview({ projectId, survey: s }: { projectId: number; survey: Survey }) {
  const flags = useQuery({ ...flagQueries.all(projectId), enabled: Boolean(s.linked_flag_key) });
  const linked = flags.data?.results.find((f) => f.key === s.linked_flag_key);
  const schedule = SCHEDULES.find((x) => x.value === (s.schedule ?? 'once'));
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      <Card withBorder padding="md">
        <Text size="xs" c="dimmed">
          {TYPE_INFO[s.type]?.label ?? s.type} · {s.questions.length === 1 ? '1 question' : `${s.questions.length} questions`}
        </Text>
        <Text size="sm">
          {schedule?.label ?? s.schedule}
          {s.schedule === 'recurring' && s.iteration_count
            ? `: ${s.iteration_count} rounds every ${s.iteration_frequency_days} days${s.current_iteration ? ` (round ${s.current_iteration} now)` : ''}`
            : ''}
          {s.responses_limit ? ` · stops at ${s.responses_limit.toLocaleString()} responses` : ''}
        </Text>
        <Text size="xs" c="dimmed" mt="xs">
          {s.start_date ? `Started ${formatTime(s.start_date)}` : STATUS_INFO[s.status].help}
          {s.end_date ? `, ended ${formatTime(s.end_date)}` : ''}
        </Text>
      </Card>
      <Card withBorder padding="md" component="section" aria-label="Flags of the survey">
        <Text size="xs" c="dimmed">
          Who sees it (flags the survey keeps, read only)
        </Text>
        <Stack gap={2} mt={2}>
          <FlagLine label="Targeting" flagKey={s.targeting_flag?.key ?? s.targeting_flag_key} help="On for the people it targets, while it runs." />
          <FlagLine
            label="Not yet answered"
            flagKey={s.internal_targeting_flag?.key ?? s.internal_targeting_flag_key}
            help="Off for people who answered or dismissed it."
          />
        </Stack>
      </Card>
      <Card withBorder padding="md">
        <Text size="xs" c="dimmed">
          Linked feature flag
        </Text>
        {s.linked_flag_key ? (
          linked ? (
            <Anchor component={Link} to={`/project/${projectId}/feature_flags/${linked.id}`} className="mono wrap-anywhere" size="sm">
              {s.linked_flag_key}
            </Anchor>
          ) : (
            <Text size="sm" className="mono wrap-anywhere">
              {s.linked_flag_key}
            </Text>
          )
        ) : (
          <Text size="sm" c="dimmed">
            None: anyone matching its conditions.
          </Text>
        )}
        {s.conditions?.linkedFlagVariant && (
          <Text size="xs" c="dimmed">
            variant <code>{s.conditions.linkedFlagVariant}</code> only
          </Text>
        )}
        {s.linked_early_access_feature_id && (
          <Anchor component={Link} to={`/project/${projectId}/early_access/${s.linked_early_access_feature_id}`} size="xs" mt="xs" display="block">
            Beta feedback of an early access feature
          </Anchor>
        )}
      </Card>
    </SimpleGrid>
  );
}

function FlagLine({ label, flagKey, help }: { label: string; flagKey: string | null; help: string }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline" title={help}>
      <Text size="xs" c="dimmed" w={110} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      {flagKey ? (
        <Code className="wrap-anywhere" aria-label={`${label} flag: ${flagKey}. ${help}`}>
          {flagKey}
        </Code>
      ) : (
        <Text size="xs" c="dimmed">
          made when saved
        </Text>
      )}
    </Group>
  );
}
