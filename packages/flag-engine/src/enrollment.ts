import type { Condition } from './types';

/** Person property prefix that records early access enrollment: `$feature_enrollment/<flag key>`. */
export const ENROLLMENT_PROPERTY_PREFIX = '$feature_enrollment/';

/** The super condition an early access feature in a release stage puts on its flag (`filters.super_groups[0]`). */
export function enrollmentCondition(flagKey: string): Condition {
  return {
    properties: [{ key: `${ENROLLMENT_PROPERTY_PREFIX}${flagKey}`, type: 'person', operator: 'exact', value: ['true'] }],
    rollout_percentage: 100,
  };
}
