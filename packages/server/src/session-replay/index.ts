import type { FastifyInstance } from 'fastify';
import type { IngestService } from '../capture/ingest';
import { DEFAULT_REPLAY_RETENTION_DAYS } from '../config';
import type { Core, RouteContext, ServerModule } from '../module';
import { blobStoreOf } from './blob-store';
import { sessionEventsStep } from './events-step';
import { replayIngestRoutes } from './ingest-route';
import { ReplayRetentionJob } from './retention-job';
import { ReplayStorage } from './storage';

type Routes = Parameters<typeof replayIngestRoutes>[1];

/**
 * Session replay: recordings of what people did on a page (rrweb events sent to `/s/` by service-js's recorder or
 * posthog-js's), stored per session in compressed blocks behind a blob store, their metadata kept at ingest, the
 * recordings API, the project's recording settings (which the remote config carries) and the recorder scripts.
 */
export const sessionReplayModule = {
  name: 'session-replay',
  services: ({ db, config, ingest }: Pick<Core, 'db' | 'config'> & { ingest: IngestService }) => {
    ingest.pipeline.use(sessionEventsStep());
    const replayStorage = new ReplayStorage(db, blobStoreOf(db.kysely, config.replayStorageDir), {
      retentionDays: config.replayRetentionDays ?? DEFAULT_REPLAY_RETENTION_DAYS,
    });
    return { replayStorage };
  },
  routes: async (app: FastifyInstance, context: Routes) => {
    await app.register(replayIngestRoutes, context);
  },
  // Accepted batches are stored before the database closes.
  close: ({ replayStorage }: { replayStorage: ReplayStorage }) => replayStorage.close(),
  jobs: ({ services, log }: RouteContext<{ replayStorage: ReplayStorage }>) => [new ReplayRetentionJob(services.replayStorage, log)],
} satisfies ServerModule;
