import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { api } from './client';
import type { EarlyAccessFeature, FeatureFlag, GroupType, Me, Member, Page, Project } from './types';

export const meQuery = { queryKey: ['me'], queryFn: () => api.get<Me>('/api/users/@me', { redirectOn401: false }), retry: false, staleTime: 60_000 };

/** The signed-in user (the app's layout loads it before any page). */
export const useMe = () => useQuery(meQuery);

export const useProjects = () => useQuery({ queryKey: ['projects'], queryFn: () => api.get<Page<Project>>('/api/projects/?limit=200'), staleTime: 60_000 });

/** Every early access feature of a project (as the list page shows them). */
export const useEarlyAccessFeatures = (projectId: number) =>
  useQuery({
    queryKey: ['early_access', projectId],
    queryFn: () => api.get<Page<EarlyAccessFeature>>(`/api/projects/${projectId}/early_access_feature/?limit=500`),
  });

/** The flags of a project, up to 500, for pickers. */
export const useAllFlags = (projectId: number, enabled = true) =>
  useQuery({
    queryKey: ['feature_flags', projectId, 'all'],
    queryFn: () => api.get<Page<FeatureFlag>>(`/api/projects/${projectId}/feature_flags/?limit=500`),
    enabled,
  });
/** The names of the project's person properties (of its newest persons), for pickers: the app's own first, the SDKs' (`$…`) after. */
export const usePersonPropertyNames = (projectId: number) =>
  useQuery({
    queryKey: ['person_property_names', projectId],
    queryFn: () => api.get<{ results: string[] }>(`/api/projects/${projectId}/person_property_names/`),
    select: ({ results }) => [...results.filter((name) => !name.startsWith('$')), ...results.filter((name) => name.startsWith('$'))],
    staleTime: 60_000,
  });

/** The project's group types by index. */
export const useGroupTypes = (projectId: number) =>
  useQuery({
    queryKey: ['group_types', projectId],
    queryFn: () => api.get<{ results: GroupType[] }>(`/api/projects/${projectId}/group_types/`),
    staleTime: 60_000,
  });

/** A group type's name, by its index (flags name it by index): "company", or "group type 3" when the project has none. */
export const groupTypeName = (types: GroupType[] | undefined, index: number) =>
  types?.find((t) => t.group_type_index === index)?.group_type ?? `group type ${index}`;

/** The organization's members (every role may read them). */
export const useMembers = () => useQuery({ queryKey: ['members'], queryFn: () => api.get<{ results: Member[] }>('/api/organization/members/') });

/** The project of the URL (`/project/:projectId/...`). */
export function useProjectId(): number {
  const { projectId } = useParams({ strict: false }) as { projectId?: string };
  return Number(projectId);
}

/** The project of the URL, with its token. */
export function useProject() {
  const id = useProjectId();
  const projects = useProjects();
  return { ...projects, project: projects.data?.results.find((p) => p.id === id) };
}

/** Roles that may change things (the API enforces it; the app hides what would be refused). */
export const canWrite = (me: Me | undefined) => me?.role !== 'viewer';
export const isAdmin = (me: Me | undefined) => me?.role === 'admin' || me?.role === 'owner';
