import { activityModule } from './activity';
import { apiKeysModule } from './api-keys';
import { captureModule } from './capture';
import { cohortsModule } from './cohorts';
import { earlyAccessModule } from './early-access';
import { errorTrackingModule } from './error-tracking';
import { eventsModule } from './events';
import { experimentsModule } from './experiments';
import { featureFlagsModule } from './feature-flags';
import { flagEvaluationModule } from './flag-evaluation';
import { flagStreamModule } from './flag-stream';
import { llmModule } from './llm';
import { llmPromptsModule } from './llm-prompts';
import type { ActivityKind, ServerModule } from './module';
import { ofrepModule } from './ofrep';
import { personsModule } from './persons';
import { projectsModule } from './projects';
import { scheduledChangesModule } from './scheduled-changes';
import { sessionReplayModule } from './session-replay';
import { staticModule } from './static';
import { surveysModule } from './surveys';
import { usersModule } from './users';
import { webModule } from './web';
import { webhooksModule } from './webhooks';

/**
 * The service's modules, in order: a module's services are made after those of the modules before it (which it may
 * take), its routes registered after theirs, and its ingestion steps run after theirs (the persons step first: the
 * steps after it read whose events they are).
 */
export const MODULES = [
  activityModule,
  webhooksModule,
  projectsModule,
  apiKeysModule,
  usersModule,
  featureFlagsModule,
  scheduledChangesModule,
  captureModule,
  personsModule,
  eventsModule,
  earlyAccessModule,
  experimentsModule,
  surveysModule,
  errorTrackingModule,
  sessionReplayModule,
  llmModule,
  llmPromptsModule,
  cohortsModule,
  flagEvaluationModule,
  ofrepModule,
  flagStreamModule,
  staticModule,
  webModule,
] as const;

const modules: readonly ServerModule[] = MODULES;

/** What a webhook can be sent for: every module's kinds. */
export const WEBHOOK_KINDS: readonly string[] = modules.flatMap((module) => module.webhookKinds ?? []);

/** The kinds of items the activity log records: every module's. */
export const ACTIVITY_KINDS: Readonly<Record<string, ActivityKind>> = Object.assign({}, ...modules.map((module) => module.activityKinds ?? {}));
