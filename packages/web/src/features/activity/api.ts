import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { ActivityEntry, Page } from '../../api/types';

const base = (projectId: number) => `/api/projects/${projectId}/activity_log/`;

/** The activity page's filters, as `GET …/activity_log/` takes them. */
export interface ActivityFilters {
  scope?: string;
  user_id?: string;
  actor_type?: string;
}

export const activityKeys = {
  page: (projectId: number, filters: ActivityFilters, page: number) => ['activity_log', projectId, filters, page] as const,
  item: (projectId: number, scope: string, itemId: string) => ['activity_log', projectId, scope, itemId] as const,
};

export const activityQueries = {
  /** A page of every change in the project, newest first. */
  page: (projectId: number, filters: ActivityFilters, page: number, pageSize: number) =>
    queryOptions({
      queryKey: activityKeys.page(projectId, filters, page),
      queryFn: () => api.get<Page<ActivityEntry>>(`${base(projectId)}${qs({ ...filters, limit: pageSize, offset: (page - 1) * pageSize })}`),
      placeholderData: keepPreviousData,
      // A log: going back to a filter shows what happened since.
      staleTime: 0,
    }),
  /** The last 100 changes of one item (a flag, an early access feature). */
  item: (projectId: number, scope: string, itemId: string) =>
    queryOptions({
      queryKey: activityKeys.item(projectId, scope, itemId),
      queryFn: () => api.get<Page<ActivityEntry>>(`${base(projectId)}${qs({ scope, item_id: itemId, limit: 100 })}`),
    }),
};
