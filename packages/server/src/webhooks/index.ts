import type { Core, RouteContext, ServerModule } from '../module';
import { WebhookDeliveryWorker } from './delivery-worker';
import { webhookRoutes } from './routes';
import { WebhookService } from './service';

/** Webhooks: a project's subscriptions to every module's `webhookKinds`, and the worker that sends the outbox. */
export const webhooksModule = {
  name: 'webhooks',
  services: ({ db, config, webhookKinds }: Pick<Core, 'db' | 'config' | 'webhookKinds'>) => ({
    webhooks: new WebhookService(db.kysely, { allowPrivate: config.webhookAllowPrivate ?? false, kinds: webhookKinds }),
  }),
  routes: webhookRoutes,
  activityKinds: { Webhook: { object: 'webhook' } },
  jobs: ({ services, config, log }: RouteContext<Pick<Core, 'db'>>) => [
    new WebhookDeliveryWorker(services.db, {
      allowPrivate: config.webhookAllowPrivate ?? false,
      pollMs: config.webhookPollMs ?? 1000,
      retryBaseMs: config.webhookRetryBaseMs ?? 30_000,
      log,
    }),
  ],
} satisfies ServerModule;
