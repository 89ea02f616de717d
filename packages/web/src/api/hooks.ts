import { queryOptions, useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { api } from './client';
import type { Me, Member, Page, Project } from './types';

/** What every page shares: the signed-in user, the projects, the organization's members. */
export const sessionKeys = {
  me: ['me'] as const,
  projects: ['projects'] as const,
  members: ['members'] as const,
};

export const meQuery = queryOptions({
  queryKey: sessionKeys.me,
  queryFn: () => api.get<Me>('/api/users/@me', { redirectOn401: false }),
  retry: false,
  staleTime: 60_000,
});
export const projectsQuery = queryOptions({
  queryKey: sessionKeys.projects,
  queryFn: () => api.get<Page<Project>>('/api/projects/?limit=200'),
  staleTime: 60_000,
});
export const membersQuery = queryOptions({ queryKey: sessionKeys.members, queryFn: () => api.get<{ results: Member[] }>('/api/organization/members/') });

/** The signed-in user (the app's layout loads it before any page). */
export const useMe = () => useQuery(meQuery);

export const useProjects = () => useQuery(projectsQuery);

/** The organization's members (every role may read them). */
export const useMembers = () => useQuery(membersQuery);

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
