import type { FastifyInstance } from 'fastify';
import type { IngestService } from '../capture/ingest';
import { DEFAULT_REPLAY_RETENTION_DAYS } from '../config';
import type { Core, RouteContext, ServerModule } from '../module';
import { blobStoreOf } from './blob-store';
import { sessionEventsStep } from './events-step';
import { replayIngestRoutes } from './ingest-route';
import { recorderScriptRoutes } from './recorder-scripts';
import { RECORDING_ACTIVITY, RecordingsService } from './recordings';
import { ReplayRemoteConfigs } from './remote-config';
import { ReplayRetentionJob } from './retention-job';
import { recordingRoutes } from './routes';
import { ReplaySettingsService, SETTINGS_ACTIVITY } from './settings-service';
import { replaySettingsRoutes } from './settings-routes';
import { ReplayStorage } from './storage';

type Routes = Parameters<typeof replayIngestRoutes>[1] & Parameters<typeof replaySettingsRoutes>[1] & Parameters<typeof recordingRoutes>[1];

/**
 * Session replay: recordings of what people did on a page (rrweb events sent to `/s/` by service-js's recorder or
 * posthog-js's), stored per session in compressed blocks behind a blob store, their metadata kept at ingest, the
 * recordings API, the project's recording settings (which the remote config carries) and the recorder scripts.
 */
export const sessionReplayModule = {
  name: 'session-replay',
  services: ({ db, changes, config, ingest }: Pick<Core, 'db' | 'changes' | 'config'> & { ingest: IngestService }) => {
    ingest.pipeline.use(sessionEventsStep());
    const retentionDays = config.replayRetentionDays ?? DEFAULT_REPLAY_RETENTION_DAYS;
    const replayStorage = new ReplayStorage(db, blobStoreOf(db.kysely, config.replayStorageDir), { retentionDays });
    const replaySettings = new ReplaySettingsService(db, changes, replayStorage, retentionDays);
    return {
      replayStorage,
      replaySettings,
      // What the remote config and `/flags?config=true` carry of a project's settings, cached per project.
      replay: new ReplayRemoteConfigs(replaySettings, changes),
      recordings: new RecordingsService(db, replayStorage),
    };
  },
  routes: async (app: FastifyInstance, context: Routes) => {
    await app.register(replayIngestRoutes, context);
    await app.register(replaySettingsRoutes, context);
    await app.register(recordingRoutes, context);
    await app.register(recorderScriptRoutes);
  },
  // Accepted batches are stored before the database closes.
  close: ({ replayStorage }: { replayStorage: ReplayStorage }) => replayStorage.close(),
  jobs: ({ services, log }: RouteContext<{ replayStorage: ReplayStorage }>) => [new ReplayRetentionJob(services.replayStorage, log)],
  activityKinds: { [SETTINGS_ACTIVITY]: { object: 'session_recording' }, [RECORDING_ACTIVITY]: { object: 'session_recording' } },
} satisfies ServerModule;
