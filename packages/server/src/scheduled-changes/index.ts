import type { Core, RouteContext, ServerModule } from '../module';
import type { FeatureFlagService } from '../feature-flags/service';
import { ScheduledChangesJob } from './job';
import { scheduledChangeRoutes } from './routes';
import { ScheduledChangeService } from './service';

/** Scheduled changes: a flag turned on or off, its rollout or variants changed at a set time (a ramp: several times). */
export const scheduledChangesModule = {
  name: 'scheduled-changes',
  services: ({ db, changes, flags }: Pick<Core, 'db' | 'changes'> & { flags: FeatureFlagService }) => ({
    scheduledChanges: new ScheduledChangeService(db.kysely, db.dialect, flags, changes),
  }),
  routes: scheduledChangeRoutes,
  jobs: ({ services, log }: RouteContext<{ scheduledChanges: ScheduledChangeService }>) => [new ScheduledChangesJob(services.scheduledChanges, log)],
} satisfies ServerModule;
