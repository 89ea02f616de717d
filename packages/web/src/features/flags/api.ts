import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { FeatureFlag, FeatureFlagDetail, FlagDetail, Page, ScheduledChange, ScheduledChangePayload } from '../../api/types';

const base = (projectId: number) => `/api/projects/${projectId}/feature_flags/`;

/** The list's filters, as `GET …/feature_flags/` takes them. */
export interface FlagFilters {
  search?: string;
  active?: string;
  type?: string;
  has_early_access?: string;
}

/** The cache keys of flags: every list of a project's flags starts with `lists(projectId)`. */
export const flagKeys = {
  lists: (projectId: number) => ['feature_flags', projectId] as const,
  list: (projectId: number, filters: FlagFilters, page: number) => ['feature_flags', projectId, filters, page] as const,
  all: (projectId: number) => ['feature_flags', projectId, 'all'] as const,
  multivariant: (projectId: number) => ['feature_flags', projectId, 'multivariant'] as const,
  detail: (projectId: number, flagId: string) => ['feature_flag', projectId, flagId] as const,
  schedule: (projectId: number, flagId: number) => ['feature_flag', projectId, String(flagId), 'scheduled_changes'] as const,
};

export const flagQueries = {
  /** A page of the flag list. */
  list: (projectId: number, filters: FlagFilters, page: number, pageSize: number) =>
    queryOptions({
      queryKey: flagKeys.list(projectId, filters, page),
      queryFn: ({ signal }) =>
        api.get<Page<FeatureFlag>>(`${base(projectId)}${qs({ ...filters, limit: pageSize, offset: (page - 1) * pageSize })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  /** The flags of a project, up to 500, for pickers. */
  all: (projectId: number) => queryOptions({ queryKey: flagKeys.all(projectId), queryFn: () => api.get<Page<FeatureFlag>>(`${base(projectId)}?limit=500`) }),
  /** The multivariate flags an experiment can start from. */
  multivariant: (projectId: number) =>
    queryOptions({ queryKey: flagKeys.multivariant(projectId), queryFn: () => api.get<Page<FeatureFlag>>(`${base(projectId)}?type=multivariant&limit=200`) }),
  /** One flag, with what uses it. */
  detail: (projectId: number, flagId: string) =>
    queryOptions({
      queryKey: flagKeys.detail(projectId, flagId),
      queryFn: () => api.get<FeatureFlagDetail>(`${base(projectId)}${encodeURIComponent(flagId)}/`),
    }),
};

export const flagApi = {
  create: (projectId: number, body: object) => api.post<FeatureFlag>(base(projectId), body),
  update: (projectId: number, id: number | string, body: object) => api.patch<FeatureFlag>(`${base(projectId)}${id}/`, body),
  /** Soft delete: the flag answers for nobody, its key may be used again. */
  remove: (projectId: number, id: number | string) => api.patch(`${base(projectId)}${id}/`, { deleted: true }),
  /** What `/flags?v=2` answers for one distinct id, as an SDK would ask. */
  evaluate: (body: { token: string; distinct_id: string; person_properties?: object }) =>
    api.post<{ flags?: Record<string, FlagDetail>; errorsWhileComputingFlags?: boolean }>('/flags/?v=2', body),
};

/** After a change to the project's flags: every list reads them again. */
export const flagsChanged = (queryClient: QueryClient, projectId: number) => queryClient.invalidateQueries({ queryKey: flagKeys.lists(projectId) });

/** After a flag was saved: its page shows it at once (what uses it stays until read again), and every list reads again. */
export function flagSaved(queryClient: QueryClient, projectId: number, flagId: string, saved: FeatureFlag) {
  queryClient.setQueryData(flagQueries.detail(projectId, flagId).queryKey, (old) => ({ used_by: old?.used_by ?? [], ...saved }));
  return flagsChanged(queryClient, projectId);
}

const scheduleBase = (projectId: number, flagId: number) => `${base(projectId)}${flagId}/scheduled_changes/`;

export const scheduleQueries = {
  /** A flag's scheduled changes, soonest first (up to 200). */
  list: (projectId: number, flagId: number) =>
    queryOptions({
      queryKey: flagKeys.schedule(projectId, flagId),
      queryFn: ({ signal }) => api.get<Page<ScheduledChange>>(`${scheduleBase(projectId, flagId)}?limit=200`, { signal }),
    }),
};

export const scheduleApi = {
  /** One change (`{scheduled_at, payload}`) or a ramp (`{ramp: [{scheduled_at, rollout_percentage}]}`). */
  create: (projectId: number, flagId: number, body: object) => api.post<{ results: ScheduledChange[] }>(scheduleBase(projectId, flagId), body),
  /** A pending change's new time and/or payload (replacing the one it has). */
  update: (projectId: number, flagId: number, id: number, body: { scheduled_at?: string; payload?: ScheduledChangePayload }) =>
    api.patch<ScheduledChange>(`${scheduleBase(projectId, flagId)}${id}/`, body),
  cancel: (projectId: number, flagId: number, id: number) => api.delete(`${scheduleBase(projectId, flagId)}${id}/`),
};
