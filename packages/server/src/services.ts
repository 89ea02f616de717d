import { ApiKeyService } from './api-keys/service';
import { IngestService } from './capture/service';
import { Changes } from './changes';
import type { Config } from './config';
import type { Db } from './db/database';
import { EarlyAccessService, linkedFlagGuard } from './early-access/service';
import { EventService } from './events/service';
import { FeatureFlagService } from './feature-flags/service';
import { FlagDefinitionsCache } from './flag-evaluation/definitions';
import { FlagsService } from './flag-evaluation/service';
import { PersonService } from './persons/service';
import { ProjectService } from './projects/service';

/** The domain services one app instance uses, over one database. `ingest.close()` waits for accepted events: call it before closing `db`. */
export function createServices(db: Db, config: Pick<Config, 'ingestMaxPendingEvents'>) {
  const changes = new Changes(db);
  const flags = new FeatureFlagService(db.kysely, changes);
  flags.guardUpdates(linkedFlagGuard);
  return {
    db,
    changes,
    keys: new ApiKeyService(db.kysely),
    projects: new ProjectService(db.kysely),
    flags,
    earlyAccess: new EarlyAccessService(db.kysely, changes),
    events: new EventService(db.kysely),
    persons: new PersonService(db.kysely),
    flagsEvaluation: new FlagsService(db, new FlagDefinitionsCache(db.kysely, changes)),
    ingest: new IngestService(db, changes, { maxPendingEvents: config.ingestMaxPendingEvents }),
  };
}

export type Services = ReturnType<typeof createServices>;
