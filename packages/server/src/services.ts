import { ActivityService } from './activity/service';
import { ApiKeyService } from './api-keys/service';
import { IngestService } from './capture/ingest';
import { Changes } from './changes';
import {
  DEFAULT_SOURCEMAP_CACHE_BYTES,
  DEFAULT_SOURCEMAP_LOAD_BYTES_PER_SECOND,
  DEFAULT_SOURCEMAP_MAX_LINES,
  DEFAULT_SOURCEMAP_MAX_SEGMENTS,
  DEFAULT_SOURCEMAP_MAX_SOURCE_BYTES,
  type Config,
} from './config';
import type { Db } from './db/database';
import { enrollmentsStep } from './early-access/enrollment-events';
import { EnrollmentService } from './early-access/enrollments';
import { EarlyAccessService, earlyAccessFlagUses, linkedFlagGuard } from './early-access/service';
import { exceptionsStep } from './error-tracking/ingest';
import { ErrorTrackingService } from './error-tracking/service';
import { SourceMapResolver } from './error-tracking/sourcemaps/resolve';
import { SourceMapService } from './error-tracking/sourcemaps/service';
import { EventService } from './events/service';
import { ExperimentResultsService } from './experiments/results';
import { ExperimentService, experimentFlagGuard, experimentFlagUses } from './experiments/service';
import { FeatureFlagService } from './feature-flags/service';
import { FlagDefinitionsCache } from './flag-evaluation/definitions';
import { FlagsService } from './flag-evaluation/service';
import { personsStep } from './persons/ingest';
import { PersonService } from './persons/service';
import { ProjectService } from './projects/service';
import { shareTurns } from './turns';
import { PasswordService } from './users/password-service';
import { UserService } from './users/service';
import { SessionService } from './users/sessions';
import { WebhookService } from './webhooks/service';

/** The configuration the services read. */
export type ServicesConfig = Pick<Config, 'ingestMaxPendingEvents'> &
  Partial<
    Pick<
      Config,
      | 'webhookAllowPrivate'
      | 'sourcemapMaxSourceBytes'
      | 'sourcemapCacheBytes'
      | 'sourcemapMaxSegments'
      | 'sourcemapMaxLines'
      | 'sourcemapLoadBytesPerSecond'
      | 'flagCacheProjects'
    >
  >;

/** The domain services one app instance uses, over one database. `ingest.close()` waits for accepted events: call it before closing `db`. */
export function createServices(db: Db, config: ServicesConfig) {
  // Requests' CPU work takes its turns one at a time on PostgreSQL, so the ingest transaction's statements go out between (`turns.ts`).
  shareTurns(db.dialect === 'postgres');
  const changes = new Changes(db);
  const flags = new FeatureFlagService(db.kysely, changes, db.dialect);
  flags.guardUpdates(linkedFlagGuard);
  flags.guardUpdates(experimentFlagGuard);
  flags.describeUses(earlyAccessFlagUses);
  flags.describeUses(experimentFlagUses);
  const keys = new ApiKeyService(db.kysely);
  const ingest = new IngestService(db, { maxPendingEvents: config.ingestMaxPendingEvents });
  ingest.pipeline.use(personsStep(changes));
  ingest.pipeline.use(enrollmentsStep);
  const experiments = new ExperimentService(db.kysely, changes);
  const resolver = new SourceMapResolver(db, {
    cacheBytes: config.sourcemapCacheBytes ?? DEFAULT_SOURCEMAP_CACHE_BYTES,
    loadBytesPerSecond: config.sourcemapLoadBytesPerSecond ?? DEFAULT_SOURCEMAP_LOAD_BYTES_PER_SECOND,
    limits: {
      maxSegments: config.sourcemapMaxSegments ?? DEFAULT_SOURCEMAP_MAX_SEGMENTS,
      maxLines: config.sourcemapMaxLines ?? DEFAULT_SOURCEMAP_MAX_LINES,
    },
  });
  const sourceMaps = new SourceMapService(db.kysely, resolver, { maxSourceBytes: config.sourcemapMaxSourceBytes ?? DEFAULT_SOURCEMAP_MAX_SOURCE_BYTES });
  ingest.pipeline.use(exceptionsStep((projectId, release, frames) => sourceMaps.resolver.resolveFrames(projectId, release, frames)));
  return {
    db,
    changes,
    activity: new ActivityService(db.kysely),
    keys,
    users: new UserService(db.kysely, keys),
    passwords: new PasswordService(db.kysely),
    sessions: new SessionService(db.kysely),
    projects: new ProjectService(db.kysely),
    flags,
    earlyAccess: new EarlyAccessService(db.kysely, changes),
    experiments,
    experimentResults: new ExperimentResultsService(db, experiments),
    events: new EventService(db.kysely, db.dialect),
    persons: new PersonService(db.kysely, db.dialect),
    flagsEvaluation: new FlagsService(db, new FlagDefinitionsCache(db.kysely, changes, config.flagCacheProjects)),
    ingest,
    webhooks: new WebhookService(db.kysely, { allowPrivate: config.webhookAllowPrivate ?? false }),
    enrollments: new EnrollmentService(db.kysely, ingest),
    errorTracking: new ErrorTrackingService(db, (projectId, release, frames) => sourceMaps.resolver.resolveFrames(projectId, release, frames)),
    sourceMaps,
  };
}

export type Services = ReturnType<typeof createServices>;
