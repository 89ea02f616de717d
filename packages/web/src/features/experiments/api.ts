import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { Page } from '../../api/types';
import { flagKeys, flagsChanged } from '../flags/api';
import type { Experiment, ExperimentResults, ExperimentStatus, Method } from './types';

const base = (projectId: number) => `/api/projects/${projectId}/experiments/`;

/** Experiments on a page of the list. */
export const EXPERIMENTS_PAGE = 25;

export const experimentKeys = {
  lists: (projectId: number) => ['experiments', projectId] as const,
  list: (projectId: number, page: number) => ['experiments', projectId, page] as const,
  all: (projectId: number) => ['experiments', projectId, 'all'] as const,
  detail: (projectId: number, experimentId: string) => ['experiment', projectId, experimentId] as const,
  results: (projectId: number, experimentId: number) => ['experiment_results', projectId, experimentId] as const,
  resultsBy: (projectId: number, experimentId: number, method: Method, sequential: boolean) =>
    ['experiment_results', projectId, experimentId, method, sequential] as const,
};

export const experimentQueries = {
  list: (projectId: number, page: number, pageSize: number) =>
    queryOptions({
      queryKey: experimentKeys.list(projectId, page),
      queryFn: ({ signal }) => api.get<Page<Experiment>>(`${base(projectId)}${qs({ limit: pageSize, offset: (page - 1) * pageSize })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  /** Every experiment of the project (up to 1,000), to know which flags are taken. */
  all: (projectId: number) =>
    queryOptions({ queryKey: experimentKeys.all(projectId), queryFn: () => api.get<Page<Experiment>>(`${base(projectId)}?limit=1000`) }),
  detail: (projectId: number, experimentId: string) =>
    queryOptions({
      queryKey: experimentKeys.detail(projectId, experimentId),
      queryFn: () => api.get<Experiment>(`${base(projectId)}${encodeURIComponent(experimentId)}/`),
    }),
  results: (projectId: number, experimentId: number, method: Method, sequential: boolean) =>
    queryOptions({
      queryKey: experimentKeys.resultsBy(projectId, experimentId, method, sequential),
      queryFn: ({ signal }) => api.get<ExperimentResults>(`${base(projectId)}${experimentId}/results/${qs({ method, sequential })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
};

export const experimentApi = {
  create: (projectId: number, body: object) => api.post<Experiment>(base(projectId), body),
  setStatus: (projectId: number, experimentId: string, status: ExperimentStatus) => api.patch<Experiment>(`${base(projectId)}${experimentId}/`, { status }),
  /** Everyone gets the variant from now on, and the experiment completes. */
  ship: (projectId: number, experimentId: number, variant: string) => api.post<Experiment>(`${base(projectId)}${experimentId}/ship/`, { variant }),
};

/** After an experiment was saved: its page shows it, lists and results read again, and so does its flag. */
export function experimentSaved(queryClient: QueryClient, projectId: number, e: Experiment) {
  queryClient.setQueryData(experimentQueries.detail(projectId, String(e.id)).queryKey, e);
  void queryClient.invalidateQueries({ queryKey: experimentKeys.lists(projectId) });
  void queryClient.invalidateQueries({ queryKey: experimentKeys.results(projectId, e.id) });
  // Its flag's page names it, and launching or shipping changes the flag.
  void queryClient.invalidateQueries({ queryKey: flagKeys.detail(projectId, String(e.feature_flag.id)) });
  void flagsChanged(queryClient, projectId);
}
