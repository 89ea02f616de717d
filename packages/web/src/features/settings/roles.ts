import { ROLES as ALL_ROLES, type Role } from '../../api/types';

/** The roles, from least to most rights, as the pickers list them (the API's enum, in its order). */
export const ROLES: Role[] = [...ALL_ROLES];
