import { Anchor, Button, Group, NativeSelect, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMembers, useProjectId } from '../../api/hooks';
import type { ActivityEntry } from '../../api/types';
import { ActivityTimeline, whoDid } from './activity-log';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { PageHeader } from '../../components/page-header';
import { activityQueries } from './api';

const PAGE = 50;

/** The kinds of things a project's log records: the word for one, and where its page is (none once it is deleted). */
const KINDS: Record<string, { label: string; noun: string; path: (id: string) => string }> = {
  FeatureFlag: { label: 'Feature flags', noun: 'feature flag', path: (id) => `feature_flags/${id}` },
  EarlyAccessFeature: { label: 'Early access features', noun: 'early access feature', path: (id) => `early_access/${id}` },
  Experiment: { label: 'Experiments', noun: 'experiment', path: (id) => `experiments/${id}` },
  Cohort: { label: 'Cohorts', noun: 'cohort', path: (id) => `cohorts/${id}` },
  ErrorTrackingIssue: { label: 'Error issues', noun: 'error issue', path: (id) => `error_tracking/${id}` },
  Webhook: { label: 'Webhooks', noun: 'webhook', path: () => 'settings/webhooks' },
  Project: { label: 'Project settings', noun: 'the project', path: () => 'settings/project' },
};

/** Ways to pick who made the changes, beside each member: how a change was made. */
const ACTOR_TYPES = [
  { value: 'actor_type=user', label: 'Anyone in the web app' },
  { value: 'actor_type=personal_api_key', label: 'Any personal API key' },
  { value: 'actor_type=command_line', label: 'The command line' },
];

/** `/project/:id/activity`: every change in the project, newest first, by kind of thing and by who made it, 50 a page. */
export default function ActivityPage() {
  const projectId = useProjectId();
  const search = useSearch({ strict: false }) as Record<string, string | undefined>;
  const navigate = useNavigate();
  const members = useMembers();
  const page = Math.max(1, Number(search.page) || 1);
  const filters = { scope: search.scope, user_id: search.user_id, actor_type: search.actor_type };
  const set = (patch: Record<string, string | undefined>) =>
    navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, page: undefined, ...patch }), replace: true });
  const log = useQuery(activityQueries.page(projectId, filters, page, PAGE));
  const memberName = (id: number) => {
    const m = members.data?.results.find((u) => u.id === id);
    return m && (m.name || m.email);
  };
  const actor = search.user_id ? `user_id=${search.user_id}` : search.actor_type ? `actor_type=${search.actor_type}` : '';
  const filtered = Object.values(filters).some(Boolean);

  const subject = (entry: ActivityEntry) => {
    const kind = KINDS[entry.scope];
    const name = entry.detail?.name || (kind ? '' : entry.item_id);
    if (!kind) return `${entry.scope} ${name}`;
    if (entry.scope === 'Project') return kind.noun;
    // A flag is named by its key, as code is.
    const mono = entry.scope === 'FeatureFlag' ? 'mono' : undefined;
    const link =
      entry.activity === 'deleted' ? (
        <Text span inherit className={mono}>
          {name}
        </Text>
      ) : (
        <Anchor component={Link} to={`/project/${projectId}/${kind.path(entry.item_id)}`} inherit className={mono}>
          {name || entry.item_id}
        </Anchor>
      );
    return (
      <>
        {kind.noun} {link}
      </>
    );
  };

  const first = (page - 1) * PAGE + 1;
  const count = log.data?.count ?? 0;
  return (
    <>
      <PageHeader title="Activity" description="Every change in this project: who made it, when, and each field before and after." />
      <Group gap="sm" mb="lg" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Kind"
          value={search.scope ?? ''}
          onChange={(e) => set({ scope: e.currentTarget.value || undefined })}
          data={[{ value: '', label: 'Everything' }, ...Object.entries(KINDS).map(([value, k]) => ({ value, label: k.label }))]}
          w={{ base: '100%', xs: 220 }}
        />
        <NativeSelect
          label="Changed by"
          value={actor}
          onChange={(e) => {
            const [key, value] = e.currentTarget.value.split('=');
            set({ user_id: key === 'user_id' ? value : undefined, actor_type: key === 'actor_type' ? value : undefined });
          }}
          data={[
            { value: '', label: 'Anyone' },
            {
              group: 'People (in the web app or with their keys)',
              items: (members.data?.results ?? []).map((m) => ({ value: `user_id=${m.id}`, label: m.name ? `${m.name} (${m.email})` : m.email })),
            },
            { group: 'How', items: ACTOR_TYPES },
          ]}
          w={{ base: '100%', xs: 300 }}
        />
        {filtered && (
          <Button variant="subtle" onClick={() => set({ scope: undefined, user_id: undefined, actor_type: undefined })}>
            Clear filters
          </Button>
        )}
      </Group>
      {log.isPending ? (
        <LoadingState label="Loading the activity…" />
      ) : log.error ? (
        <ErrorState error={log.error} retry={() => log.refetch()} title="Could not load the activity" />
      ) : count === 0 ? (
        filtered ? (
          <EmptyState
            title="No changes match these filters"
            action={
              <Button variant="default" onClick={() => set({ scope: undefined, user_id: undefined, actor_type: undefined })}>
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState title="Nothing has changed yet">
            Every change to flags, early access features, experiments, error issues, webhooks and the project shows here: who made it, when, and each field
            before and after.
          </EmptyState>
        )
      ) : (
        <>
          <Paper withBorder p="lg" radius="md" aria-label="Changes" component="section">
            <ActivityTimeline entries={log.data.results} subject={subject} who={(entry) => whoDid(entry, memberName)} />
          </Paper>
          <Group justify="space-between" mt="md">
            <Text size="sm" c="dimmed" aria-live="polite">
              {first}–{Math.min(first + PAGE - 1, count)} of {count} changes
            </Text>
            <Group gap="xs">
              <Button variant="default" size="xs" disabled={page === 1} onClick={() => set({ page: page === 2 ? undefined : String(page - 1) })}>
                Newer
              </Button>
              <Button variant="default" size="xs" disabled={first + PAGE > count} onClick={() => set({ page: String(page + 1) })}>
                Older
              </Button>
            </Group>
          </Group>
        </>
      )}
    </>
  );
}
