import type { FeatureFlag } from '../../api/types';

export const isMultivariate = (flag: Pick<FeatureFlag, 'filters'>) => (flag.filters?.multivariate?.variants?.length ?? 0) > 0;

/** One line saying who gets the flag ("50% of all users", "2 condition sets"). */
export function rolloutSummary(flag: Pick<FeatureFlag, 'filters'>): string {
  const groups = Array.isArray(flag.filters?.groups) ? flag.filters.groups : [];
  if (groups.length === 0) return 'No one (no release conditions)';
  if (groups.length > 1) return `${groups.length} condition sets`;
  const [group] = groups;
  const pct = group?.rollout_percentage ?? 100;
  const props = Array.isArray(group?.properties) ? group.properties.length : 0;
  const who = props === 0 ? 'all users' : `users matching ${props} filter${props === 1 ? '' : 's'}`;
  return `${pct}% of ${who}`;
}
