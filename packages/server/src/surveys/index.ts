import type { IngestService } from '../capture/ingest';
import type { Core, ServerModule } from '../module';
import { useSurveySteps } from './ingest';
import { SurveyResultsService } from './results';
import { surveyResultsRoutes } from './results-routes';

/**
 * Surveys: the responses side. Survey events feed an ingestion step (stored events, merged responses, the person
 * properties posthog-js reads, server-side event conditions, the responses limit); their results are read in SQL.
 */
export const surveysModule = {
  name: 'surveys',
  services: ({ db, changes, ingest }: Pick<Core, 'db' | 'changes'> & { ingest: IngestService }) => {
    useSurveySteps(ingest.pipeline, { db, changes });
    return { surveyResults: new SurveyResultsService(db) };
  },
  routes: surveyResultsRoutes,
} satisfies ServerModule;
