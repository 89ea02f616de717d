import type { FeatureFlag } from '../../api/types';

/** The API's experiment (`/api/projects/:id/experiments/`, see experiments-contract.md). */
export type ExperimentStatus = 'draft' | 'running' | 'complete';

export interface ExperimentVariant {
  key: string;
  rollout_percentage: number;
}

export interface PropertyMatch {
  key: string;
  value: string | number | boolean;
}

export type Metric =
  | { kind: 'conversion'; event: string; properties?: PropertyMatch[]; window_days?: number; name?: string }
  | { kind: 'mean'; event: string; property?: string; properties?: PropertyMatch[]; name?: string };

export interface Experiment {
  id: number;
  name: string;
  description: string;
  feature_flag_key: string;
  feature_flag: FeatureFlag;
  variants: ExperimentVariant[];
  metrics: Metric[];
  start_date: string | null;
  end_date: string | null;
  status: ExperimentStatus;
  created_at: string;
  updated_at: string;
}

export type Method = 'bayesian' | 'frequentist';

export interface VariantResult {
  key: string;
  exposures: number;
  conversions?: number;
  sum?: number;
  mean?: number;
  variance?: number;
  rate: number;
  credible_interval: [number, number];
  probability_to_be_best: number | null;
  /** A null end: unbounded (too little data in control to bound a ratio). */
  lift: { estimate: number; interval: [number | null, number | null] } | null;
  p_value: number | null;
}

export interface MetricResult {
  metric: Metric;
  primary: boolean;
  variants: VariantResult[];
}

export interface ExperimentResults {
  experiment_id: number;
  method: Method;
  sequential: boolean;
  computed_at: string;
  exposures_total: number;
  excluded_multiple_variants: number;
  srm_p_value: number | null;
  /** The sample ratio check fails below this p-value. */
  srm_threshold: number;
  srm_flagged: boolean;
  metrics: MetricResult[];
  exposures_by_day: { days: string[]; series: { key: string; counts: number[] }[] };
}

export const STATUS_INFO: Record<ExperimentStatus, { label: string; color: string; help: string }> = {
  draft: { label: 'Draft', color: 'gray', help: 'Not started: its flag stays exactly as it is until you launch.' },
  running: { label: 'Running', color: 'blue', help: 'People get a variant and are counted when they see it.' },
  complete: { label: 'Complete', color: 'green', help: 'Finished: results cover its start to its end.' },
};

/** A metric in words: "Conversion to purchase within 14 days", "Mean of amount per person on purchase". */
export function metricLabel(m: Metric): string {
  if (m.name) return m.name;
  if (m.kind === 'conversion') return `Conversion to ${m.event} within ${m.window_days ?? 14} days`;
  return m.property ? `Mean ${m.property} of ${m.event} per person` : `Mean count of ${m.event} per person`;
}

/** A share as a percentage with one or two decimals ("12.3 %"); a signed one for lifts ("+4.1 %"). */
export function percent(value: number | null | undefined, signed = false, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const text = `${(value * 100).toFixed(digits)} %`;
  return signed && value > 0 ? `+${text}` : text;
}

/** A lift interval in words: "+6.4 % to +97.7 %", "−100.0 % to no upper bound". */
export function liftInterval([lo, hi]: [number | null, number | null]): string {
  return `${lo === null ? 'no lower bound' : percent(lo, true)} to ${hi === null ? 'no upper bound' : percent(hi, true)}`;
}

/** A number with at most `digits` decimals, for means. */
export function decimal(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return Number(value.toFixed(digits)).toLocaleString(undefined, { maximumFractionDigits: digits });
}

/** A p-value in a sentence: "p < 0.001", "p = 0.027". */
export const pIs = (p: number | null | undefined) => (p !== null && p !== undefined && p < 0.001 ? 'p < 0.001' : `p = ${pValue(p)}`);

/** A p-value as analysts write it ("< 0.001", "0.027"). */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}
