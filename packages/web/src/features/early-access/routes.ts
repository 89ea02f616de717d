import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectIdOf, projectRoute, searchOf } from '../../routes';
import { earlyAccessQueries } from './api';

export const earlyAccessRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'early_access',
    validateSearch: searchOf(),
    loader: ({ context, params }) => void context.queryClient.prefetchQuery(earlyAccessQueries.list(projectIdOf(params))),
    component: lazyRouteComponent(() => import('./early-access-list-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'early_access/$featureId',
    validateSearch: searchOf('tab'),
    loader: ({ context, params }) => {
      if (params.featureId !== 'new') void context.queryClient.prefetchQuery(earlyAccessQueries.detail(projectIdOf(params), params.featureId));
    },
    component: lazyRouteComponent(() => import('./early-access-page')),
  }),
];
