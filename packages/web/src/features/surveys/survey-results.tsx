import { Alert, Autocomplete, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, useState } from 'react';
import { EmptyState, ErrorState } from '../../components/states';
import { flagQueries } from '../flags/api';
import { personQueries } from '../persons/api';
import { surveyQueries, type ResultFilters } from './api';
import { percent } from './labels';
import { QuestionResultsCard } from './question-results';
import type { Survey, SurveyResults } from './types';

const TimeChart = lazy(() => import('../../components/time-chart'));

const RANGES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: 'all', label: 'All time' },
];

/** The results' filters from the address: `?range=`, `?prop=&value=` (a person property), `?flag=&variant=`. */
function useResultFilters() {
  const search = useSearch({ strict: false }) as Record<string, string | undefined>;
  const navigate = useNavigate();
  const range = RANGES.some((r) => r.value === search.range) ? search.range! : 'all';
  const filters: ResultFilters = {
    date_from: range === 'all' ? undefined : new Date(Date.now() - Number(range) * 86_400_000).toISOString().slice(0, 10),
    property_key: search.prop && search.value !== undefined ? search.prop : undefined,
    property_value: search.prop && search.value !== undefined ? search.value : undefined,
    variant_flag: search.flag && search.variant ? search.flag : undefined,
    variant: search.flag && search.variant ? search.variant : undefined,
  };
  const set = (patch: Record<string, string | undefined>) =>
    void navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, ...patch }), replace: true });
  return { range, filters, search, set };
}

function Stat({ label, value, help }: { label: string; value: string; help?: string }) {
  return (
    <Paper withBorder p="md" radius="md" role="group" aria-label={label}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fz={26} fw={700} lh={1.2}>
        {value}
      </Text>
      {help && (
        <Text size="xs" c="dimmed">
          {help}
        </Text>
      )}
    </Paper>
  );
}

/** A survey's results: its counts, responses by day, and each question's answers; narrowed by date, a person property or a flag variant. */
export function SurveyResultsPanel({ projectId, survey, onLaunch }: { projectId: number; survey: Survey; onLaunch?: () => void }) {
  const { range, filters, search, set } = useResultFilters();
  const results = useQuery({ ...surveyQueries.results(projectId, survey.id, filters), enabled: survey.status !== 'draft' });
  if (survey.status === 'draft')
    return (
      <EmptyState title="Not launched yet" action={onLaunch && <Button onClick={onLaunch}>Launch</Button>}>
        Nobody sees a draft. Once it runs, the people who match its conditions see it in your app, and what they answer adds up here.
      </EmptyState>
    );
  return (
    <Stack gap="lg">
      <Group gap="md" align="flex-end" wrap="wrap">
        <SegmentedControl aria-label="Time range" data={RANGES} value={range} onChange={(v) => set({ range: v === 'all' ? undefined : v })} />
        <PropertyFilter projectId={projectId} prop={search.prop} value={search.value} onChange={(prop, value) => set({ prop, value })} />
        <VariantFilter projectId={projectId} flag={search.flag} variant={search.variant} onChange={(flag, variant) => set({ flag, variant })} />
      </Group>
      {results.isPending ? (
        <Skeleton height={320} />
      ) : results.error ? (
        <ErrorState
          error={results.error}
          retry={() => results.refetch()}
          title="Could not load the results"
          missingApi="Results need the survey results API."
        />
      ) : (
        <Results projectId={projectId} survey={survey} results={results.data} filters={filters} />
      )}
    </Stack>
  );
}

