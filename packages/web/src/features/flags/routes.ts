import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectIdOf, projectRoute, searchOf } from '../../routes';
import { flagQueries } from './api';

export const flagRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'feature_flags',
    validateSearch: searchOf('search', 'active', 'type', 'has_early_access', 'page'),
    component: lazyRouteComponent(() => import('./flag-list-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'feature_flags/$flagId',
    validateSearch: searchOf('tab'),
    // The flag starts loading with the page's code (and on hovering a link to it).
    loader: ({ context, params }) => {
      if (params.flagId !== 'new') void context.queryClient.prefetchQuery(flagQueries.detail(projectIdOf(params), params.flagId));
    },
    component: lazyRouteComponent(() => import('./flag-page')),
  }),
];
