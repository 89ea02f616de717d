import type { FeatureFlag } from '../../api/types';
import type { Experiment } from './types';

const hasControl = (flag: FeatureFlag) => (flag.filters?.multivariate?.variants ?? []).some((v) => v.key === 'control');

/**
 * The existing flags a new experiment may use, as a picker's options: every multivariate flag, and those it may not
 * use disabled with the reason in their label: without a control variant, or already in an experiment that is a draft
 * or running (the service refuses a second one on the same flag).
 */
export function experimentFlagOptions(flags: FeatureFlag[], experiments: Pick<Experiment, 'name' | 'status' | 'feature_flag'>[]) {
  const openOn = new Map(experiments.filter((e) => e.status !== 'complete' && e.feature_flag).map((e) => [e.feature_flag.id, e.name]));
  return flags.map((f) => {
    const experiment = openOn.get(f.id);
    const why = experiment !== undefined ? `in experiment "${experiment}"` : hasControl(f) ? null : 'no control variant';
    return { value: String(f.id), label: why ? `${f.key} (${why})` : f.key, disabled: why !== null };
  });
}
