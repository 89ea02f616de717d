import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { projectIdOf, projectRoute, searchOf } from '../../routes';
import { llmQueries } from './api';
import { filtersOf } from './filters';

export const llmRoutes = [
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'llm',
    validateSearch: (search: Record<string, unknown>) => searchOf('date_from')(filtersOf(search)),
    component: lazyRouteComponent(() => import('./overview-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'llm/generations',
    validateSearch: (search: Record<string, unknown>) => searchOf('page')(filtersOf(search)),
    component: lazyRouteComponent(() => import('./generations-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'llm/traces',
    validateSearch: (search: Record<string, unknown>) => searchOf('page')(filtersOf(search)),
    component: lazyRouteComponent(() => import('./traces-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'llm/traces/$traceId',
    // `node`: the selected event's uuid.
    validateSearch: searchOf('node'),
    loader: ({ context, params }) => void context.queryClient.prefetchQuery(llmQueries.trace(projectIdOf(params), params.traceId)),
    component: lazyRouteComponent(() => import('./trace-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'llm/prompts',
    validateSearch: searchOf('search', 'page'),
    component: lazyRouteComponent(() => import('./prompts-page')),
  }),
  createRoute({
    getParentRoute: () => projectRoute,
    path: 'llm/prompts/$promptId',
    validateSearch: searchOf(),
    loader: ({ context, params }) => void context.queryClient.prefetchQuery(llmQueries.prompt(projectIdOf(params), params.promptId)),
    component: lazyRouteComponent(() => import('./prompt-page')),
  }),
];
