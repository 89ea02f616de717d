import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute, searchOf } from '../../routes';

export const authRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/login',
    validateSearch: searchOf('next'),
    component: lazyRouteComponent(() => import('./login-page')),
  }),
  createRoute({ getParentRoute: () => rootRoute, path: '/signup', component: lazyRouteComponent(() => import('./signup-page')) }),
  createRoute({ getParentRoute: () => rootRoute, path: '/invite/$token', component: lazyRouteComponent(() => import('./signup-page'), 'InvitePage') }),
  createRoute({ getParentRoute: () => rootRoute, path: '/reset-password/$token', component: lazyRouteComponent(() => import('./reset-password-page')) }),
];
