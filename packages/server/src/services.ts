import { ApiKeyService } from './api-keys/service';
import { Changes } from './changes';
import type { Db } from './db/database';
import { EarlyAccessService } from './early-access/service';
import { EventService } from './events/service';
import { FeatureFlagService } from './feature-flags/service';
import { FlagDefinitionsCache } from './flags/definitions';
import { FlagsService } from './flags/service';
import { PersonService } from './persons/service';
import { ProjectStore } from './projects/store';

/** The domain services one app instance uses, over one database. */
export function createServices(db: Db) {
  const changes = new Changes(db);
  return {
    db,
    changes,
    keys: new ApiKeyService(db.kysely),
    projects: new ProjectStore(db.kysely),
    flags: new FeatureFlagService(db.kysely, changes),
    earlyAccess: new EarlyAccessService(db.kysely, changes),
    events: new EventService(db.kysely),
    persons: new PersonService(db.kysely),
    flagsEvaluation: new FlagsService(db, new FlagDefinitionsCache(db.kysely, changes)),
  };
}

export type Services = ReturnType<typeof createServices>;
