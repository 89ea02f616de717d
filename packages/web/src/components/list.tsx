import { Group, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { pageOf } from '../routes';

/** The rows of a list while it loads. */
export function ListSkeleton({ rows = 3, height = 44 }: { rows?: number; height?: number }) {
  return (
    <Stack gap="xs" aria-busy>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} />
      ))}
    </Stack>
  );
}

/** A list's page buttons, each with a name a screen reader says ("Page 2", "next page"); none for a single page. */
export function Pager({ count, pageSize, page, onChange }: { count: number; pageSize: number; page: number; onChange: (page: number) => void }) {
  if (count <= pageSize) return null;
  return (
    <Pagination
      total={Math.ceil(count / pageSize)}
      value={page}
      onChange={onChange}
      getControlProps={(control) => ({ 'aria-label': `${control} page` })}
      getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
    />
  );
}

/** Under a list: how many there are in all, and its pages. */
export function ListFooter({ total, ...pager }: { total: ReactNode; count: number; pageSize: number; page: number; onChange: (page: number) => void }) {
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {total}
      </Text>
      <Pager {...pager} />
    </Group>
  );
}

/** The page of a list in the address (`?page=`, absent for the first), and a way to turn it. */
export function usePage(): [number, (page: number) => void] {
  const search = useSearch({ strict: false }) as { page?: string };
  const navigate = useNavigate();
  const setPage = (page: number) =>
    void navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, page: page === 1 ? undefined : String(page) }) });
  return [pageOf(search), setPage];
}