function Results({ projectId, survey, results, filters }: { projectId: number; survey: Survey; results: SurveyResults; filters: ResultFilters }) {
  const { counts } = results;
  const series = useMemo(
    () => [
      { label: 'Shown', values: results.by_day.map((d) => d.shown) },
      { label: 'Responses', values: results.by_day.map((d) => d.sent) },
      { label: 'Dismissed', values: results.by_day.map((d) => d.dismissed) },
    ],
    [results.by_day],
  );
  const days = useMemo(() => results.by_day.map((d) => d.day), [results.by_day]);
  const narrowed = Boolean(filters.property_key || filters.variant_flag || filters.date_from);
  if (counts.shown === 0 && counts.sent === 0 && counts.dismissed === 0 && results.late_responses === 0)
    return (
      <EmptyState title={narrowed ? 'Nothing for these filters' : 'No one has seen it yet'}>
        {narrowed
          ? 'No one matching these filters was shown the survey. Widen the time range or clear a filter.'
          : survey.status === 'running'
            ? 'It is running: it shows to people who match its conditions the next time their app loads surveys. Counts appear here as they come in.'
            : 'It was stopped before anyone saw it.'}
      </EmptyState>
    );
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
        <Stat label="Shown" value={counts.shown.toLocaleString()} />
        <Stat label="Responses" value={counts.sent.toLocaleString()} help={counts.partial ? `and ${counts.partial.toLocaleString()} partial` : undefined} />
        <Stat label="Response rate" value={percent(results.response_rate)} help="People who answered among those shown it" />
        <Stat label="Dismissed" value={counts.dismissed.toLocaleString()} />
        <Stat label="Abandoned" value={counts.abandoned.toLocaleString()} help="Started, then left" />
      </SimpleGrid>
      {results.late_responses > 0 && (
        <Alert variant="light" color="yellow" title="Late responses">
          {results.late_responses === 1 ? '1 response' : `${results.late_responses.toLocaleString()} responses`} arrived after the survey ended (from people who
          had it open, or from an app that still showed it). They are kept and counted here, marked late.
        </Alert>
      )}
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="by-day-title">
        <Title order={2} size="h5" id="by-day-title" mb="sm">
          Responses by day
        </Title>
        {days.length === 0 ? (
          <Text size="sm" c="dimmed">
            No days to show.
          </Text>
        ) : (
          <Suspense fallback={<Skeleton height={220} />}>
            <TimeChart label={`Shown, responses and dismissals per day: ${counts.sent} responses in all`} days={days} series={series} height={220} />
          </Suspense>
        )}
      </Paper>
      {results.questions.map((q) => (
        <QuestionResultsCard
          key={q.id}
          projectId={projectId}
          surveyId={survey.id}
          question={q}
          definition={survey.questions.find((d) => d.id === q.id) ?? survey.questions[q.index]}
          filters={filters}
        />
      ))}
    </Stack>
  );
}

/** Narrows the results to people with a property value ("plan" = "pro"), applied with its button. */
function PropertyFilter({
  projectId,
  prop,
  value,
  onChange,
}: {
  projectId: number;
  prop?: string;
  value?: string;
  onChange: (prop?: string, value?: string) => void;
}) {
  const names = useQuery(personQueries.propertyNames(projectId)).data ?? [];
  const [key, setKey] = useState(prop ?? '');
  const [text, setText] = useState(value ?? '');
  const applied = Boolean(prop) && prop === key && value === text;
  return (
    <Group gap={6} align="flex-end" wrap="nowrap">
      <Autocomplete label="Person property" placeholder="plan" data={names} limit={50} value={key} onChange={setKey} w={140} classNames={{ input: 'mono' }} />
      <TextInput label="Equals" placeholder="pro" value={text} onChange={(e) => setText(e.currentTarget.value)} w={110} />
      {applied ? (
        <Button
          variant="default"
          onClick={() => {
            setKey('');
            setText('');
            onChange(undefined, undefined);
          }}
        >
          Clear
        </Button>
      ) : (
        <Button variant="default" disabled={!key.trim()} onClick={() => onChange(key.trim(), text)}>
          Apply
        </Button>
      )}
    </Group>
  );
}

/** Narrows the results to people who had a variant of a flag when they answered. */
function VariantFilter({
  projectId,
  flag,
  variant,
  onChange,
}: {
  projectId: number;
  flag?: string;
  variant?: string;
  onChange: (flag?: string, variant?: string) => void;
}) {
  const flags = useQuery(flagQueries.all(projectId));
  const [chosen, setChosen] = useState<string | null>(flag ?? null);
  const current = flags.data?.results.find((f) => f.key === chosen);
  const variants = current?.filters.multivariate?.variants.map((v) => v.key) ?? (current ? ['true', 'false'] : []);
  return (
    <Group gap={6} align="flex-end" wrap="nowrap">
      <Select
        label="Feature flag"
        placeholder="Any"
        searchable
        clearable
        data={(flags.data?.results ?? []).map((f) => f.key)}
        value={chosen}
        onChange={(key) => {
          setChosen(key);
          if (!key) onChange(undefined, undefined);
        }}
        w={160}
        classNames={{ input: 'mono', option: 'mono' }}
      />
      <Select
        label="Variant"
        placeholder="Any"
        clearable
        disabled={!chosen}
        data={variants}
        value={chosen === flag ? (variant ?? null) : null}
        onChange={(v) => onChange(v && chosen ? chosen : undefined, v ?? undefined)}
        w={120}
        classNames={{ input: 'mono', option: 'mono' }}
      />
    </Group>
  );
}
