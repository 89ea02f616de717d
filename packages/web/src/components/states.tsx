import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client';

/** What a screen shows while its data loads. */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{label}</Text>
      </Group>
    </Center>
  );
}

/** What a screen shows when there is nothing yet: what this place is for and what to do. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="xs" py="md" ta="center">
        <Title order={3} size="h4">
          {title}
        </Title>
        {children && (
          <Text c="dimmed" maw={520}>
            {children}
          </Text>
        )}
        {action && <Group mt="sm">{action}</Group>}
      </Stack>
    </Paper>
  );
}

/** A sentence for an error, with a hint for the cases a user can act on. */
export function describeError(error: unknown, missingApi?: string): string {
  if (error instanceof ApiError) {
    if (error.status === 404 && missingApi) return `${missingApi} The service answered 404: it does not offer this yet.`;
    if (error.status === 403) return `You do not have permission for this. ${error.detail}`;
    if (error.status === 429) return `Too many requests: wait a moment and try again. ${error.detail}`;
    return error.detail;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/** What a screen shows when its data could not be loaded, with a way to try again. */
export function ErrorState({
  error,
  retry,
  title = 'Could not load this',
  missingApi,
}: {
  error: unknown;
  retry?: () => void;
  title?: string;
  missingApi?: string;
}) {
  return (
    <Alert color="red" variant="light" title={title} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {describeError(error, missingApi)}
        </Text>
        {retry && (
          <Button size="xs" variant="default" onClick={retry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
