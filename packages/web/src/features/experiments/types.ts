import type { components } from '../../api/schema.gen';
import type { FlagSummary } from '../../api/types';

type Schemas = components['schemas'];

/** The API's experiment (`/api/projects/:id/experiments/`): draft → running → complete. */
export type ExperimentStatus = Schemas['ExperimentStatus'];
export type ExperimentVariant = Schemas['ExperimentVariant'];
export type Metric = Schemas['Metric'];
export type PropertyMatch = NonNullable<Metric['properties']>[number];
export type Experiment = Omit<Schemas['Experiment'], 'feature_flag'> & { feature_flag: FlagSummary };

export type Method = Schemas['Method'];
export type VariantResult = Schemas['VariantResult'];
export type MetricResult = Schemas['MetricResult'];
export type ExperimentResults = Schemas['ExperimentResults'];

/** A lift's interval: its lower and upper end, null where unbounded (too little data in control to bound a ratio). */
export type LiftInterval = [number | null, number | null];
/** The two ends of a lift's interval as the API gives it (an array of two, which its generated type cannot say). */
export const ends = (interval: readonly (number | null)[]): LiftInterval => [interval[0] ?? null, interval[1] ?? null];

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
export function liftInterval([lo, hi]: LiftInterval): string {
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
