import type { FastifyInstance } from 'fastify';
import type { IngestService } from '../capture/ingest';
import type { FeatureFlagService } from '../feature-flags/service';
import type { Core, ServerModule } from '../module';
import { enrollmentsStep } from './enrollment-events';
import { enrollmentRoutes } from './enrollment-routes';
import { EnrollmentService } from './enrollments';
import { publicEarlyAccessRoutes } from './public-routes';
import { earlyAccessRoutes } from './routes';
import { EarlyAccessService, earlyAccessFlagUses, linkedFlagGuard } from './service';

type Deps = Pick<Core, 'db' | 'changes'> & { flags: FeatureFlagService; ingest: IngestService };
type Routes = Parameters<typeof earlyAccessRoutes>[1] & Parameters<typeof enrollmentRoutes>[1] & Parameters<typeof publicEarlyAccessRoutes>[1];

/**
 * Early access features: each on a feature flag, which it guards; who opted in or out (an ingestion step records the
 * enrollment events, whether an SDK or the API sent them); the public list posthog-js reads.
 */
export const earlyAccessModule = {
  name: 'early-access',
  services: ({ db, changes, flags, ingest }: Deps) => {
    flags.guardUpdates(linkedFlagGuard);
    flags.describeUses(earlyAccessFlagUses);
    ingest.pipeline.use(enrollmentsStep);
    return { earlyAccess: new EarlyAccessService(db.kysely, changes), enrollments: new EnrollmentService(db.kysely, ingest) };
  },
  routes: async (app: FastifyInstance, context: Routes) => {
    await app.register(earlyAccessRoutes, context);
    await app.register(enrollmentRoutes, context);
    await app.register(publicEarlyAccessRoutes, context);
  },
  webhookKinds: ['early_access.enrolled', 'early_access.unenrolled', 'early_access.stage_changed'],
  activityKinds: { EarlyAccessFeature: { object: 'early_access_feature' } },
} satisfies ServerModule;
