import type { Core, ServerModule } from '../module';
import { FlagStreamHub } from './hub';
import { flagStreamRoutes } from './routes';

/** Realtime flag updates: `/flags/stream` tells a project's clients when its flags' answers may have changed. */
export const flagStreamModule = {
  name: 'flag-stream',
  services: ({ changes, config }: Pick<Core, 'changes' | 'config'>) => ({
    flagStream: new FlagStreamHub(changes, config.streamMaxConnectionsPerToken, config.streamHeartbeatMs),
  }),
  // Its routes end the streams as the app starts closing (`preClose`), before the server waits for open responses.
  routes: flagStreamRoutes,
} satisfies ServerModule;
