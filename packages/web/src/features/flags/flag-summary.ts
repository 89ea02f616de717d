import { groupTypeName } from '../persons/api';
import type { FeatureFlag, GroupType } from '../../api/types';

export const isMultivariate = (flag: Pick<FeatureFlag, 'filters'>) => (flag.filters?.multivariate?.variants?.length ?? 0) > 0;

/** True when the flag is an early access feature's and turns on for the people who opted in (beta and later stages). */
const forOptedIn = (flag: Pick<FeatureFlag, 'filters'>) =>
  (Array.isArray(flag.filters?.super_groups) ? flag.filters.super_groups : []).some((g) =>
    (Array.isArray(g?.properties) ? g.properties : []).some((p) => typeof p?.key === 'string' && p.key.startsWith('$feature_enrollment/')),
  );

/**
 * One line saying who gets the flag ("50% of all users", "10% of all company groups", "2 condition sets", "People who
 * opted in"); a flag that matches groups names their type (from `groupTypes`, the project's).
 */
export function rolloutSummary(flag: Pick<FeatureFlag, 'filters'>, groupTypes?: GroupType[]): string {
  const groups = Array.isArray(flag.filters?.groups) ? flag.filters.groups : [];
  const nobodyElse = groups.length === 0 || (groups.length === 1 && groups[0]?.rollout_percentage === 0);
  const index = flag.filters?.aggregation_group_type_index;
  const unit = typeof index === 'number' ? `${groupTypeName(groupTypes, index)} groups` : 'users';
  if (forOptedIn(flag)) return nobodyElse ? 'People who opted in' : `People who opted in, and ${conditionsSummary(groups, unit)}`;
  return conditionsSummary(groups, unit);
}

function conditionsSummary(groups: NonNullable<FeatureFlag['filters']['groups']>, unit: string): string {
  if (groups.length === 0) return 'No one (no release conditions)';
  if (groups.length > 1) return `${groups.length} condition sets`;
  const [group] = groups;
  const pct = group?.rollout_percentage ?? 100;
  const props = Array.isArray(group?.properties) ? group.properties.length : 0;
  const who = props === 0 ? `all ${unit}` : `${unit} matching ${props} filter${props === 1 ? '' : 's'}`;
  return `${pct}% of ${who}`;
}
