import type { FastifyInstance } from 'fastify';
import type { RouteContext, ServerModule } from '../module';
import { staticRoutes } from './routes';

/** The lazy extensions of service-js's script-tag build, for `<script>` tags on any site. */
export const staticModule = {
  name: 'static',
  routes: async (app: FastifyInstance, { config }: RouteContext<unknown>) => {
    await app.register(staticRoutes, { dir: config.staticDir });
  },
} satisfies ServerModule;
