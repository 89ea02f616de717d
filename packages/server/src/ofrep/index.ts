import type { IngestService } from '../capture/ingest';
import type { ServerModule } from '../module';
import { Exposures } from './exposures';
import type { FlagsService } from '../flag-evaluation/service';
import { ofrepRoutes } from './routes';
import { OfrepService } from './service';

/** OpenFeature's remote evaluation protocol (OFREP) over the evaluator of `/flags`. */
export const ofrepModule = {
  name: 'ofrep',
  services: ({ flagsEvaluation, ingest }: { flagsEvaluation: FlagsService; ingest: IngestService }) => ({
    ofrep: new OfrepService(flagsEvaluation, new Exposures(ingest)),
  }),
  routes: ofrepRoutes,
} satisfies ServerModule;
