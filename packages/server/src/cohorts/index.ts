import type { IngestService } from '../capture/ingest';
import type { FeatureFlagService } from '../feature-flags/service';
import type { Core, RouteContext, ServerModule } from '../module';
import { BehavioralCounter, CountExpiryJob } from './ingest';
import { cohortRoutes } from './routes';
import { COHORT_ACTIVITY, CohortService } from './service';

type Deps = Pick<Core, 'db' | 'changes'> & { flags: FeatureFlagService; ingest: IngestService };

/**
 * Cohorts: saved groups of people flags target (`{type: "cohort", value: id}`). Static ones list distinct ids;
 * dynamic ones filter on person properties, other cohorts and behavior ("did E at least N times in the last D days"),
 * whose counts an ingestion step keeps current. Flag evaluation reads them (`flag-evaluation/definitions.ts`).
 */
export const cohortsModule = {
  name: 'cohorts',
  services: ({ db, changes, flags, ingest }: Deps) => {
    const cohorts = new CohortService(db, changes);
    flags.checkFiltersWith(cohorts.checkFlagFilters);
    ingest.pipeline.use(new BehavioralCounter(changes).step);
    return { cohorts };
  },
  routes: cohortRoutes,
  jobs: ({ services, log }: RouteContext<Pick<Core, 'db'>>) => [new CountExpiryJob(services.db, log)],
  activityKinds: { [COHORT_ACTIVITY]: { object: 'cohort' } },
} satisfies ServerModule;
