import type { Core, ServerModule } from '../module';
import { eventRoutes } from './routes';
import { EventService } from './service';

/** Events as stored: listed, named and counted. */
export const eventsModule = {
  name: 'events',
  services: ({ db }: Pick<Core, 'db'>) => ({ events: new EventService(db.kysely, db.dialect) }),
  routes: eventRoutes,
} satisfies ServerModule;
