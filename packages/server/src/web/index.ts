import type { FastifyInstance } from 'fastify';
import type { RouteContext, ServerModule } from '../module';
import { webRoutes } from './routes';

/** The web app at / (its pages fall back to index.html) and its hashed build files at /assets/. */
export const webModule = {
  name: 'web',
  routes: async (app: FastifyInstance, { config }: RouteContext<unknown>) => {
    await app.register(webRoutes, { dir: config.webDir });
  },
} satisfies ServerModule;
