import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf } from '../http/actor';
import { NotFoundError } from '../errors';
import { authorize, type AuthLookups } from '../http/auth';
import { projectRoutes } from '../http/project-routes';
import { FlagSummarySchema } from '../feature-flags/routes';
import { PageQuery, ProjectItemParams, Text, errorResponses, intId } from '../http/schemas';
import type { RouteContext } from '../module';
import { DEFAULT_WINDOW_DAYS, METRIC_KINDS, STATUSES, type ExperimentService } from './service';

const VariantSchema = Type.Object(
  {
    key: Text({ minLength: 1, maxLength: 200, description: 'letters, numbers, hyphens and underscores; one variant is `control`' }),
    rollout_percentage: Type.Number({ minimum: 0, maximum: 100, description: 'share of the flag’s audience; the variants sum to 100' }),
  },
  { additionalProperties: false },
);
const Variants = (description = 'at least two, one of them `control`, summing to 100') => Type.Array(VariantSchema, { maxItems: 20, description });

const PropertyMatch = Type.Object(
  {
    key: Text({ minLength: 1, maxLength: 400 }),
    value: Type.Union([Type.String({ maxLength: 10_000, pattern: '^[^\\u0000]*$' }), Type.Number(), Type.Boolean()]),
  },
  { additionalProperties: false },
);
const metricFields = {
  kind: Type.Enum([...METRIC_KINDS], { description: 'conversion: the share of exposed people who did the event; mean: the event per exposed person' }),
  event: Text({ minLength: 1, maxLength: 400, description: 'the event name (one with no events yet is allowed)' }),
  properties: Type.Optional(Type.Array(PropertyMatch, { maxItems: 50, description: 'event properties that must equal these values (all of them)' })),
  window_days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 365, description: `conversion only: days after exposure that count (default ${DEFAULT_WINDOW_DAYS})` }),
  ),
  property: Type.Optional(Text({ minLength: 1, maxLength: 400, description: 'mean only: the numeric event property to sum; absent: count the events' })),
  name: Type.Optional(Text({ maxLength: 400 })),
};
const MetricSchema = Type.Object(metricFields, { additionalProperties: false, description: 'the first metric is the primary' });
const Metrics = Type.Array(MetricSchema, { maxItems: 50 });

const DateField = Type.Union([Text({ format: 'date-time', maxLength: 64 }), Type.Null()]);
const Status = Type.Enum([...STATUSES], { title: 'ExperimentStatus' });

const ExperimentSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    feature_flag_key: Type.String(),
    feature_flag: FlagSummarySchema,
    variants: Type.Array(Type.Object({ key: Type.String(), rollout_percentage: Type.Number() }, { title: 'ExperimentVariant' })),
    metrics: Type.Array(
      Type.Object(
        {
          ...metricFields,
          kind: Type.Enum([...METRIC_KINDS]),
          event: Type.String(),
          properties: Type.Optional(Type.Array(Type.Object({ key: Type.String(), value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) }))),
          property: Type.Optional(Type.String()),
          name: Type.Optional(Type.String()),
        },
        { title: 'Metric' },
      ),
    ),
    start_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    end_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    status: Status,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Experiment' },
);

const editable = {
  name: Text({ minLength: 1, maxLength: 400 }),
  description: Text({ maxLength: 100_000 }),
  variants: Variants(),
  metrics: Metrics,
  start_date: DateField,
  end_date: DateField,
  status: Type.Enum([...STATUSES], { description: 'draft → running → complete; the flag is left as it is while draft, and launched (split, on) at running' }),
};
const ExperimentCreate = Type.Object(
  {
    name: editable.name,
    feature_flag_key: Text({
      minLength: 1,
      maxLength: 400,
      description:
        'a new flag is made with this key (off until launch); an existing multivariate flag with a `control` variant is used instead, left as it is until launch',
    }),
    description: Type.Optional(editable.description),
    variants: Type.Optional(Variants('default: an existing flag’s variants, or control/test 50/50; the flag takes them at launch')),
    metrics: Type.Optional(editable.metrics),
    start_date: Type.Optional(editable.start_date),
    end_date: Type.Optional(editable.end_date),
    status: Type.Optional(Type.Enum(['draft', 'running'], { description: 'draft (default) or running' })),
  },
  { additionalProperties: false },
);
const ExperimentUpdate = Type.Partial(Type.Object(editable), { additionalProperties: false });
const ShipBody = Type.Object(
  { variant: Text({ minLength: 1, maxLength: 200, description: 'the variant everyone gets from now on' }) },
  { additionalProperties: false },
);

const idOf = (raw: string) => intId(raw) ?? notFound();
function notFound(): never {
  throw new NotFoundError();
}

/** `/api/projects/:project_id/experiments/`: A/B tests on multivariate flags, and shipping a variant. */
export const experimentRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { experiments: ExperimentService }>> = async (app, { services }) => {
  const tags = ['experiments'];
  const routes = projectRoutes(app, services, { collection: 'experiments', object: 'experiment', tags });
  routes.list(PageQuery, ExperimentSchema, (projectId, _query, page) => services.experiments.list(projectId, page.limit, page.offset));
  routes.create(ExperimentCreate, ExperimentSchema, (projectId, body, request) => services.experiments.create(projectId, body, actorOf(request)));
  routes.get(ExperimentSchema, (projectId, id) => services.experiments.get(projectId, idOf(id)));
  routes.update(ExperimentUpdate, ExperimentSchema, (projectId, id, body, request) => services.experiments.update(projectId, idOf(id), body, actorOf(request)));
  routes.delete((projectId, id, request) => services.experiments.delete(projectId, idOf(id), actorOf(request)));

  app.post<{ Params: Static<typeof ProjectItemParams>; Body: Static<typeof ShipBody> }>(
    '/api/projects/:project_id/experiments/:id/ship',
    {
      onRequest: authorize(services, 'experiment:write'),
      schema: {
        tags,
        summary: 'Ship a variant: everyone gets it, and the experiment completes',
        params: ProjectItemParams,
        body: ShipBody,
        response: { 200: ExperimentSchema, 409: errorResponses[400], ...errorResponses },
      },
    },
    async (request) => services.experiments.ship(request.project!.id, idOf(request.params.id), request.body.variant, actorOf(request)),
  );
};
