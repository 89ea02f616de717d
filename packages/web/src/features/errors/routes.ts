import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectIdOf, projectRoute, searchOf } from '../../routes';
import { errorQueries } from './api';

export const errorRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'error_tracking',
    validateSearch: searchOf('status', 'order_by', 'search', 'page'),
    component: lazyRouteComponent(() => import('./error-list-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'error_tracking/$issueId',
    validateSearch: searchOf(),
    loader: ({ context, params }) => void context.queryClient.prefetchQuery(errorQueries.detail(projectIdOf(params), params.issueId)),
    component: lazyRouteComponent(() => import('./error-issue-page')),
  }),
];
