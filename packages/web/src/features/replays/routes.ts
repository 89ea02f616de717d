import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectIdOf, projectRoute, searchOf } from '../../routes';
import { replayQueries } from './api';
import { FILTER_NAMES, filtersOf } from './filters';

export const replayRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'replays',
    validateSearch: (search: Record<string, unknown>) => searchOf(...FILTER_NAMES, 'page')(filtersOf(search)),
    component: lazyRouteComponent(() => import('./replay-list-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'replays/$sessionId',
    // `at`: a time (ISO) to start from, as an error's occurrence links to the moment of the exception.
    validateSearch: searchOf('at'),
    loader: ({ context, params }) => {
      void context.queryClient.prefetchQuery(replayQueries.detail(projectIdOf(params), params.sessionId));
      void context.queryClient.prefetchQuery(replayQueries.snapshots(projectIdOf(params), params.sessionId));
    },
    component: lazyRouteComponent(() => import('./replay-page')),
  }),
];
