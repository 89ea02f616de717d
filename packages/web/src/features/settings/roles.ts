import type { Role } from '../../api/types';

/** The roles, from least to most rights, as the pickers list them. */
export const ROLES: Role[] = ['viewer', 'member', 'admin', 'owner'];
