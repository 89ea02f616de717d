import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { NotFoundError } from '../errors';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { PageQuery, Text, errorResponses, intId, pageOfSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import { MAX_RAMP_STEPS, type ScheduledChangeService } from './service';

const Percentage = Type.Number({ minimum: 0, maximum: 100 });
const Time = Text({ maxLength: 64, description: 'a date and time in the future, ISO 8601 (e.g. 2030-01-31T09:00:00Z)' });

const ChangePayloadSchema = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ description: 'turn the flag on or off' })),
    rollout_percentage: Type.Optional({ ...Percentage, description: 'the rollout of every condition set of the flag' }),
    variants: Type.Optional(
      Type.Array(
        Type.Object(
          { key: Text({ minLength: 1, maxLength: 400 }), name: Type.Optional(Text({ maxLength: 400 })), rollout_percentage: Percentage },
          { additionalProperties: false },
        ),
        { maxItems: 100, description: "the multivariate flag's variants, replacing the ones it has" },
      ),
    ),
  },
  { additionalProperties: false, title: 'ScheduledChangePayload' },
);

const ScheduledChangeSchema = Type.Object(
  {
    id: Type.Integer(),
    feature_flag_id: Type.Integer(),
    scheduled_at: Type.String({ format: 'date-time' }),
    payload: ChangePayloadSchema,
    status: Type.Enum(['pending', 'applied', 'failed', 'cancelled']),
    ramp_id: Type.Union([Type.String(), Type.Null()], { description: 'the steps of one ramp share it' }),
    failure_reason: Type.Union([Type.String(), Type.Null()], { description: "why a failed change was not applied (the flag's rules refused it)" }),
    created_by: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    executed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when it was applied, failed or cancelled' }),
  },
  { title: 'ScheduledChange' },
);

const ScheduleBody = Type.Object(
  {
    scheduled_at: Type.Optional(Time),
    payload: Type.Optional(ChangePayloadSchema),
    ramp: Type.Optional(
      Type.Array(Type.Object({ scheduled_at: Time, rollout_percentage: Percentage }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: MAX_RAMP_STEPS,
        description: 'rollout percentages at successive times (e.g. 10 %, then 50 %, then 100 %), each a change of its own',
      }),
    ),
  },
  { additionalProperties: false, description: 'one change (scheduled_at and payload) or a ramp (ramp alone)' },
);

const EditBody = Type.Object(
  { scheduled_at: Type.Optional(Time), payload: Type.Optional(ChangePayloadSchema) },
  { additionalProperties: false, description: 'a new time and/or a new payload (replacing the one it has)' },
);

const FlagParams = Type.Object({ project_id: Type.String(), id: Type.String() });
const ChangeParams = Type.Object({ project_id: Type.String(), id: Type.String(), change_id: Type.String() });

const id = (raw: string) => intId(raw) ?? notFound();
function notFound(): never {
  throw new NotFoundError();
}

/**
 * `/api/projects/:project_id/feature_flags/:id/scheduled_changes/`: list (soonest first), schedule (one change or
 * a ramp: 201 with the changes made), edit (`PATCH …/:change_id/`) and cancel (`DELETE …/:change_id/`) a pending change.
 * Scopes `feature_flag:read|write`.
 */
export const scheduledChangeRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { scheduledChanges: ScheduledChangeService }>> = async (
  app,
  { services },
) => {
  const read = authorize(services, 'feature_flag:read');
  const write = authorize(services, 'feature_flag:write');
  const base = '/api/projects/:project_id/feature_flags/:id/scheduled_changes';
  const tags = ['feature flags'];
  const changes = services.scheduledChanges;

  app.get<{ Params: Static<typeof FlagParams>; Querystring: Static<typeof PageQuery> }>(
    base,
    {
      onRequest: read,
      schema: {
        tags,
        summary: "The flag's scheduled changes, soonest first",
        params: FlagParams,
        querystring: PageQuery,
        response: { 200: pageOfSchema(ScheduledChangeSchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await changes.list(request.project!.id, id(request.params.id), page);
      return pageOf(request, count, results, page);
    },
  );

  app.post<{ Params: Static<typeof FlagParams>; Body: Static<typeof ScheduleBody> }>(
    base,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Schedule a change of the flag, or a ramp of its rollout',
        params: FlagParams,
        body: ScheduleBody,
        response: { 201: Type.Object({ results: Type.Array(ScheduledChangeSchema) }, { title: 'ScheduledChangesCreated' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const results = await changes.create(request.project!.id, id(request.params.id), request.body, actorOf(request));
      return reply.code(201).send({ results });
    },
  );

  app.patch<{ Params: Static<typeof ChangeParams>; Body: Static<typeof EditBody> }>(
    `${base}/:change_id`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: "Change a pending scheduled change's time or what it does",
        params: ChangeParams,
        body: EditBody,
        response: { 200: ScheduledChangeSchema, ...errorResponses },
      },
    },
    async (request) => changes.update(request.project!.id, id(request.params.id), id(request.params.change_id), request.body, actorOf(request)),
  );

  app.delete<{ Params: Static<typeof ChangeParams> }>(
    `${base}/:change_id`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Cancel a pending scheduled change',
        params: ChangeParams,
        response: { 204: Type.Null({ description: 'cancelled; empty body' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await changes.cancel(request.project!.id, id(request.params.id), id(request.params.change_id), actorOf(request));
      return reply.code(204).send();
    },
  );
};
