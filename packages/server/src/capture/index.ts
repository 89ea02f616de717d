import type { Core, ServerModule } from '../module';
import { IngestService } from './ingest';
import { captureRoutes } from './routes';

/**
 * Capture: PostHog's capture protocol, and the ingestion pipeline every captured event goes through. Modules that make
 * something of events add their steps to `ingest.pipeline` as their services are made, in the order of the modules.
 */
export const captureModule = {
  name: 'capture',
  services: ({ db, config }: Pick<Core, 'db' | 'config'>) => ({ ingest: new IngestService(db, { maxPendingEvents: config.ingestMaxPendingEvents }) }),
  routes: captureRoutes,
  // Accepted events are committed before the database closes.
  close: ({ ingest }: { ingest: IngestService }) => ingest.close(),
} satisfies ServerModule;
