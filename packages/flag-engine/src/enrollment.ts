// Imported alone by service-js (`@service/flag-engine/enrollment`): no runtime imports here.
import type { Condition } from './types';

/** Person property prefix that records early access enrollment: `$feature_enrollment/<flag key>`. */
export const ENROLLMENT_PROPERTY_PREFIX = '$feature_enrollment/';

/** The person property that records enrollment in a flag's early access feature: `$feature_enrollment/<flag key>`. */
export const enrollmentProperty = (flagKey: string) => `${ENROLLMENT_PROPERTY_PREFIX}${flagKey}`;

/** The super condition an early access feature in a release stage puts on its flag (`filters.super_groups[0]`). */
export function enrollmentCondition(flagKey: string): Condition {
  return {
    properties: [{ key: enrollmentProperty(flagKey), type: 'person', operator: 'exact', value: ['true'] }],
    rollout_percentage: 100,
  };
}
