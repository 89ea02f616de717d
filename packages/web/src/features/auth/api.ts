import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, setCsrfToken } from '../../api/client';
import { sessionKeys } from '../../api/hooks';
import type { InviteInfo, Me, PasswordResetInfo } from '../../api/types';

export const authKeys = {
  setup: ['setup'] as const,
  invite: (token: string) => ['invite', token] as const,
  passwordReset: (token: string) => ['password_reset', token] as const,
};

export const authQueries = {
  /** Whether the service has no account yet (then the first sign-up makes its owner). */
  setup: () => queryOptions({ queryKey: authKeys.setup, queryFn: () => api.get<{ needs_first_account: boolean }>('/api/setup'), retry: false }),
  /** What an invite link is for: its organization and role (401s here are the link's, not a lost session). */
  invite: (token: string) =>
    queryOptions({
      queryKey: authKeys.invite(token),
      queryFn: () => api.get<InviteInfo>(`/api/invites/${encodeURIComponent(token)}`, { redirectOn401: false }),
      retry: false,
    }),
  /** Whose password a reset link sets (a 404: the link was used, replaced or expired). */
  passwordReset: (token: string) =>
    queryOptions({
      queryKey: authKeys.passwordReset(token),
      queryFn: () => api.get<PasswordResetInfo>(`/api/password_resets/${encodeURIComponent(token)}`, { redirectOn401: false }),
      retry: false,
    }),
};

/** The account fields of a sign-up and of accepting an invite. */
export interface AccountFields {
  email: string;
  name: string;
  password: string;
  organization_name?: string;
}

export const authApi = {
  login: (body: { email: string; password: string }) => api.post<Me>('/api/login', body, { redirectOn401: false }),
  signup: (body: AccountFields) => api.post<Me>('/api/signup', body, { redirectOn401: false }),
  acceptInvite: (token: string, body: AccountFields) => api.post<Me>(`/api/invites/${encodeURIComponent(token)}/accept`, body, { redirectOn401: false }),
  /** Sets a new password with a reset link, and signs in. */
  resetPassword: (token: string, password: string) => api.post<Me>(`/api/password_resets/${encodeURIComponent(token)}`, { password }, { redirectOn401: false }),
  logout: () => api.post('/api/logout'),
};

/** A new session: its CSRF token for every change, and nothing cached from whoever was signed in before. */
export function signedIn(queryClient: QueryClient, me: Me) {
  setCsrfToken(me.csrf_token);
  queryClient.clear();
  queryClient.setQueryData(sessionKeys.me, me);
}
