import type { Db } from '../db/database';
import { Slices } from '../turns';
import { experimentAggregates, type MetricSpec } from './results-store';
import type { Experiment, ExperimentService, Metric } from './service';
import { conversionResults, meanResults, sampleRatioMismatch, type Method, type VariantResult } from './stats';

/**
 * The sample ratio check fails below this p-value. Stricter tools (GrowthBook, PostHog: 0.001) keep quiet about
 * mismatches a person should look at; a warning at the usual 0.05 costs a look, a missed mismatch a wrong decision.
 */
export const SRM_THRESHOLD = 0.05;
/** `exposures_by_day` lists every day of the experiment up to this many; a longer one lists only days with exposures. */
export const MAX_LISTED_DAYS = 1000;

const DAY_MS = 86_400_000;

export interface ResultsOptions {
  method: Method;
  sequential: boolean;
}

export interface ExperimentResults {
  experiment_id: number;
  method: Method;
  sequential: boolean;
  computed_at: string;
  exposures_total: number;
  excluded_multiple_variants: number;
  srm_p_value: number;
  srm_threshold: number;
  srm_flagged: boolean;
  metrics: { metric: Metric; primary: boolean; variants: VariantResult[] }[];
  exposures_by_day: { days: string[]; series: { key: string; counts: number[] }[] };
}

/** What the SQL sums for a metric, from the experiment's window (`end`: the end date, or now). */
function metricSpec(metric: Metric, end: string): MetricSpec {
  const properties = (metric.properties ?? []).map(({ key, value }) => ({ key, value }));
  if (metric.kind === 'conversion') return { kind: 'conversion', event: metric.event, properties, windowSeconds: metric.window_days * 86_400 };
  return { kind: 'mean', event: metric.event, ...(metric.property !== undefined ? { property: metric.property } : {}), properties, end };
}

/** Every UTC day (`YYYY-MM-DD`) from `start`'s to the one before `end` (exclusive), or undefined when there are too many. */
function daysBetween(start: string, end: string): string[] | undefined {
  const first = Date.parse(`${start.slice(0, 10)}T00:00:00.000Z`);
  const last = Date.parse(end) - 1;
  if (last < first) return [];
  if ((last - first) / DAY_MS >= MAX_LISTED_DAYS) return undefined;
  const days: string[] = [];
  for (let t = first; t <= last; t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * An experiment's results: exposures, every metric's per-variant aggregates (one SQL statement, see
 * results-store.ts), then the statistics of stats.ts. A draft (no start date) has no exposures yet.
 */
export class ExperimentResultsService {
  constructor(
    private readonly db: Db,
    private readonly experiments: Pick<ExperimentService, 'get'>,
  ) {}

  async results(projectId: number, id: number, options: ResultsOptions, now = new Date()): Promise<ExperimentResults> {
    const experiment = await this.experiments.get(projectId, id);
    const computedAt = now.toISOString();
    const window = windowOf(experiment, computedAt);
    const keys = experiment.variants.map((v) => v.key);
    const aggregates = window
      ? await experimentAggregates(
          this.db.kysely,
          this.db.dialect,
          { projectId, flagKey: experiment.feature_flag_key, variants: keys, start: window.start, end: window.end },
          experiment.metrics.map((m) => metricSpec(m, window.end)),
        )
      : {
          variants: keys.map((key) => ({ key, exposures: 0, metrics: experiment.metrics.map(() => ({ sum: 0, sumSquares: 0 })) })),
          excludedMultipleVariants: 0,
          byDay: [],
        };
    const exposures = aggregates.variants.map((v) => v.exposures);
    const srm = sampleRatioMismatch(
      exposures,
      experiment.variants.map((v) => v.rollout_percentage),
    );
    const stats = { method: options.method, sequential: options.sequential };
    // A bayesian metric's integrations take milliseconds each: the event loop gets a turn between metrics.
    const slices = new Slices();
    await slices.begin();
    const metrics: ExperimentResults['metrics'] = [];
    for (const [i, metric] of experiment.metrics.entries()) {
      if (slices.over) await slices.next();
      const variants =
        metric.kind === 'conversion'
          ? conversionResults(
              aggregates.variants.map((v) => ({ key: v.key, exposures: v.exposures, conversions: v.metrics[i]!.sum })),
              stats,
            )
          : meanResults(
              aggregates.variants.map((v) => ({ key: v.key, exposures: v.exposures, sum: v.metrics[i]!.sum, sum_squares: v.metrics[i]!.sumSquares })),
              stats,
            );
      metrics.push({ metric, primary: i === 0, variants });
    }
    const listed = window ? daysBetween(window.start, window.end) : [];
    const days = listed ?? [...new Set(aggregates.byDay.map((d) => d.day))].sort();
    const index = new Map(days.map((day, i) => [day, i]));
    const series = keys.map((key) => ({ key, counts: days.map(() => 0) }));
    const seriesOf = new Map(series.map((s) => [s.key, s]));
    for (const { day, variant, exposures: n } of aggregates.byDay) {
      const at = index.get(day);
      const s = seriesOf.get(variant);
      if (at !== undefined && s) s.counts[at] = n;
    }
    return {
      experiment_id: experiment.id,
      method: options.method,
      sequential: options.sequential,
      computed_at: computedAt,
      exposures_total: exposures.reduce((a, b) => a + b, 0),
      excluded_multiple_variants: aggregates.excludedMultipleVariants,
      srm_p_value: srm,
      srm_threshold: SRM_THRESHOLD,
      srm_flagged: srm < SRM_THRESHOLD,
      metrics,
      exposures_by_day: { days, series },
    };
  }
}

/** The exposure window: from the start date to the end date, or to now while it has none; none for a draft. */
function windowOf(experiment: Experiment, now: string): { start: string; end: string } | undefined {
  if (experiment.start_date === null) return undefined;
  const start = new Date(experiment.start_date).toISOString();
  const end = experiment.end_date === null ? now : new Date(experiment.end_date).toISOString();
  return end > start ? { start, end } : undefined;
}
