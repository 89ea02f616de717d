import type { ServerModule } from '../module';

/**
 * Session replay: recordings of what people did on a page (rrweb events sent to `/s/` by service-js's recorder or
 * posthog-js's), stored per session in compressed blocks behind a blob store, their metadata kept at ingest, the
 * recordings API, the project's recording settings (which the remote config carries) and the recorder scripts.
 */
export const sessionReplayModule = {
  name: 'session-replay',
  services: () => ({}),
} satisfies ServerModule;
