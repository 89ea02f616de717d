import { SCOPE_OBJECTS, hasScope } from './scopes';

/** A member's role in the organization, from least to most rights. */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Objects only admins (and owners) change: the organization's members and invites, project settings, webhooks. */
const ADMIN_OBJECTS: readonly string[] = ['organization_member', 'project', 'webhook'];

/**
 * The scopes of each role: the one place that says what a role may do. A session has its role's scopes; a user's personal
 * API key has its own scopes, cut down to its user's role's. Every user manages their own personal API keys.
 * - viewer: every `<object>:read`;
 * - member: and writes every object but the admin ones (flags, early access features, events, persons, …);
 * - admin: and writes those too (members, invites, project settings, webhooks);
 * - owner: `*` (and only an owner makes or changes an owner).
 */
export const ROLE_SCOPES: Record<Role, readonly string[]> = {
  viewer: [...SCOPE_OBJECTS.map((o) => `${o}:read`), 'personal_api_key:write'],
  member: SCOPE_OBJECTS.map((o) => (ADMIN_OBJECTS.includes(o) ? `${o}:read` : `${o}:write`)),
  admin: SCOPE_OBJECTS.map((o) => `${o}:write`),
  owner: ['*'],
};

/** True when the role carries `scope`. */
export const roleHasScope = (role: Role, scope: string) => hasScope(ROLE_SCOPES[role] as string[], scope);

/** Whether one with (`owner`) or without an owner's rights may hand out `target` (invite with it, or set it): only owners make owners. */
export const grantable = (owner: boolean, target: Role) => target !== 'owner' || owner;
