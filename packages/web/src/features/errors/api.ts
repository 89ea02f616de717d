import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { Page } from '../../api/types';
import type { AffectedPerson, ErrorEvent, ErrorIssue, IssueDetail, IssueStatus, IssueVolume } from './types';

const base = (projectId: number) => `/api/projects/${projectId}/error_tracking/issues/`;
const issuePath = (projectId: number, issueId: string) => `${base(projectId)}${encodeURIComponent(issueId)}/`;

/** The issue list's filters, as `GET …/error_tracking/issues/` takes them. */
export interface IssueFilters {
  status?: string;
  order_by?: string;
  search?: string;
}

/** The cache keys of error tracking: every list of a project's issues starts with `lists(projectId)`. */
export const errorKeys = {
  lists: (projectId: number) => ['error_issues', projectId] as const,
  list: (projectId: number, filters: IssueFilters, page: number) => ['error_issues', projectId, filters, page] as const,
  any: (projectId: number) => ['error_issues', projectId, 'any'] as const,
  mergeCandidates: (projectId: number, search: string) => ['error_issues', projectId, 'merge', search] as const,
  detail: (projectId: number, issueId: string) => ['error_issue', projectId, issueId] as const,
  volume: (projectId: number, issueId: string, days?: string) => ['error_issue_volume', projectId, issueId, ...(days === undefined ? [] : [days])] as const,
  people: (projectId: number, issueId: string, limit?: number) => ['error_issue_people', projectId, issueId, ...(limit === undefined ? [] : [limit])] as const,
  events: (projectId: number, issueId: string, limit?: number) => ['error_issue_events', projectId, issueId, ...(limit === undefined ? [] : [limit])] as const,
};

export const errorQueries = {
  list: (projectId: number, filters: IssueFilters, page: number, pageSize: number) =>
    queryOptions({
      queryKey: errorKeys.list(projectId, filters, page),
      queryFn: ({ signal }) => api.get<Page<ErrorIssue>>(`${base(projectId)}${qs({ ...filters, limit: pageSize, offset: (page - 1) * pageSize })}`, { signal }),
      placeholderData: keepPreviousData,
      // Errors keep arriving: a filter switched back to shows what is new, not what it showed a moment ago.
      staleTime: 0,
    }),
  /** Whether the project has any issue at all (of any status). */
  any: (projectId: number) => queryOptions({ queryKey: errorKeys.any(projectId), queryFn: () => api.get<Page<ErrorIssue>>(`${base(projectId)}?limit=1`) }),
  /** Issues to merge into another, by a search. */
  mergeCandidates: (projectId: number, search: string) =>
    queryOptions({
      queryKey: errorKeys.mergeCandidates(projectId, search),
      queryFn: () => api.get<Page<ErrorIssue>>(`${base(projectId)}${qs({ search: search.trim() || undefined, limit: 20 })}`),
      placeholderData: keepPreviousData,
    }),
  detail: (projectId: number, issueId: string) =>
    queryOptions({ queryKey: errorKeys.detail(projectId, issueId), queryFn: () => api.get<IssueDetail>(issuePath(projectId, issueId)), staleTime: 0 }),
  volume: (projectId: number, issueId: string, days: string) =>
    queryOptions({
      queryKey: errorKeys.volume(projectId, issueId, days),
      queryFn: () => api.get<IssueVolume>(`${issuePath(projectId, issueId)}volume/${qs({ days })}`),
      placeholderData: keepPreviousData,
    }),
  people: (projectId: number, issueId: string, limit: number) =>
    queryOptions({
      queryKey: errorKeys.people(projectId, issueId, limit),
      queryFn: () => api.get<Page<AffectedPerson>>(`${issuePath(projectId, issueId)}people/${qs({ limit })}`),
      placeholderData: keepPreviousData,
    }),
  events: (projectId: number, issueId: string, limit: number) =>
    queryOptions({
      queryKey: errorKeys.events(projectId, issueId, limit),
      queryFn: () => api.get<Page<ErrorEvent>>(`${issuePath(projectId, issueId)}events/${qs({ limit })}`),
      placeholderData: keepPreviousData,
    }),
};

export const errorApi = {
  setStatus: (projectId: number, issueId: string, status: IssueStatus) => api.patch<ErrorIssue>(issuePath(projectId, issueId), { status }),
  /** Merges the issues `ids` into the issue: their fingerprints and occurrences become its. */
  merge: (projectId: number, issueId: string, ids: string[]) => api.post<ErrorIssue>(`${base(projectId)}${issueId}/merge/`, { ids }),
};

/** After an issue changed: its page shows it at once, and every list reads again. */
export function issueSaved(queryClient: QueryClient, projectId: number, issueId: string, next: ErrorIssue) {
  queryClient.setQueryData(errorQueries.detail(projectId, issueId).queryKey, (old) => (old ? { ...old, ...next } : old));
  return queryClient.invalidateQueries({ queryKey: errorKeys.lists(projectId) });
}

/** After other issues were merged into one: its volume, people and occurrences read again. */
export function issueMerged(queryClient: QueryClient, projectId: number, issueId: string) {
  for (const key of [errorKeys.volume(projectId, issueId), errorKeys.people(projectId, issueId), errorKeys.events(projectId, issueId)])
    void queryClient.invalidateQueries({ queryKey: key });
}
