import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { NotFoundError } from '../errors';
import { authorize, type AuthLookups } from '../http/auth';
import { ProjectItemParams, errorResponses, intId } from '../http/schemas';
import type { RouteContext } from '../module';
import { SRM_THRESHOLD, type ExperimentResultsService } from './results';

const ResultsQuery = Type.Object({
  method: Type.Optional(Type.Enum(['bayesian', 'frequentist'], { default: 'bayesian', description: 'the statistics (default bayesian)' })),
  sequential: Type.Optional(
    Type.Enum(['true', 'false'], { default: 'false', description: 'frequentist only: always-valid intervals and p-values, safe to look at any time' }),
  ),
});

/** [lower, upper]; a null end is unbounded (too little data in control to bound a ratio). */
const LiftInterval = Type.Array(Type.Union([Type.Number(), Type.Null()]), {
  minItems: 2,
  maxItems: 2,
  description:
    'lower and upper end, null where unbounded (too little data in control); bayesian: quantiles of the lift’s posterior (the one of the chance to be best); frequentist: Fieller’s interval of the ratio',
});
const VariantResultSchema = Type.Object(
  {
    key: Type.String(),
    exposures: Type.Integer({ description: 'exposed people (those who saw several variants are left out)' }),
    conversions: Type.Optional(Type.Integer({ description: 'conversion metric: exposed people who did the event within the window after exposure' })),
    sum: Type.Optional(Type.Number({ description: 'mean metric: Σ over exposed people of their count (or property sum) after exposure' })),
    mean: Type.Optional(Type.Number()),
    variance: Type.Optional(Type.Number({ description: 'per-person variance' })),
    rate: Type.Number({ description: 'conversions/exposures, or the mean' }),
    credible_interval: Type.Tuple([Type.Number(), Type.Number()], { description: 'interval of the rate: credible (bayesian), confidence or always-valid' }),
    probability_to_be_best: Type.Union([Type.Number(), Type.Null()], { description: 'bayesian only' }),
    lift: Type.Union([Type.Object({ estimate: Type.Number(), interval: LiftInterval }), Type.Null()], {
      description: 'relative to control, (m_B − m_A)/|m_A|; null for control and when the control’s mean is 0',
    }),
    p_value: Type.Union([Type.Number(), Type.Null()], { description: 'frequentist only: the test of the difference against control' }),
  },
  { title: 'VariantResult' },
);

const PropertyMatch = Type.Object({ key: Type.String(), value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) });
const MetricSchema = Type.Object({
  kind: Type.Enum(['conversion', 'mean']),
  event: Type.String(),
  properties: Type.Optional(Type.Array(PropertyMatch)),
  window_days: Type.Optional(Type.Integer()),
  property: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
});

const ResultsSchema = Type.Object(
  {
    experiment_id: Type.Integer(),
    method: Type.Enum(['bayesian', 'frequentist'], { title: 'Method' }),
    sequential: Type.Boolean(),
    computed_at: Type.String({ format: 'date-time' }),
    exposures_total: Type.Integer({ description: 'exposed people counted in the results' }),
    excluded_multiple_variants: Type.Integer({ description: 'people who saw more than one variant: left out of everything' }),
    srm_p_value: Type.Number({ description: 'chi-square test of the exposures against the planned split' }),
    srm_threshold: Type.Number({ description: `the sample ratio check fails below this p-value (${SRM_THRESHOLD})` }),
    srm_flagged: Type.Boolean({ description: 'sample ratio mismatch: srm_p_value below srm_threshold' }),
    metrics: Type.Array(Type.Object({ metric: MetricSchema, primary: Type.Boolean(), variants: Type.Array(VariantResultSchema) }, { title: 'MetricResult' }), {
      description: 'in the order of the experiment’s metrics; the first is the primary',
    }),
    exposures_by_day: Type.Object({
      days: Type.Array(Type.String(), { description: 'UTC days (`YYYY-MM-DD`) of the experiment' }),
      series: Type.Array(Type.Object({ key: Type.String(), counts: Type.Array(Type.Integer(), { description: 'first exposures per day' }) })),
    }),
  },
  { title: 'ExperimentResults' },
);

/** `GET /api/projects/:project_id/experiments/:id/results/`: an experiment's results, computed from SQL aggregates. */
export const experimentResultsRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { experimentResults: ExperimentResultsService }>> = async (
  app,
  { services },
) => {
  app.get<{ Params: Static<typeof ProjectItemParams>; Querystring: Static<typeof ResultsQuery> }>(
    '/api/projects/:project_id/experiments/:id/results',
    {
      onRequest: authorize(services, 'experiment:read'),
      schema: {
        tags: ['experiments'],
        summary: "An experiment's results: exposures per variant, each metric's statistics against control, sample ratio mismatch",
        params: ProjectItemParams,
        querystring: ResultsQuery,
        response: { 200: ResultsSchema, ...errorResponses },
      },
    },
    async (request) => {
      const id = intId(request.params.id);
      if (id === undefined) throw new NotFoundError();
      return services.experimentResults.results(request.project!.id, id, {
        method: request.query.method ?? 'bayesian',
        sequential: request.query.sequential === 'true',
      });
    },
  );
};
