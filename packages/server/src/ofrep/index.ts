import type { ServerModule } from '../module';
import type { FlagsService } from '../flag-evaluation/service';
import { ofrepRoutes } from './routes';
import { OfrepService } from './service';

/** OpenFeature's remote evaluation protocol (OFREP) over the evaluator of `/flags`. */
export const ofrepModule = {
  name: 'ofrep',
  services: ({ flagsEvaluation }: { flagsEvaluation: FlagsService }) => ({ ofrep: new OfrepService(flagsEvaluation) }),
  routes: ofrepRoutes,
} satisfies ServerModule;
