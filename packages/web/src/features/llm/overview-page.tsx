import { Anchor, Group, NativeSelect, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useProjectId } from '../../api/hooks';
import { PageHeader } from '../../components/page-header';
import { ErrorState } from '../../components/states';
import { llmQueries } from './api';
import { DATES, llmUrl } from './filters';
import { percent, seconds, tokens, usd } from './format';
import { GettingStarted } from './getting-started';
import { LlmNav } from './section';
import type { UsageSeries } from './types';
import { bySize, dailyValues, daysOf, modelName, totalsOf, type DailyFigure } from './usage';

const TimeChart = lazy(() => import('../../components/time-chart'));

const formatUsd = (v: number) => usd(v);
const formatTokens = (v: number) => (Number.isInteger(v) ? tokens(v) : '');
const formatSeconds = (v: number) => seconds(v);
// A latency's legend figure for the whole range is not a sum: the days' values are shown one by one on hover.
const noSummary = () => '';

export default function OverviewPage() {
  const projectId = useProjectId();
  const search = useSearch({ strict: false }) as { date_from?: string };
  const navigate = useNavigate();
  const dateFrom = search.date_from ?? '-30d';
  const usage = useQuery(llmQueries.usage(projectId, { date_from: dateFrom }));
  const series = useMemo(() => bySize(usage.data?.series ?? []), [usage.data]);
  const days = useMemo(() => daysOf(dateFrom), [dateFrom]);
  const totals = totalsOf(series);
  // Nothing in the range: has anything ever come? (No: how to connect; yes: a longer range.)
  const ever = useQuery({ ...llmQueries.generations(projectId, {}, 1, 1), enabled: usage.data?.series.length === 0 });

  return (
    <>
      <PageHeader
        title="LLM"
        description="What your product's model calls cost, how many tokens they use, how long they take and how often they fail."
        actions={
          <NativeSelect
            aria-label="Time range"
            data={DATES}
            value={dateFrom}
            onChange={(e) => void navigate({ to: '.', search: { date_from: e.currentTarget.value }, replace: true })}
          />
        }
      />
      <LlmNav projectId={projectId} current="Overview" />
      {usage.isPending ? (
        <Stack gap="md" aria-busy>
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height={72} />
            ))}
          </SimpleGrid>
          <Skeleton height={280} />
        </Stack>
      ) : usage.error ? (
        <ErrorState error={usage.error} retry={() => usage.refetch()} title="Could not load LLM usage" missingApi="This page needs the LLM usage API." />
      ) : series.length === 0 && ever.data?.count === 0 ? (
        <GettingStarted />
      ) : series.length === 0 && ever.isPending ? (
        <Skeleton height={280} />
      ) : (
        <Stack gap="md" style={{ opacity: usage.isPlaceholderData ? 0.6 : 1 }}>
          {usage.data.truncated && (
            <Text size="sm" c="orange">
              More calls matched than one answer adds up: the figures cover the oldest of them. Choose a shorter range.
            </Text>
          )}
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            <Stat label="Calls" value={totals.calls.toLocaleString('en-US')} />
            <Stat label="Cost" value={usd(totals.cost_usd)} />
            <Stat label="Input tokens" value={tokens(totals.input_tokens)} />
            <Stat label="Output tokens" value={tokens(totals.output_tokens)} />
            <Stat label="Error rate" value={percent(totals.error_rate)} />
          </SimpleGrid>
          {series.length === 0 ? (
            <Paper withBorder p="xl" radius="md">
              <Text c="dimmed" ta="center">
                No calls in this range. Choose a longer one.
              </Text>
            </Paper>
          ) : (
            <>
              <SimpleGrid cols={{ base: 1, lg: 2 }}>
                <ChartCard title="Cost per day, by model" days={days} series={series} figure="cost_usd" format={formatUsd} />
                <ChartCard title="Tokens per day, by model" days={days} series={series} figure="tokens" format={formatTokens} />
              </SimpleGrid>
              <LatencyCard days={days} series={series} />
              <ModelTable projectId={projectId} series={series} dateFrom={dateFrom} />
            </>
          )}
        </Stack>
      )}
    </>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="md" radius="md" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

function ChartCard(props: {
  title: string;
  days: string[];
  series: UsageSeries[];
  figure: DailyFigure;
  format: (v: number) => string;
  summary?: () => string;
  control?: React.ReactNode;
}) {
  const { days, series, figure } = props;
  const lines = useMemo(() => series.map((s) => ({ label: modelName(s.key), values: dailyValues(s, days, figure) })), [series, days, figure]);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={props.title}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h5">
          {props.title}
        </Title>
        {props.control}
      </Group>
      <Suspense fallback={<Skeleton height={220} />}>
        <TimeChart label={props.title} days={days} series={lines} height={220} format={props.format} summary={props.summary} />
      </Suspense>
    </Paper>
  );
}

function LatencyCard({ days, series }: { days: string[]; series: UsageSeries[] }) {
  const [which, setWhich] = useState<'latency_p50' | 'latency_p95'>('latency_p95');
  return (
    <ChartCard
      title={`Latency per day (${which === 'latency_p50' ? 'median' : '95th percentile'}), by model`}
      days={days}
      series={series}
      figure={which}
      format={formatSeconds}
      summary={noSummary}
      control={
        <SegmentedControl
          size="xs"
          aria-label="Latency percentile"
          value={which}
          onChange={(v) => setWhich(v as typeof which)}
          data={[
            { value: 'latency_p50', label: 'p50' },
            { value: 'latency_p95', label: 'p95' },
          ]}
        />
      }
    />
  );
}

function ModelTable({ projectId, series, dateFrom }: { projectId: number; series: UsageSeries[]; dateFrom: string }) {
  return (
    <Paper withBorder component="section" aria-labelledby="models-title">
      <Title order={2} size="h5" p="md" pb={0} id="models-title">
        By model
      </Title>
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" aria-labelledby="models-title">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Model</Table.Th>
              <Table.Th ta="right">Calls</Table.Th>
              <Table.Th ta="right">Input tokens</Table.Th>
              <Table.Th ta="right">Output tokens</Table.Th>
              <Table.Th ta="right">Cost</Table.Th>
              <Table.Th ta="right">p50</Table.Th>
              <Table.Th ta="right">p95</Table.Th>
              <Table.Th ta="right">Errors</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {series.map((s) => (
              <Table.Tr key={s.key ?? ''}>
                <Table.Td>
                  {s.key === null ? (
                    <Text size="sm">{modelName(null)}</Text>
                  ) : (
                    <Anchor component={Link} to={llmUrl(projectId, 'generations', { model: s.key, date_from: dateFrom })} size="sm" className="mono">
                      {s.key}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td ta="right">{s.calls.toLocaleString('en-US')}</Table.Td>
                <Table.Td ta="right">{tokens(s.input_tokens)}</Table.Td>
                <Table.Td ta="right">{tokens(s.output_tokens)}</Table.Td>
                <Table.Td ta="right">{usd(s.cost_usd)}</Table.Td>
                <Table.Td ta="right">{seconds(s.latency_p50)}</Table.Td>
                <Table.Td ta="right">{seconds(s.latency_p95)}</Table.Td>
                <Table.Td ta="right">{percent(s.error_rate)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
