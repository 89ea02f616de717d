import type { FastifyInstance } from 'fastify';
import type { IngestService } from '../capture/ingest';
import type { FeatureFlagService } from '../feature-flags/service';
import type { Core, RouteContext, ServerModule } from '../module';
import { surveyFlagGuard, surveyFlagUses } from './flags';
import { useSurveySteps } from './ingest';
import { publicSurveyRoutes } from './public-routes';
import { SurveyResultsService } from './results';
import { surveyResultsRoutes } from './results-routes';
import { surveyRoutes } from './routes';
import { SurveyScheduleJob } from './schedule-job';
import { SurveyService } from './service';

type Deps = Pick<Core, 'db' | 'changes'> & { flags: FeatureFlagService; ingest: IngestService };
type Routes = Parameters<typeof surveyRoutes>[1] & Parameters<typeof publicSurveyRoutes>[1] & Parameters<typeof surveyResultsRoutes>[1];

/**
 * Surveys: their definitions, the two flags each keeps (which posthog-js checks in `/flags`), the public list and
 * posthog-js's own surveys bundle, launch, stop and the iterations of recurring surveys; survey events feed an
 * ingestion step (stored events, merged responses, the person properties posthog-js reads, server-side event
 * conditions, the responses limit), and their results are read in SQL.
 */
export const surveysModule = {
  name: 'surveys',
  services: ({ db, changes, flags, ingest }: Deps) => {
    flags.guardUpdates(surveyFlagGuard);
    flags.describeUses(surveyFlagUses);
    const surveys = new SurveyService(db.kysely, changes);
    useSurveySteps(ingest.pipeline, { db, changes });
    return { surveys, surveyResults: new SurveyResultsService(db) };
  },
  routes: async (app: FastifyInstance, context: Routes) => {
    await app.register(surveyRoutes, context);
    await app.register(publicSurveyRoutes, context);
    await app.register(surveyResultsRoutes, context);
  },
  jobs: ({ services, log }: RouteContext<{ surveys: SurveyService }>) => [new SurveyScheduleJob(services.surveys, log)],
  activityKinds: { Survey: { object: 'survey' } },
} satisfies ServerModule;
