import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectRoute, searchOf } from '../../routes';

export const activityRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'activity',
    validateSearch: searchOf('scope', 'user_id', 'actor_type', 'page'),
    component: lazyRouteComponent(() => import('./activity-page')),
  }),
];
