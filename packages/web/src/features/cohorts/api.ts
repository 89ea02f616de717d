import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { Cohort, CohortMember, Page } from '../../api/types';

const base = (projectId: number) => `/api/projects/${projectId}/cohorts/`;

/** The cache keys of cohorts: every list of a project's cohorts starts with `lists(projectId)`, a cohort's members with `members(…)`. */
export const cohortKeys = {
  lists: (projectId: number) => ['cohorts', projectId] as const,
  list: (projectId: number, page: number) => ['cohorts', projectId, page] as const,
  all: (projectId: number) => ['cohorts', projectId, 'all'] as const,
  detail: (projectId: number, cohortId: string) => ['cohort', projectId, cohortId] as const,
  members: (projectId: number, cohortId: string) => ['cohort_members', projectId, cohortId] as const,
  memberPage: (projectId: number, cohortId: string, page: number) => ['cohort_members', projectId, cohortId, page] as const,
};

export const cohortQueries = {
  /** A page of the cohort list. */
  list: (projectId: number, page: number, pageSize: number) =>
    queryOptions({
      queryKey: cohortKeys.list(projectId, page),
      queryFn: () => api.get<Page<Cohort>>(`${base(projectId)}${qs({ limit: pageSize, offset: (page - 1) * pageSize })}`),
      placeholderData: keepPreviousData,
    }),
  /** The cohorts of a project, up to 500, for pickers (a flag's condition, a cohort's). */
  all: (projectId: number) =>
    queryOptions({ queryKey: cohortKeys.all(projectId), queryFn: () => api.get<Page<Cohort>>(`${base(projectId)}?limit=500`), staleTime: 30_000 }),
  detail: (projectId: number, cohortId: string) =>
    queryOptions({ queryKey: cohortKeys.detail(projectId, cohortId), queryFn: () => api.get<Cohort>(`${base(projectId)}${encodeURIComponent(cohortId)}/`) }),
  /** A page of the cohort's members, with their stored person. */
  members: (projectId: number, cohortId: string, page: number, pageSize: number) =>
    queryOptions({
      queryKey: cohortKeys.memberPage(projectId, cohortId, page),
      queryFn: () =>
        api.get<Page<CohortMember>>(`${base(projectId)}${encodeURIComponent(cohortId)}/persons/${qs({ limit: pageSize, offset: (page - 1) * pageSize })}`),
      placeholderData: keepPreviousData,
    }),
};

/** Where the distinct ids of a static cohort come from: a list, or a CSV file's text (one id a line, or a `distinct_id` column). */
export type DistinctIds = { ids: string[] } | { csv: string };

export const cohortApi = {
  create: (projectId: number, body: Record<string, unknown>, ids?: DistinctIds) =>
    ids && 'csv' in ids
      ? api.sendText<Cohort>('POST', `${base(projectId)}${qs({ name: String(body.name ?? '') })}`, ids.csv, 'text/csv')
      : api.post<Cohort>(base(projectId), ids ? { ...body, distinct_ids: ids.ids } : body),
  update: (projectId: number, cohortId: number | string, body: object) => api.patch<Cohort>(`${base(projectId)}${cohortId}/`, body),
  /** Soft delete (PostHog's `deleted: true`); 409 while a flag or another cohort uses it. */
  remove: (projectId: number, cohortId: number | string) => api.patch<Cohort>(`${base(projectId)}${cohortId}/`, { deleted: true }),
  /** Adds distinct ids to a static cohort (or removes them). */
  changeMembers: (projectId: number, cohortId: number | string, ids: DistinctIds, add: boolean) => {
    const path = `${base(projectId)}${cohortId}/members/`;
    const method = add ? 'POST' : 'DELETE';
    return 'csv' in ids
      ? api.sendText<Cohort>(method, path, ids.csv, 'text/csv')
      : api.sendText<Cohort>(method, path, JSON.stringify({ distinct_ids: ids.ids }), 'application/json');
  },
};

/** After a change to the project's cohorts: every list (and the pickers) read them again. */
export const cohortsChanged = (queryClient: QueryClient, projectId: number) => queryClient.invalidateQueries({ queryKey: cohortKeys.lists(projectId) });

/** After a cohort was saved: its page shows it at once, its members and every list read again. */
export function cohortSaved(queryClient: QueryClient, projectId: number, cohort: Cohort) {
  queryClient.setQueryData(cohortQueries.detail(projectId, String(cohort.id)).queryKey, cohort);
  void queryClient.invalidateQueries({ queryKey: cohortKeys.members(projectId, String(cohort.id)) });
  return cohortsChanged(queryClient, projectId);
}
