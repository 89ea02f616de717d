import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ErrorComponentProps } from '@tanstack/react-router';

/**
 * How browsers word a page's code (or its styles) that could not be fetched: after a new version of the app was
 * deployed, the old chunks' hashed names are gone (the router reloads once by itself; this is what shows if that
 * did not help, or the network is down).
 */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed|Unable to preload CSS/;

/** What a page shows when it could not be loaded or broke while rendering, instead of a blank screen. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const message = error instanceof Error ? error.message : String(error);
  const chunk = CHUNK_FAILED.test(message);
  return (
    <Stack align="center" py="xl" gap="sm" ta="center" role="alert" maw={560} mx="auto">
      <Title order={1} size="h3">
        {chunk ? 'The app was updated' : 'This page could not be shown'}
      </Title>
      <Text c="dimmed">
        {chunk
          ? 'Part of this page could not be loaded: the service may run a newer version of the app, or the connection dropped. Reload to get the current version; what you saved is kept.'
          : `Something went wrong while showing it: ${message}`}
      </Text>
      <Group>
        <Button onClick={() => window.location.reload()}>Reload</Button>
        {!chunk && (
          <Button variant="default" onClick={reset}>
            Try again
          </Button>
        )}
      </Group>
    </Stack>
  );
}
