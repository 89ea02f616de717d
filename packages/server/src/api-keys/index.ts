import type { Core, ServerModule } from '../module';
import { personalApiKeyRoutes } from './routes';
import { ApiKeyService } from './service';

/** Personal API keys: made, listed and revoked by their users (and by admins), verified on every request that sends one. */
export const apiKeysModule = {
  name: 'api-keys',
  services: ({ db }: Pick<Core, 'db'>) => ({ keys: new ApiKeyService(db.kysely) }),
  routes: personalApiKeyRoutes,
  activityKinds: { PersonalAPIKey: { object: 'personal_api_key', organization: true } },
} satisfies ServerModule;
