import { Alert, Badge, Button, Card, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { timeAgo } from '../../components/format';
import { EmptyState, ErrorState } from '../../components/states';
import { useProjectId } from '../../api/hooks';
import { replaysUrl } from '../replays/filters';
import { splitText } from './flag-changes';
import { IntervalChart } from './interval-chart';
import {
  decimal,
  ends,
  liftInterval,
  metricLabel,
  percent,
  pIs,
  pValue,
  type Experiment,
  type ExperimentResults,
  type MetricResult,
  type Method,
} from './types';
import { experimentQueries } from './api';

const TimeChart = lazy(() => import('../../components/time-chart'));

/** The method and mode of the results, from the address (so a link shows the same numbers). */
export function useResultsOptions() {
  const search = useSearch({ strict: false }) as Record<string, string | undefined>;
  const navigate = useNavigate();
  const method: Method = search.method === 'frequentist' ? 'frequentist' : 'bayesian';
  // `interval=sequential`, not `sequential=true`: the router would read `true` as JSON, a boolean, and drop it.
  const sequential = search.interval === 'sequential';
  const set = (patch: Record<string, string | undefined>) =>
    navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, ...patch }), replace: true });
  return { method, sequential, set };
}

/** Results of a started experiment: the method switch, the SRM warning, each metric's intervals and numbers, exposures per day. */
export function ExperimentResultsPanel({ projectId, experiment }: { projectId: number; experiment: Experiment }) {
  const { method, sequential, set } = useResultsOptions();
  const results = useQuery(experimentQueries.results(projectId, experiment.id, method, sequential));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Group gap="lg" align="flex-end" wrap="wrap">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="results-method">
              Method
            </Text>
            <SegmentedControl
              aria-labelledby="results-method"
              data={[
                { value: 'bayesian', label: 'Bayesian' },
                { value: 'frequentist', label: 'Frequentist' },
              ]}
              value={method}
              onChange={(v) => set({ method: v === 'bayesian' ? undefined : v })}
            />
          </Stack>
          <Switch
            label="Sequential"
            description="Always-valid intervals: looking early does not inflate errors."
            checked={sequential}
            onChange={(e) => set({ interval: e.currentTarget.checked ? 'sequential' : undefined })}
            mb={4}
          />
        </Group>
        <Group gap="xs">
          {results.data && (
            <Text size="xs" c="dimmed">
              Computed {timeAgo(results.data.computed_at)}
            </Text>
          )}
          <Button variant="default" size="xs" onClick={() => results.refetch()} loading={results.isFetching}>
            Refresh results
          </Button>
        </Group>
      </Group>

      {results.isPending ? (
        <Stack gap="sm" aria-busy>
          <Skeleton height={90} />
          <Skeleton height={220} />
        </Stack>
      ) : results.error ? (
        <ErrorState
          error={results.error}
          retry={() => results.refetch()}
          title="Could not compute the results"
          missingApi="The results need the experiment results endpoint."
        />
      ) : (
        <Results data={results.data} experiment={experiment} />
      )}
    </Stack>
  );
}

