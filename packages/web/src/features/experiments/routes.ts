import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { pageOf, projectIdOf, projectRoute, searchOf } from '../../routes';
import { experimentQueries, EXPERIMENTS_PAGE } from './api';

export const experimentRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'experiments',
    validateSearch: searchOf('page'),
    loaderDeps: ({ search }) => ({ page: pageOf(search) }),
    loader: ({ context, params, deps }) => void context.queryClient.prefetchQuery(experimentQueries.list(projectIdOf(params), deps.page, EXPERIMENTS_PAGE)),
    component: lazyRouteComponent(() => import('./experiment-list-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'experiments/$experimentId',
    // ?flag=: a new experiment on that flag; ?method= and ?interval=: how the results are computed.
    validateSearch: searchOf('flag', 'method', 'interval'),
    loader: ({ context, params }) => {
      if (params.experimentId !== 'new') void context.queryClient.prefetchQuery(experimentQueries.detail(projectIdOf(params), params.experimentId));
    },
    component: lazyRouteComponent(() => import('./experiment-page')),
  }),
];
