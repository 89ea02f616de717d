import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectIdOf, projectRoute, searchOf } from '../../routes';
import { cohortQueries } from './api';

export const cohortRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'cohorts',
    validateSearch: searchOf('page'),
    component: lazyRouteComponent(() => import('./cohort-list-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'cohorts/$cohortId',
    validateSearch: searchOf('tab'),
    loader: ({ context, params }) => {
      if (params.cohortId !== 'new') void context.queryClient.prefetchQuery(cohortQueries.detail(projectIdOf(params), params.cohortId));
    },
    component: lazyRouteComponent(() => import('./cohort-page')),
  }),
];
