import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { pageOf, projectIdOf, projectRoute, searchOf } from '../../routes';
import { surveyQueries } from './api';

export const surveyRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'surveys',
    // ?new=template: the templates to start a survey from are open.
    validateSearch: searchOf('search', 'status', 'page', 'new'),
    loaderDeps: ({ search }) => {
      const s = search as { search?: string; status?: string; page?: string };
      return { page: pageOf(s), search: s.search, status: s.status };
    },
    loader: ({ context, params, deps }) => {
      const status = deps.status === 'draft' || deps.status === 'running' || deps.status === 'stopped' ? deps.status : undefined;
      void context.queryClient.prefetchQuery(surveyQueries.list(projectIdOf(params), { search: deps.search?.trim() || undefined, status }, deps.page));
    },
    component: lazyRouteComponent(() => import('./survey-list-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'surveys/$surveyId',
    // ?template=&feature=: a new survey from a template (beta feedback: about that early access feature); ?tab=: results
    // or the builder; ?range=, ?prop=&value=, ?flag=&variant=: what the results are narrowed to.
    validateSearch: searchOf('template', 'feature', 'tab', 'range', 'prop', 'value', 'flag', 'variant'),
    loader: ({ context, params }) => {
      if (params.surveyId !== 'new') void context.queryClient.prefetchQuery(surveyQueries.detail(projectIdOf(params), params.surveyId));
    },
    component: lazyRouteComponent(() => import('./survey-page')),
  }),
];
