import type { Core, ServerModule } from '../module';
import { featureFlagRoutes } from './routes';
import { FeatureFlagService } from './service';

/** Feature flags: their definitions (what flag evaluation answers with), guarded and described by the modules that use them. */
export const featureFlagsModule = {
  name: 'feature-flags',
  services: ({ db, changes }: Pick<Core, 'db' | 'changes'>) => ({ flags: new FeatureFlagService(db.kysely, changes, db.dialect) }),
  routes: featureFlagRoutes,
  webhookKinds: ['feature_flag.changed'],
  activityKinds: { FeatureFlag: { object: 'feature_flag' } },
} satisfies ServerModule;
