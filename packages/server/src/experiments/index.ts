import type { FastifyInstance } from 'fastify';
import type { FeatureFlagService } from '../feature-flags/service';
import type { Core, ServerModule } from '../module';
import { ExperimentResultsService } from './results';
import { experimentResultsRoutes } from './results-routes';
import { experimentRoutes } from './routes';
import { ExperimentService, experimentFlagGuard, experimentFlagUses } from './service';

type Routes = Parameters<typeof experimentRoutes>[1] & Parameters<typeof experimentResultsRoutes>[1];

/** Experiments: each on a multivariate feature flag, which it guards, with its results read from the events. */
export const experimentsModule = {
  name: 'experiments',
  services: ({ db, changes, flags }: Pick<Core, 'db' | 'changes'> & { flags: FeatureFlagService }) => {
    flags.guardUpdates(experimentFlagGuard);
    flags.describeUses(experimentFlagUses);
    const experiments = new ExperimentService(db.kysely, changes);
    return { experiments, experimentResults: new ExperimentResultsService(db, experiments) };
  },
  routes: async (app: FastifyInstance, context: Routes) => {
    await app.register(experimentRoutes, context);
    await app.register(experimentResultsRoutes, context);
  },
  activityKinds: { Experiment: { object: 'experiment' } },
} satisfies ServerModule;
