import { Button, Stack, Text, Title } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, Link, Navigate, Outlet, useParams } from '@tanstack/react-router';
import { AppLayout, ProjectRedirect } from './layout/app-layout';
import { RouteError } from './layout/route-error';

/** Search params are kept as strings (or absent): every page reads them defensively. */
const strings = (search: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(search)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .map(([k, v]) => [k, String(v)]),
  ) as Record<string, string | undefined>;

function NotFound() {
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

const root = createRootRouteWithContext<{ queryClient: QueryClient }>()({ component: Outlet, notFoundComponent: NotFound });

const login = createRoute({
  getParentRoute: () => root,
  path: '/login',
  validateSearch: strings,
  component: lazyRouteComponent(() => import('./features/auth/login-page')),
});
const signup = createRoute({ getParentRoute: () => root, path: '/signup', component: lazyRouteComponent(() => import('./features/auth/signup-page')) });
const invite = createRoute({
  getParentRoute: () => root,
  path: '/invite/$token',
  component: lazyRouteComponent(() => import('./features/auth/signup-page'), 'InvitePage'),
});

const resetPassword = createRoute({
  getParentRoute: () => root,
  path: '/reset-password/$token',
  component: lazyRouteComponent(() => import('./features/auth/reset-password-page')),
});

const app = createRoute({ getParentRoute: () => root, id: 'app', component: AppLayout });
const home = createRoute({ getParentRoute: () => app, path: '/', component: ProjectRedirect });
const project = createRoute({ getParentRoute: () => app, path: '/project/$projectId', component: Outlet });
const projectHome = createRoute({
  getParentRoute: () => project,
  path: '/',
  component: function ProjectHome() {
    const { projectId } = useParams({ strict: false }) as { projectId: string };
    return <Navigate to={`/project/${projectId}/feature_flags`} replace />;
  },
});

const page = (path: string, load: () => Promise<{ default: React.ComponentType }>) =>
  createRoute({ getParentRoute: () => project, path, validateSearch: strings, component: lazyRouteComponent(load) });

const routeTree = root.addChildren([
  login,
  signup,
  invite,
  resetPassword,
  app.addChildren([
    home,
    project.addChildren([
      projectHome,
      page('feature_flags', () => import('./features/flags/flag-list-page')),
      page('feature_flags/$flagId', () => import('./features/flags/flag-page')),
      page('early_access', () => import('./features/early-access/early-access-list-page')),
      page('early_access/$featureId', () => import('./features/early-access/early-access-page')),
      page('experiments', () => import('./features/experiments/experiment-list-page')),
      page('experiments/$experimentId', () => import('./features/experiments/experiment-page')),
      page('error_tracking', () => import('./features/errors/error-list-page')),
      page('error_tracking/$issueId', () => import('./features/errors/error-issue-page')),
      page('events', () => import('./features/events/events-page')),
      page('persons', () => import('./features/persons/persons-page')),
      page('persons/$distinctId', () => import('./features/persons/person-page')),
      page('activity', () => import('./features/activity/activity-page')),
      page('settings', () => import('./features/settings/settings-page')),
      page('settings/$section', () => import('./features/settings/settings-page')),
    ]),
  ]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    scrollRestoration: true,
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: RouteError,
  });
}
