import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { ErrorState } from './states';
import { eventQueries } from '../features/events/api';

const TimeChart = lazy(() => import('./time-chart'));

/** The last `days` days as [after, before) ISO dates (UTC). */
export function lastDays(days: number) {
  const before = new Date();
  const after = new Date(before.getTime() - days * 86_400_000);
  return { after: after.toISOString().slice(0, 10), before: before.toISOString() };
}

/**
 * A chart of one event's daily counts, optionally broken down by a property and filtered by exact property values
 * (`GET /api/projects/:id/event_counts/`, described in web-contract.md).
 */
export function EventCountsChart(props: {
  projectId: number;
  title: string;
  event: string;
  breakdown?: string;
  where?: Record<string, string>;
  days?: number;
  empty: string;
  labelOf?: (value: string | null) => string;
}) {
  const { projectId, event, breakdown, where, days = 30 } = props;
  const range = lastDays(days);
  const query = useQuery(eventQueries.counts(projectId, { event, breakdown, where, days, after: range.after }));
  const labelOf = props.labelOf ?? ((v: string | null) => (v === null ? '(none)' : v));
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {props.title}
        </Title>
        {query.isPending ? (
          <Skeleton height={240} />
        ) : query.error ? (
          <ErrorState
            error={query.error}
            retry={() => query.refetch()}
            title="Could not load the chart"
            missingApi="This chart needs the event counts endpoint."
          />
        ) : query.data.series.every((s) => s.total === 0) ? (
          <Text c="dimmed" size="sm" py="lg" ta="center">
            {props.empty}
          </Text>
        ) : (
          <Suspense fallback={<Skeleton height={240} />}>
            <TimeChart
              label={props.title}
              days={query.data.days}
              series={query.data.series.map((s) => ({ label: labelOf(s.breakdown_value), values: s.counts }))}
            />
          </Suspense>
        )}
      </Stack>
    </Paper>
  );
}
