import type { ApiKeyService } from '../api-keys/service';
import type { Core, ServerModule } from '../module';
import { PasswordService } from './password-service';
import { userRoutes } from './routes';
import { UserService } from './service';
import { SessionService } from './sessions';

/** Accounts: the organization's members and invites, logins and their sessions. */
export const usersModule = {
  name: 'users',
  services: ({ db, keys }: Pick<Core, 'db'> & { keys: ApiKeyService }) => ({
    users: new UserService(db.kysely, keys),
    sessions: new SessionService(db.kysely),
    passwords: new PasswordService(db.kysely),
  }),
  routes: userRoutes,
  activityKinds: {
    OrganizationMembership: { object: 'organization_member', organization: true },
    OrganizationInvite: { object: 'organization_member', organization: true },
  },
} satisfies ServerModule;