function Results({ data, experiment }: { data: ExperimentResults; experiment: Experiment }) {
  const planned = splitText(experiment.variants);
  const byVariant = data.exposures_by_day.series.map((s) => ({ key: s.key, total: s.counts.reduce((a, b) => a + b, 0) }));
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Stat label="People exposed" value={data.exposures_total.toLocaleString()} />
        <Stat label="Excluded (saw several variants)" value={data.excluded_multiple_variants.toLocaleString()} />
        <SampleRatioCheck data={data} />
      </SimpleGrid>
      <VariantReplays experiment={experiment} />
      {data.srm_flagged && (
        <Alert color="orange" variant="light" title="Sample ratio mismatch: the results below are likely biased" role="alert">
          The exposures do not match the planned split ({planned}): a chi-square test gives {pIs(data.srm_p_value)}, below {data.srm_threshold}, so chance alone
          rarely explains the difference. Something exposes or loses one variant more than another (a redirect, a crash, a flag read only in one branch): find
          it before you trust the numbers.
        </Alert>
      )}
      {data.exposures_total === 0 ? (
        <EmptyState title="No exposures yet">
          People are exposed when your app reads the flag <code>{experiment.feature_flag_key}</code>: <code>useFeatureFlagVariantKey</code> or{' '}
          <code>getFeatureFlag</code> send <code>$feature_flag_called</code> once per person and variant. Results appear here as they arrive.
        </EmptyState>
      ) : (
        data.metrics.map((m, i) => <MetricCard key={i} result={m} method={data.method} sequential={data.sequential} />)
      )}
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h5">
            Exposures per day
          </Title>
          {data.exposures_by_day.days.length === 0 || data.exposures_total === 0 ? (
            <Text c="dimmed" size="sm" py="lg" ta="center">
              Nobody was exposed yet.
            </Text>
          ) : (
            <>
              <Suspense fallback={<Skeleton height={220} />}>
                <TimeChart
                  label={`People exposed per day: ${byVariant.map((v) => `${v.key} ${v.total}`).join(', ')}`}
                  days={data.exposures_by_day.days}
                  series={data.exposures_by_day.series.map((s) => ({ label: s.key, values: s.counts }))}
                  height={220}
                />
              </Suspense>
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** Links to the recordings of each variant's sessions: what people did with it, beside the numbers. */
export function VariantReplays({ experiment }: { experiment: Experiment }) {
  const projectId = useProjectId();
  return (
    <Group gap="xs" aria-label="Replays by variant" role="group">
      <Text size="sm" c="dimmed">
        Watch the sessions of
      </Text>
      {experiment.variants.map((v) => (
        <Button
          key={v.key}
          component={Link}
          to={replaysUrl(projectId, { flag: experiment.feature_flag_key, variant: v.key })}
          size="compact-sm"
          variant="default"
          aria-label={`Replays of variant ${v.key}`}
        >
          {v.key}
        </Button>
      ))}
    </Group>
  );
}

/** The sample ratio check in words: passed or failed, with its p-value and threshold in small print. */
function SampleRatioCheck({ data }: { data: ExperimentResults }) {
  const ran = data.exposures_total > 0 && data.srm_p_value !== null;
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        Sample ratio check
      </Text>
      <Text fz={24} fw={700} c={data.srm_flagged ? 'orange' : undefined}>
        {!ran ? 'Not yet' : data.srm_flagged ? 'Failed' : 'Passed'}
      </Text>
      <Text size="xs" c="dimmed">
        {!ran
          ? 'Runs once people are exposed.'
          : `Exposures ${data.srm_flagged ? 'do not match' : 'match'} the planned split (${pIs(data.srm_p_value)}; fails below ${data.srm_threshold}).`}
      </Text>
    </Card>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fz={24} fw={700}>
        {value}
      </Text>
    </Card>
  );
}

function MetricCard({ result, method, sequential }: { result: MetricResult; method: Method; sequential: boolean }) {
  const { metric } = result;
  const conversion = metric.kind === 'conversion';
  const label = metricLabel(metric);
  const intervalName = method === 'bayesian' && !sequential ? 'credible interval' : sequential ? 'always-valid interval' : 'confidence interval';
  const compared = result.variants.filter((v) => v.lift !== null);
  return (
    <Card withBorder padding="md" component="section" aria-label={`${result.primary ? 'Primary' : 'Secondary'} metric: ${label}`}>
      <Stack gap="md">
        <Group gap="xs" wrap="wrap">
          <Badge variant="light" color={result.primary ? 'indigo' : 'gray'}>
            {result.primary ? 'Primary' : 'Secondary'}
          </Badge>
          <Title order={3} size="h5" className="wrap-anywhere">
            {label}
          </Title>
        </Group>
        <div>
          <Text size="sm" c="dimmed" mb={4}>
            Lift against control, 95 % {intervalName}
          </Text>
          {compared.length ? (
            <IntervalChart
              label={`Lift against control of ${label}, 95 % ${intervalName}`}
              rows={compared.map((v) => ({ key: v.key, estimate: v.lift!.estimate, interval: ends(v.lift!.interval) }))}
            />
          ) : (
            <Text size="sm" c="dimmed">
              No variant to compare with control yet.
            </Text>
          )}
        </div>
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label={`Results of ${label}`} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Variant</Table.Th>
                <Table.Th ta="right">Exposed</Table.Th>
                <Table.Th ta="right">{conversion ? 'Converted' : 'Total'}</Table.Th>
                <Table.Th ta="right">{conversion ? 'Rate' : 'Mean'}</Table.Th>
                <Table.Th>95 % interval</Table.Th>
                <Table.Th>Lift (95 % interval)</Table.Th>
                <Table.Th ta="right">{method === 'bayesian' ? 'Chance to be best' : 'p-value'}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.variants.map((v) => {
                const value = (n: number) => (conversion ? percent(n, false, 2) : decimal(n));
                return (
                  <Table.Tr key={v.key}>
                    <Table.Td className="mono wrap-anywhere">{v.key}</Table.Td>
                    <Table.Td ta="right">{v.exposures.toLocaleString()}</Table.Td>
                    <Table.Td ta="right">{conversion ? (v.conversions ?? 0).toLocaleString() : decimal(v.sum)}</Table.Td>
                    <Table.Td ta="right">{value(v.rate)}</Table.Td>
                    <Table.Td>
                      {value(v.credible_interval[0])} to {value(v.credible_interval[1])}
                    </Table.Td>
                    <Table.Td>
                      {v.lift ? (
                        <Text
                          span
                          size="sm"
                          c={
                            v.lift.interval[0] !== null && v.lift.interval[0] > 0
                              ? 'green'
                              : v.lift.interval[1] !== null && v.lift.interval[1] < 0
                                ? 'red'
                                : undefined
                          }
                        >
                          {percent(v.lift.estimate, true)} ({liftInterval(ends(v.lift.interval))})
                        </Text>
                      ) : (
                        <Text span size="sm" c="dimmed">
                          control
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{method === 'bayesian' ? percent(v.probability_to_be_best) : v.lift ? pValue(v.p_value) : '—'}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Card>
  );
}
