import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { projectRoutes } from '../http/project-routes';
import { JsonObject, PageQuery, ProjectItemParams, Text, errorResponses, pageOfSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import type { WebhookService } from './service';

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()]);

/** The schemas of a webhook, which name the kinds it can be sent for. */
function webhookSchemas(kinds: readonly string[]) {
  const kindsDescription = `what the webhook is sent for, at least one of: ${kinds.join(', ')}`;

  const WebhookSchema = Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      url: Type.String({ description: 'where deliveries are POSTed (http or https)' }),
      kinds: Type.Array(Type.String({ title: 'WebhookKind', enum: [...kinds] }), { description: kindsDescription }),
      enabled: Type.Boolean({ description: 'false: nothing is enqueued for it, and pending deliveries fail' }),
      secret_mask: Type.String({ description: 'the start and end of the signing secret (the secret is shown once, on create)' }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { title: 'Webhook' },
  );

  const CreatedWebhookSchema = Type.Object(
    {
      ...WebhookSchema.properties,
      secret: Type.String({ description: 'the signing secret (Standard Webhooks, `whsec_…`); shown only in this answer' }),
    },
    { title: 'CreatedWebhook' },
  );

  const writable = {
    url: Text({ minLength: 1, maxLength: 2048, description: 'http or https; loopback and private addresses are refused unless WEBHOOK_ALLOW_PRIVATE=true' }),
    kinds: Type.Array(Text({ maxLength: 100 }), { maxItems: 50, description: kindsDescription }),
    enabled: Type.Boolean(),
    secret: Text({ maxLength: 200, description: '`whsec_` and the base64 of 24 to 64 random bytes; one is made when not given' }),
  };
  const WebhookCreate = Type.Object(
    { url: writable.url, kinds: writable.kinds, enabled: Type.Optional(writable.enabled), secret: Type.Optional(writable.secret) },
    { additionalProperties: false },
  );
  const WebhookUpdate = Type.Partial(Type.Object(writable), { additionalProperties: false });
  return { WebhookSchema, CreatedWebhookSchema, WebhookCreate, WebhookUpdate };
}

const DeliverySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'also the `webhook-id` header and the body’s `id`, the same on every attempt' }),
    kind: Type.String(),
    status: Type.String({ description: 'pending, succeeded or failed' }),
    attempts: Type.Integer(),
    last_response_code: Nullable(Type.Integer({ description: "the last attempt's HTTP status; null when there was no response" })),
    last_error: Nullable(Type.String({ description: "why the last attempt failed (no response, or the status and the body's start)" })),
    created_at: Type.String({ format: 'date-time' }),
    next_attempt_at: Nullable(Type.String({ format: 'date-time', description: 'when it is tried next (pending only)' })),
    delivered_at: Nullable(Type.String({ format: 'date-time' })),
    payload: JsonObject,
  },
  { title: 'WebhookDelivery' },
);

const DeliveriesQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Text({ maxLength: 20, description: 'only deliveries in this status: pending, succeeded or failed' })),
});

/**
 * `/api/projects/:project_id/webhooks/`: a project's webhooks (scopes `webhook:read` / `webhook:write`), and the
 * deliveries of each at `…/webhooks/:id/deliveries/`.
 */
export const webhookRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { webhooks: WebhookService }>> = async (app, { services }) => {
  const tags = ['webhooks'];
  const { WebhookSchema, CreatedWebhookSchema, WebhookCreate, WebhookUpdate } = webhookSchemas(services.webhooks.kinds);
  const routes = projectRoutes(app, services, { collection: 'webhooks', object: 'webhook', tags });
  routes.list(PageQuery, WebhookSchema, (projectId, _query, page) => services.webhooks.list(projectId, page.limit, page.offset));
  routes.create(WebhookCreate, CreatedWebhookSchema, (projectId, body, request) => services.webhooks.create(projectId, body, actorOf(request)));
  routes.get(WebhookSchema, (projectId, id) => services.webhooks.get(projectId, id));
  routes.update(WebhookUpdate, WebhookSchema, (projectId, id, body, request) => services.webhooks.update(projectId, id, body, actorOf(request)));
  routes.delete((projectId, id, request) => services.webhooks.delete(projectId, id, actorOf(request)));

  app.get<{ Params: Static<typeof ProjectItemParams>; Querystring: Static<typeof DeliveriesQuery> }>(
    '/api/projects/:project_id/webhooks/:id/deliveries',
    {
      onRequest: authorize(services, 'webhook:read'),
      schema: {
        tags,
        summary: "List a webhook's deliveries, newest first",
        params: ProjectItemParams,
        querystring: DeliveriesQuery,
        response: { 200: pageOfSchema(DeliverySchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await services.webhooks.deliveries(request.project!.id, request.params.id, {
        ...page,
        status: request.query.status || undefined,
      });
      return pageOf(request, count, results, page);
    },
  );
};
