import { Button, Stack, Text, Title } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, Link, Navigate, Outlet, useParams } from '@tanstack/react-router';
import { AppLayout, ProjectRedirect } from './layout/app-layout';

/**
 * A route's search params: the names it reads, each a string or absent (a number in the address is read as its
 * text). Values of other names are kept as they are, so a link that carries them loses nothing.
 */
export const searchOf =
  <K extends string>(..._names: K[]) =>
  (search: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(search)
        .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
        .map(([k, v]) => [k, String(v)]),
    ) as Partial<Record<K, string>>;

/** The page number of a `?page=` (the first page when it is absent or not a number). */
export const pageOf = (search: { page?: string }) => Math.max(1, Number(search.page) || 1);

/** The project id of a route under `/project/$projectId`. */
export const projectIdOf = (params: { projectId: string }) => Number(params.projectId);

export function NotFound() {
  return (
    <Stack align="center" py="xl" gap="xs">
      <Title order={1} size="h3">
        Page not found
      </Title>
      <Text c="dimmed">This address does not lead anywhere in the app.</Text>
      <Button component={Link} to="/" variant="default">
        Go to the start
      </Button>
    </Stack>
  );
}

/** The app's frame: the root (with the query client every loader prefetches into), the signed-in layout, a project. */
export const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({ component: Outlet, notFoundComponent: NotFound });
export const appRoute = createRoute({ getParentRoute: () => rootRoute, id: 'app', component: AppLayout });
export const homeRoute = createRoute({ getParentRoute: () => appRoute, path: '/', component: ProjectRedirect });
export const projectRoute = createRoute({ getParentRoute: () => appRoute, path: '/project/$projectId', component: Outlet });
export const projectHomeRoute = createRoute({
  getParentRoute: () => projectRoute,
  path: '/',
  component: function ProjectHome() {
    const { projectId } = useParams({ strict: false }) as { projectId: string };
    return <Navigate to={`/project/${projectId}/feature_flags`} replace />;
  },
});
