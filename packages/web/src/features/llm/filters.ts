import type { LlmFilters } from './api';

/** The filters the LLM pages keep in their address, as the API names them. */
export const FILTER_NAMES = ['model', 'provider', 'trace_id', 'person_id', 'distinct_id', 'is_error', 'cost_min', 'date_from', 'date_to'] as const;

/** The filters from an address's search: `?is_error=true` comes parsed as a boolean, kept as text; blanks dropped. */
export const filtersOf = (search: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(search).map(([k, v]) => [k, typeof v === 'boolean' || typeof v === 'number' ? String(v) : v]));

/** The API filters among a page's search. */
export const llmFiltersOf = (search: Record<string, unknown>): LlmFilters =>
  Object.fromEntries(FILTER_NAMES.map((n) => [n, search[n]]).filter(([, v]) => typeof v === 'string' && v !== '')) as LlmFilters;

/** A page of the LLM section with filters in its address. */
export const llmUrl = (projectId: number, page: '' | 'generations' | 'traces', filters: LlmFilters = {}) => {
  const search = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])));
  return `/project/${projectId}/llm${page ? `/${page}` : ''}${search.size ? `?${search}` : ''}`;
};

export const traceUrl = (projectId: number, traceId: string, node?: string) =>
  `/project/${projectId}/llm/traces/${encodeURIComponent(traceId)}${node ? `?${new URLSearchParams({ node })}` : ''}`;

export const DATES = [
  { value: '-1d', label: 'Last 24 hours' },
  { value: '-7d', label: 'Last 7 days' },
  { value: '-14d', label: 'Last 14 days' },
  { value: '-30d', label: 'Last 30 days' },
  { value: '-90d', label: 'Last 90 days' },
];
