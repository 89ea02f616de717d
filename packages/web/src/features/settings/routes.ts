import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectRoute, searchOf } from '../../routes';

const settingsPage = lazyRouteComponent(() => import('./settings-page'));

export const settingsRoutes = [
  createRoute({ getParentRoute: () => projectRoute, path: 'settings', validateSearch: searchOf(), component: settingsPage }),
  createRoute({ getParentRoute: () => projectRoute, path: 'settings/$section', validateSearch: searchOf(), component: settingsPage }),
];
