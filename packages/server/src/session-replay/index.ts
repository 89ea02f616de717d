import type { FastifyInstance } from 'fastify';
import type { AuthLookups } from '../http/auth';
import type { Core, ServerModule } from '../module';
import type { RouteContext } from '../module';
import { recorderScriptRoutes } from './recorder-scripts';
import { ReplayRemoteConfigs } from './remote-config';
import { sessionsStore } from './sessions-store';
import { ReplaySettingsService, SETTINGS_ACTIVITY } from './settings-service';
import { replaySettingsRoutes } from './settings-routes';

type Deps = Pick<Core, 'db' | 'changes'>;
type Services = AuthLookups & { replaySettings: ReplaySettingsService };

/** How long recordings are kept (REPLAY_RETENTION_DAYS' default). */
const RETENTION_DAYS = 30;

/**
 * Session replay: recordings of what people did on a page (rrweb events sent to `/s/` by service-js's recorder or
 * posthog-js's), stored per session in compressed blocks behind a blob store, their metadata kept at ingest, the
 * recordings API, the project's recording settings (which the remote config carries) and the recorder scripts.
 */
export const sessionReplayModule = {
  name: 'session-replay',
  services: ({ db, changes }: Deps) => {
    const usage = { usage: (projectId: number) => sessionsStore.usage(db.kysely, projectId) };
    const replaySettings = new ReplaySettingsService(db, changes, usage, RETENTION_DAYS);
    // `replay`: what the remote config and `/flags?config=true` carry of a project's settings, cached per project.
    return { replaySettings, replay: new ReplayRemoteConfigs(replaySettings, changes) };
  },
  routes: async (app: FastifyInstance, context: RouteContext<Services>) => {
    await app.register(replaySettingsRoutes, context);
    await app.register(recorderScriptRoutes);
  },
  activityKinds: { [SETTINGS_ACTIVITY]: { object: 'session_recording' } },
} satisfies ServerModule;
