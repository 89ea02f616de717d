import type { FlagDetail } from '../../api/types';

/** The engine's description when a flag's group conditions could not run (the request named no group of their type). */
const GROUPS_NOT_EVALUATED = /group conditions were not evaluated/i;

/**
 * Why a flag answered what it did, in words for people: "Opted in to its early access feature" rather than
 * `super_condition_value`, "Matched condition set 2" rather than an index from 0. Condition sets are counted from 1, as
 * the flag's form shows them. A code this app does not know keeps the service's own description.
 */
export function reasonInWords({ reason, enabled }: Pick<FlagDetail, 'reason' | 'enabled'>): string {
  const set = reason.condition_index === null ? null : reason.condition_index + 1;
  switch (reason.code) {
    case 'condition_match':
      return set === null ? 'Matched a condition set' : `Matched condition set ${set}`;
    case 'no_condition_match':
      return GROUPS_NOT_EVALUATED.test(reason.description)
        ? 'No condition set matched: the request named no group of the type its group conditions need'
        : 'No condition set matched';
    case 'out_of_rollout_bound':
      return set === null ? 'Matched, but outside the rollout percentage' : `Matched condition set ${set}, but outside its rollout percentage`;
    case 'flag_disabled':
      return 'The flag is off';
    case 'super_condition_value':
      return enabled ? 'Opted in to its early access feature' : 'Opted out of its early access feature';
    case 'holdout_condition_value':
      return "In the experiment's holdout";
    case 'no_group_type':
      return 'The flag matches groups, and the request named no group of its type';
    case 'missing_dependency':
      return 'It depends on a flag that is missing';
    default:
      return reason.description;
  }
}
