import type { FastifyInstance } from 'fastify';
import type { FeatureFlagService } from '../feature-flags/service';
import type { Core, RouteContext, ServerModule } from '../module';
import { surveyFlagGuard, surveyFlagUses } from './flags';
import { publicSurveyRoutes } from './public-routes';
import { surveyRoutes } from './routes';
import { SurveyScheduleJob } from './schedule-job';
import { SurveyService } from './service';

type Deps = Pick<Core, 'db' | 'changes'> & { flags: FeatureFlagService };
type Routes = Parameters<typeof surveyRoutes>[1] & Parameters<typeof publicSurveyRoutes>[1];

/**
 * Surveys: their definitions, the two flags each keeps (which posthog-js checks in `/flags`), the public list and
 * posthog-js's own surveys bundle, launch, stop and the iterations of recurring surveys.
 */
export const surveysModule = {
  name: 'surveys',
  services: ({ db, changes, flags }: Deps) => {
    flags.guardUpdates(surveyFlagGuard);
    flags.describeUses(surveyFlagUses);
    const surveys = new SurveyService(db.kysely, changes);
    // Responses and results: their ingestion step (`ingest.pipeline.use`) and services are added here.
    return { surveys };
  },
  routes: async (app: FastifyInstance, context: Routes) => {
    await app.register(surveyRoutes, context);
    await app.register(publicSurveyRoutes, context);
    // Responses and results: their routes are registered here.
  },
  jobs: ({ services, log }: RouteContext<{ surveys: SurveyService }>) => [new SurveyScheduleJob(services.surveys, log)],
  activityKinds: { Survey: { object: 'survey' } },
} satisfies ServerModule;
