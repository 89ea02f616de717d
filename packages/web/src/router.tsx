import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { activityRoutes } from './features/activity/routes';
import { authRoutes } from './features/auth/routes';
import { cohortRoutes } from './features/cohorts/routes';
import { earlyAccessRoutes } from './features/early-access/routes';
import { errorRoutes } from './features/errors/routes';
import { eventRoutes } from './features/events/routes';
import { experimentRoutes } from './features/experiments/routes';
import { flagRoutes } from './features/flags/routes';
import { llmRoutes } from './features/llm/routes';
import { personRoutes } from './features/persons/routes';
import { replayRoutes } from './features/replays/routes';
import { settingsRoutes } from './features/settings/routes';
import { surveyRoutes } from './features/surveys/routes';
import { RouteError } from './layout/route-error';
import { appRoute, homeRoute, NotFound, projectHomeRoute, projectRoute, rootRoute } from './routes';

const routeTree = rootRoute.addChildren([
  ...authRoutes,
  appRoute.addChildren([
    homeRoute,
    projectRoute.addChildren([
      projectHomeRoute,
      ...flagRoutes,
      ...earlyAccessRoutes,
      ...experimentRoutes,
      ...surveyRoutes,
      ...errorRoutes,
      ...replayRoutes,
      ...llmRoutes,
      ...eventRoutes,
      ...personRoutes,
      ...cohortRoutes,
      ...activityRoutes,
      ...settingsRoutes,
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
