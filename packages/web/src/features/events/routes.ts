import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectRoute, searchOf } from '../../routes';

export const eventRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'events',
    validateSearch: searchOf('event', 'distinct_id', 'after', 'before', 'properties'),
    component: lazyRouteComponent(() => import('./events-page')),
  }),
];
