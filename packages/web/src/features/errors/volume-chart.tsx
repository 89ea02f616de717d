import { Group, Paper, SegmentedControl, Skeleton, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { ErrorState } from '../../components/states';
import { errorQueries } from './api';

const TimeChart = lazy(() => import('../../components/time-chart'));

const RANGES = [
  { value: '14', label: '14 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
];

export function VolumeChart({ projectId, issueId }: { projectId: number; issueId: string }) {
  const [days, setDays] = useState('14');
  const volume = useQuery(errorQueries.volume(projectId, issueId, days));
  const points = volume.data?.points ?? [];
  const total = points.reduce((sum, p) => sum + p.occurrences, 0);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="volume-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h5" id="volume-title">
          Occurrences per day
        </Title>
        <SegmentedControl size="xs" data={RANGES} value={days} onChange={setDays} aria-label="Time range" />
      </Group>
      {volume.isPending ? (
        <Skeleton height={200} />
      ) : volume.error ? (
        <ErrorState error={volume.error} retry={() => volume.refetch()} title="Could not load the chart" />
      ) : (
        <Suspense fallback={<Skeleton height={200} />}>
          <TimeChart
            label={`Occurrences per day over the last ${days} days: ${total} in all`}
            days={points.map((p) => p.date)}
            // Occurrences only: people per day do not add up to the people affected, and a legend total of them would mislead.
            series={[{ label: 'Occurrences', values: points.map((p) => p.occurrences) }]}
            height={200}
          />
        </Suspense>
      )}
    </Paper>
  );
}
