import type { Core, ServerModule } from '../module';
import { activityRoutes } from './routes';
import { ActivityService } from './service';

/** The activity log: what changed, who changed it, and when, for every module's `activityKinds`. */
export const activityModule = {
  name: 'activity',
  services: ({ db, activityKinds }: Pick<Core, 'db' | 'activityKinds'>) => ({ activity: new ActivityService(db.kysely, activityKinds) }),
  routes: activityRoutes,
} satisfies ServerModule;
