import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { Page } from '../../api/types';
import type { Survey, SurveyResults, SurveyStatus } from './types';

const base = (projectId: number) => `/api/projects/${projectId}/surveys/`;
const surveyPath = (projectId: number, surveyId: string) => `${base(projectId)}${encodeURIComponent(surveyId)}/`;

/** Surveys on a page of the list. */
export const SURVEYS_PAGE = 25;
/** Open answers on a page of a question's answers. */
export const ANSWERS_PAGE = 10;

/** The list's filters, as `GET …/surveys/` takes them. */
export interface SurveyListFilters {
  search?: string;
  status?: SurveyStatus;
}

/** What the results are narrowed to, as `GET …/surveys/:id/results/` takes it. */
export interface ResultFilters {
  date_from?: string;
  date_to?: string;
  property_key?: string;
  property_value?: string;
  variant_flag?: string;
  variant?: string;
}

/** The cache keys of surveys: every list of a project's surveys starts with `lists(projectId)`, a survey's results with `results(…)`. */
export const surveyKeys = {
  lists: (projectId: number) => ['surveys', projectId] as const,
  list: (projectId: number, filters: SurveyListFilters, page: number) => ['surveys', projectId, filters, page] as const,
  detail: (projectId: number, surveyId: string) => ['survey', projectId, surveyId] as const,
  results: (projectId: number, surveyId: string) => ['survey_results', projectId, surveyId] as const,
  resultsBy: (projectId: number, surveyId: string, filters: ResultFilters, answers?: { question: string; offset: number }) =>
    ['survey_results', projectId, surveyId, filters, ...(answers ? [answers] : [])] as const,
  responseCount: (projectId: number, surveyId: string) => ['survey_results', projectId, surveyId, 'count'] as const,
};

export const surveyQueries = {
  list: (projectId: number, filters: SurveyListFilters, page: number) =>
    queryOptions({
      queryKey: surveyKeys.list(projectId, filters, page),
      queryFn: ({ signal }) =>
        api.get<Page<Survey>>(`${base(projectId)}${qs({ ...filters, limit: SURVEYS_PAGE, offset: (page - 1) * SURVEYS_PAGE })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  detail: (projectId: number, surveyId: string) =>
    queryOptions({ queryKey: surveyKeys.detail(projectId, surveyId), queryFn: () => api.get<Survey>(surveyPath(projectId, surveyId)) }),
  /** The results, narrowed by `filters`; with `answers`, that question's written answers from that offset on. */
  results: (projectId: number, surveyId: string, filters: ResultFilters, answers?: { question: string; offset: number }) =>
    queryOptions({
      queryKey: surveyKeys.resultsBy(projectId, surveyId, filters, answers),
      queryFn: ({ signal }) =>
        api.get<SurveyResults>(
          `${surveyPath(projectId, surveyId)}results/${qs({ ...filters, answers_limit: ANSWERS_PAGE, answers_question: answers?.question, answers_offset: answers?.offset })}`,
          { signal },
        ),
      placeholderData: keepPreviousData,
      // Answers keep arriving while a survey runs.
      staleTime: 0,
    }),
  /** How many sent it (the list's column): the results with as few answers as they take. */
  responseCount: (projectId: number, surveyId: string) =>
    queryOptions({
      queryKey: surveyKeys.responseCount(projectId, surveyId),
      queryFn: async ({ signal }) => {
        const results = await api.get<SurveyResults>(`${surveyPath(projectId, surveyId)}results/?answers_limit=1`, { signal });
        return { sent: results.counts.sent, shown: results.counts.shown, response_rate: results.response_rate };
      },
    }),
};

export const surveyApi = {
  create: (projectId: number, body: object) => api.post<Survey>(base(projectId), body),
  update: (projectId: number, surveyId: string, body: object) => api.patch<Survey>(surveyPath(projectId, surveyId), body),
  /** Starts it now: it shows to whoever matches its conditions. */
  launch: (projectId: number, surveyId: string) => api.post<Survey>(`${surveyPath(projectId, surveyId)}launch/`),
  /** Ends it now: nobody is shown it any more; its results stay. */
  stop: (projectId: number, surveyId: string) => api.post<Survey>(`${surveyPath(projectId, surveyId)}stop/`),
  /** Archives it (a soft delete): it leaves the list and stops showing; its results stay. */
  archive: (projectId: number, surveyId: string) => api.delete(surveyPath(projectId, surveyId)),
};

/** After a survey was saved: its page shows it at once, and every list and its results read again. */
export function surveySaved(queryClient: QueryClient, projectId: number, survey: Survey) {
  queryClient.setQueryData(surveyQueries.detail(projectId, survey.id).queryKey, survey);
  void queryClient.invalidateQueries({ queryKey: surveyKeys.lists(projectId) });
  void queryClient.invalidateQueries({ queryKey: surveyKeys.results(projectId, survey.id) });
}

/** After a survey was archived: it is gone from every list. */
export function surveyArchived(queryClient: QueryClient, projectId: number, surveyId: string) {
  queryClient.removeQueries({ queryKey: surveyKeys.detail(projectId, surveyId) });
  return queryClient.invalidateQueries({ queryKey: surveyKeys.lists(projectId) });
}
