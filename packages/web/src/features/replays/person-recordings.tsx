import { Anchor, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ListSkeleton } from '../../components/list';
import { EmptyState, ErrorState } from '../../components/states';
import { replayQueries } from './api';
import { replaysUrl } from './filters';
import { RecordingsTable } from './recordings-table';

/** A person's page, tab Recordings: their last sessions, and a link to all of them in Replays. */
export function PersonRecordings({ projectId, personId, distinctId }: { projectId: number; personId?: string; distinctId: string }) {
  const filters = personId ? { person_id: personId } : { distinct_id: distinctId };
  const list = useQuery(replayQueries.list(projectId, filters, 1, 10));
  if (list.isPending) return <ListSkeleton rows={3} />;
  if (list.error) return <ErrorState error={list.error} retry={() => list.refetch()} title="Could not load the recordings" />;
  if (list.data.results.length === 0)
    return <EmptyState title="No recordings of this person">Their sessions show here once session recording is on and they use your app.</EmptyState>;
  return (
    <Stack gap="xs">
      <RecordingsTable projectId={projectId} recordings={list.data.results} showPerson={false} />
      {list.data.count > list.data.results.length && (
        <Anchor component={Link} to={replaysUrl(projectId, filters)} size="sm">
          All {list.data.count} recordings of this person
        </Anchor>
      )}
    </Stack>
  );
}
