import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { EarlyAccessFeature, Enrollments, EnrollmentsPerDay, Page } from '../../api/types';

const base = (projectId: number) => `/api/projects/${projectId}/early_access_feature/`;
const enrollmentsPath = (projectId: number, featureId: string) => `${base(projectId)}${featureId}/enrollments/`;

/** Whose enrollments a list shows: those opted in, or those opted out. */
export type EnrollmentFilter = 'enrolled' | 'opted_out';

/** The cache keys of early access: a feature's enrollments (its lists and its chart) all start with `enrollments(…)`. */
export const earlyAccessKeys = {
  list: (projectId: number) => ['early_access', projectId] as const,
  detail: (projectId: number, featureId: string) => ['early_access_feature', projectId, featureId] as const,
  enrollments: (projectId: number, featureId: string) => ['enrollments', projectId, featureId] as const,
  enrollmentPage: (projectId: number, featureId: string, filter: EnrollmentFilter, page: number) =>
    ['enrollments', projectId, featureId, filter, page] as const,
  perDay: (projectId: number, featureId: string) => ['enrollments', projectId, featureId, 'per_day'] as const,
};

export const earlyAccessQueries = {
  /** Every early access feature of a project (as the list page shows them). */
  list: (projectId: number) =>
    queryOptions({ queryKey: earlyAccessKeys.list(projectId), queryFn: () => api.get<Page<EarlyAccessFeature>>(`${base(projectId)}?limit=500`) }),
  detail: (projectId: number, featureId: string) =>
    queryOptions({
      queryKey: earlyAccessKeys.detail(projectId, featureId),
      queryFn: () => api.get<EarlyAccessFeature>(`${base(projectId)}${encodeURIComponent(featureId)}/`),
    }),
  /** A page of the people opted in (or out), with the feature's counts. */
  enrollments: (projectId: number, featureId: string, filter: EnrollmentFilter, page: number, pageSize: number) =>
    queryOptions({
      queryKey: earlyAccessKeys.enrollmentPage(projectId, featureId, filter, page),
      queryFn: () =>
        api.get<Enrollments>(
          `${enrollmentsPath(projectId, featureId)}${qs({ enrolled: filter === 'enrolled', limit: pageSize, offset: (page - 1) * pageSize })}`,
        ),
      placeholderData: keepPreviousData,
    }),
  /** The feature's opt-ins and opt-outs per day, last 30 days. */
  perDay: (projectId: number, featureId: string) =>
    queryOptions({
      queryKey: earlyAccessKeys.perDay(projectId, featureId),
      queryFn: () => api.get<EnrollmentsPerDay>(`${enrollmentsPath(projectId, featureId)}per_day/?days=30`),
    }),
};

export const earlyAccessApi = {
  create: (projectId: number, body: object) => api.post<EarlyAccessFeature>(base(projectId), body),
  update: (projectId: number, featureId: string, body: object) => api.patch<EarlyAccessFeature>(`${base(projectId)}${featureId}/`, body),
  remove: (projectId: number, featureId: string) => api.delete(`${base(projectId)}${featureId}/`),
  /** Opts a person in or out, as the person would from the app. */
  enroll: (projectId: number, featureId: string, body: { distinct_id: string; enrolled: boolean }) => api.post(enrollmentsPath(projectId, featureId), body),
};

/** After a change to the project's features: the list reads them again. */
export const featuresChanged = (queryClient: QueryClient, projectId: number) => queryClient.invalidateQueries({ queryKey: earlyAccessKeys.list(projectId) });

/** After a feature was saved: its page shows it at once, and the list reads again. */
export function featureSaved(queryClient: QueryClient, projectId: number, feature: EarlyAccessFeature) {
  queryClient.setQueryData(earlyAccessQueries.detail(projectId, feature.id).queryKey, feature);
  return featuresChanged(queryClient, projectId);
}

/** After someone was opted in or out: the feature's lists, counts and chart read again. */
export const enrollmentsChanged = (queryClient: QueryClient, projectId: number, featureId: string) =>
  queryClient.invalidateQueries({ queryKey: earlyAccessKeys.enrollments(projectId, featureId) });
