import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectIdOf, projectRoute, searchOf } from '../../routes';
import { personQueries, safeDecode } from './api';

export const personRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'persons',
    validateSearch: searchOf('by', 'q', 'page'),
    component: lazyRouteComponent(() => import('./persons-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'persons/$distinctId',
    validateSearch: searchOf(),
    loader: ({ context, params }) => void context.queryClient.prefetchQuery(personQueries.detail(projectIdOf(params), safeDecode(params.distinctId))),
    component: lazyRouteComponent(() => import('./person-page')),
  }),
];
