import type { IngestService } from '../capture/ingest';
import type { Core, ServerModule } from '../module';
import { personsStep } from './ingest';
import { personRoutes } from './routes';
import { PersonService } from './service';

/** Persons and groups: made and changed by the events that name them (the first ingestion step), and listed. */
export const personsModule = {
  name: 'persons',
  services: ({ db, changes, ingest }: Pick<Core, 'db' | 'changes'> & { ingest: IngestService }) => {
    ingest.pipeline.use(personsStep(changes));
    return { persons: new PersonService(db.kysely, db.dialect) };
  },
  routes: personRoutes,
} satisfies ServerModule;
