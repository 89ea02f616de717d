import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, qs } from '../../api/client';
import type { FlagDetail, GroupType, Page, Person } from '../../api/types';

const base = (projectId: number) => `/api/projects/${projectId}/persons/`;

/** How the people list searches: in distinct ids, or in property values. */
export type PersonSearch = { by: 'distinct_id' | 'property'; q?: string };

/** A distinct id from the address: as it was encoded, or as it stands when it is no valid encoding. */
export const safeDecode = (raw: string) => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

export const personKeys = {
  list: (projectId: number, { by, q }: PersonSearch, page: number) => ['persons', projectId, by, q, page] as const,
  detail: (projectId: number, distinctId: string) => ['person', projectId, distinctId] as const,
  flags: (projectId: number | undefined, distinctId: string) => ['person_flags', projectId, distinctId] as const,
  propertyNames: (projectId: number) => ['person_property_names', projectId] as const,
  groupTypes: (projectId: number) => ['group_types', projectId] as const,
};

export const personApi = {
  /** The person behind a distinct id (a page of at most one). */
  byDistinctId: (projectId: number, distinctId: string) => api.get<Page<Person>>(`${base(projectId)}${qs({ distinct_id: distinctId, limit: 1 })}`),
};

export const personQueries = {
  list: (projectId: number, { by, q }: PersonSearch, page: number, pageSize: number) =>
    queryOptions({
      queryKey: personKeys.list(projectId, { by, q }, page),
      queryFn: () =>
        api.get<Page<Person>>(
          `${base(projectId)}${qs({ ...(q ? (by === 'distinct_id' ? { distinct_id: q } : { search: q }) : {}), limit: pageSize, offset: (page - 1) * pageSize })}`,
        ),
      placeholderData: keepPreviousData,
    }),
  /** The person behind a distinct id, or null when nobody has it. */
  detail: (projectId: number, distinctId: string) =>
    queryOptions({
      queryKey: personKeys.detail(projectId, distinctId),
      queryFn: async () => (await api.get<Page<Person>>(`${base(projectId)}${qs({ distinct_id: distinctId })}`)).results[0] ?? null,
    }),
  /** What every flag answers for the distinct id now, through `/flags?v=2` with the project's token. */
  flags: (project: { id: number; api_token: string } | undefined, distinctId: string) =>
    queryOptions({
      queryKey: personKeys.flags(project?.id, distinctId),
      queryFn: () => api.post<{ flags?: Record<string, FlagDetail> }>('/flags/?v=2', { token: project!.api_token, distinct_id: distinctId }),
      enabled: !!project,
    }),
  /** The names of the project's person properties (of its newest persons), for pickers: the app's own first, the SDKs' (`$…`) after. */
  propertyNames: (projectId: number) =>
    queryOptions({
      queryKey: personKeys.propertyNames(projectId),
      queryFn: () => api.get<{ results: string[] }>(`/api/projects/${projectId}/person_property_names/`),
      select: ({ results }) => [...results.filter((name) => !name.startsWith('$')), ...results.filter((name) => name.startsWith('$'))],
      staleTime: 60_000,
    }),
  /** The project's group types by index. */
  groupTypes: (projectId: number) =>
    queryOptions({
      queryKey: personKeys.groupTypes(projectId),
      queryFn: () => api.get<{ results: GroupType[] }>(`/api/projects/${projectId}/group_types/`),
      staleTime: 60_000,
    }),
};

/** A group type's name, by its index (flags name it by index): "company", or "group type 3" when the project has none. */
export const groupTypeName = (types: GroupType[] | undefined, index: number) =>
  types?.find((t) => t.group_type_index === index)?.group_type ?? `group type ${index}`;
