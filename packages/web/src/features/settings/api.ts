import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { sessionKeys } from '../../api/hooks';
import type {
  CreatedInvite,
  CreatedPersonalApiKey,
  CreatedWebhook,
  Invite,
  Page,
  PasswordReset,
  PersonalApiKey,
  Project,
  Role,
  Webhook,
  WebhookDelivery,
} from '../../api/types';

const webhooksPath = (projectId: number) => `/api/projects/${projectId}/webhooks/`;

export const settingsKeys = {
  invites: ['invites'] as const,
  keys: ['personal_api_keys'] as const,
  webhooks: (projectId: number) => ['webhooks', projectId] as const,
  deliveries: (projectId: number, webhookId: string) => ['deliveries', `${webhooksPath(projectId)}${webhookId}/deliveries/`] as const,
};

export const settingsQueries = {
  /** The organization's open invites (admins only). */
  invites: () => queryOptions({ queryKey: settingsKeys.invites, queryFn: () => api.get<{ results: Invite[] }>('/api/organization/invites/') }),
  /** The personal API keys the user may see: their own, and for admins everyone's. */
  keys: () => queryOptions({ queryKey: settingsKeys.keys, queryFn: () => api.get<{ results: PersonalApiKey[] }>('/api/personal_api_keys/') }),
  webhooks: (projectId: number) => queryOptions({ queryKey: settingsKeys.webhooks(projectId), queryFn: () => api.get<Page<Webhook>>(webhooksPath(projectId)) }),
  /** A webhook's last 20 deliveries. */
  deliveries: (projectId: number, webhookId: string) =>
    queryOptions({
      queryKey: settingsKeys.deliveries(projectId, webhookId),
      queryFn: () => api.get<Page<WebhookDelivery>>(`${webhooksPath(projectId)}${webhookId}/deliveries/?limit=20`),
    }),
};

export const settingsApi = {
  renameProject: (projectId: number, name: string) => api.patch<Project>(`/api/projects/${projectId}/`, { name }),
  createProject: (name: string) => api.post<Project>('/api/projects/', { name }),
  setRole: (userId: number, role: Role) => api.patch(`/api/organization/members/${userId}/`, { role }),
  removeMember: (userId: number) => api.delete(`/api/organization/members/${userId}/`),
  /** A single-use link that sets the member's password, shown once. */
  passwordReset: (userId: number) => api.post<PasswordReset>(`/api/organization/members/${userId}/password_reset/`),
  /** Changes the signed-in user's own password (their other sessions end). */
  changePassword: (body: { current_password: string; password: string }) => api.post('/api/users/@me/password/', body),
  invite: (body: { role: Role; email?: string }) => api.post<CreatedInvite>('/api/organization/invites/', body),
  revokeInvite: (id: string) => api.delete(`/api/organization/invites/${id}/`),
  createKey: (body: { label: string; scopes: string[]; project_ids?: number[] }) => api.post<CreatedPersonalApiKey>('/api/personal_api_keys/', body),
  revokeKey: (id: string) => api.delete(`/api/personal_api_keys/${id}/`),
  createWebhook: (projectId: number, body: { url: string; kinds: string[] }) => api.post<CreatedWebhook>(webhooksPath(projectId), body),
  setWebhookEnabled: (projectId: number, id: string, enabled: boolean) => api.patch(`${webhooksPath(projectId)}${id}/`, { enabled }),
  removeWebhook: (projectId: number, id: string) => api.delete(`${webhooksPath(projectId)}${id}/`),
};

/** After a project was made or renamed: the project switcher and settings read the projects again. */
export const projectsChanged = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: sessionKeys.projects });

export const membersChanged = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: sessionKeys.members });
export const invitesChanged = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: settingsKeys.invites });

export const keysChanged = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: settingsKeys.keys });
export const webhooksChanged = (queryClient: QueryClient, projectId: number) => queryClient.invalidateQueries({ queryKey: settingsKeys.webhooks(projectId) });
