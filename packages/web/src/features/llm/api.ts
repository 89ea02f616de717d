import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, qs, request } from '../../api/client';
import type { Page } from '../../api/types';
import type { GenerationPage, Prompt, PromptPage, PromptVersion, Trace, TraceNode, TraceSummaryPage, Usage } from './types';

const base = (projectId: number) => `/api/projects/${projectId}/llm/`;
const promptsBase = (projectId: number) => `/api/projects/${projectId}/llm_prompts/`;
const promptPath = (projectId: number, id: string) => `${promptsBase(projectId)}${encodeURIComponent(id)}/`;

/** The filters `GET …/llm/generations/`, `…/llm/traces/` and `…/llm/usage/` take (each reads the ones it knows). */
export type LlmFilters = Partial<
  Record<'model' | 'provider' | 'trace_id' | 'person_id' | 'distinct_id' | 'is_error' | 'cost_min' | 'date_from' | 'date_to', string>
>;

/** A stored event with its properties, as `GET …/events/` gives it. */
interface StoredEvent {
  id: string;
  event: string;
  properties: Record<string, unknown>;
  timestamp: string;
}

export const llmKeys = {
  all: (projectId: number) => ['llm', projectId] as const,
  prompts: (projectId: number) => ['llm_prompts', projectId] as const,
};

export const llmQueries = {
  usage: (projectId: number, filters: LlmFilters) =>
    queryOptions({
      queryKey: [...llmKeys.all(projectId), 'usage', filters],
      queryFn: ({ signal }) => api.get<Usage>(`${base(projectId)}usage/${qs({ ...filters, interval: 'day', by: 'model' })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  generations: (projectId: number, filters: LlmFilters, page: number, pageSize: number) =>
    queryOptions({
      queryKey: [...llmKeys.all(projectId), 'generations', filters, page, pageSize],
      queryFn: ({ signal }) =>
        api.get<GenerationPage>(`${base(projectId)}generations/${qs({ ...filters, limit: pageSize, offset: (page - 1) * pageSize })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  traces: (projectId: number, filters: LlmFilters, page: number, pageSize: number) =>
    queryOptions({
      queryKey: [...llmKeys.all(projectId), 'traces', filters, page, pageSize],
      queryFn: ({ signal }) =>
        api.get<TraceSummaryPage>(`${base(projectId)}traces/${qs({ ...filters, limit: pageSize, offset: (page - 1) * pageSize })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  trace: (projectId: number, traceId: string) =>
    queryOptions({
      queryKey: [...llmKeys.all(projectId), 'trace', traceId],
      queryFn: ({ signal }) => api.get<Trace>(`${base(projectId)}traces/${encodeURIComponent(traceId)}/`, { signal }),
    }),
  /**
   * A node's stored event, for its input and output when its trace left its properties out (past the trace's byte
   * budget). Read from the events API by the trace id and the node's exact time, then picked by uuid.
   */
  event: (projectId: number, node: Pick<TraceNode, 'id' | 'trace_id' | 'timestamp'>) =>
    queryOptions({
      queryKey: [...llmKeys.all(projectId), 'event', node.id],
      queryFn: async ({ signal }) => {
        const at = Date.parse(node.timestamp);
        const page = await api.get<Page<StoredEvent>>(
          `/api/projects/${projectId}/events/${qs({
            properties: JSON.stringify([{ key: '$ai_trace_id', value: node.trace_id }]),
            after: new Date(at - 1).toISOString(),
            before: new Date(at + 1).toISOString(),
            limit: 1000,
          })}`,
          { signal },
        );
        return page.results.find((e) => e.id === node.id) ?? null;
      },
      staleTime: Infinity,
    }),
  prompts: (projectId: number, search: string, page: number, pageSize: number) =>
    queryOptions({
      queryKey: [...llmKeys.prompts(projectId), 'list', search, page, pageSize],
      queryFn: ({ signal }) =>
        api.get<PromptPage>(`${promptsBase(projectId)}${qs({ search: search || undefined, limit: pageSize, offset: (page - 1) * pageSize })}`, { signal }),
      placeholderData: keepPreviousData,
    }),
  prompt: (projectId: number, id: string) =>
    queryOptions({ queryKey: [...llmKeys.prompts(projectId), 'detail', id], queryFn: () => api.get<Prompt>(promptPath(projectId, id)) }),
  versions: (projectId: number, id: string) =>
    queryOptions({
      queryKey: [...llmKeys.prompts(projectId), 'detail', id, 'versions'],
      queryFn: () => api.get<{ results: PromptVersion[] }>(`${promptPath(projectId, id)}versions/`),
    }),
};

export interface PromptInput {
  prompt: string;
  config?: Record<string, unknown> | null;
  labels?: string[];
}

export const promptApi = {
  create: (projectId: number, body: PromptInput & { name: string }) => api.post<Prompt>(promptsBase(projectId), body),
  addVersion: (projectId: number, id: string, body: PromptInput) => api.post<Prompt>(`${promptPath(projectId, id)}versions/`, body),
  setLabel: (projectId: number, id: string, label: string, version: number) =>
    request<Prompt>('PUT', `${promptPath(projectId, id)}labels/${encodeURIComponent(label)}/`, { version }),
  removeLabel: (projectId: number, id: string, label: string) => api.delete(`${promptPath(projectId, id)}labels/${encodeURIComponent(label)}/`),
  remove: (projectId: number, id: string) => api.delete(promptPath(projectId, id)),
};

/** After a prompt changed: its lists and its page read again. */
export const promptsChanged = (queryClient: QueryClient, projectId: number) => queryClient.invalidateQueries({ queryKey: llmKeys.prompts(projectId) });
