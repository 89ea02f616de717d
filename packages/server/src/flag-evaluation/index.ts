import type { Core, ServerModule } from '../module';
import { FlagDefinitionsCache } from './definitions';
import { flagsRoutes } from './routes';
import { FlagsService } from './service';

/** Flag evaluation: `/flags` and `/decide` for the SDKs (at the app's front door), remote config, and definitions for local evaluation. */
export const flagEvaluationModule = {
  name: 'flag-evaluation',
  services: ({ db, changes, config }: Pick<Core, 'db' | 'changes' | 'config'>) => ({
    flagsEvaluation: new FlagsService(db, new FlagDefinitionsCache(db.kysely, changes, config.flagCacheProjects)),
  }),
  routes: flagsRoutes,
} satisfies ServerModule;
