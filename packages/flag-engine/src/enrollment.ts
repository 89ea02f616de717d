// Imported alone by service-js (`@service/flag-engine/enrollment`): no runtime imports here.
import type { Condition } from './types';

/** Person (or group) property prefix that records early access enrollment: `$feature_enrollment/<flag key>`. */
export const ENROLLMENT_PROPERTY_PREFIX = '$feature_enrollment/';

/** The property that records enrollment in a flag's early access feature: `$feature_enrollment/<flag key>`. */
export const enrollmentProperty = (flagKey: string) => `${ENROLLMENT_PROPERTY_PREFIX}${flagKey}`;

/**
 * The super condition an early access feature in a release stage puts on its flag (`filters.super_groups[0]`):
 * the person property `$feature_enrollment/<flag key>` is `true`; for a group-based flag (`groupTypeIndex` given),
 * the property of the request's group of that type, and the condition is aggregated by that group type.
 */
export function enrollmentCondition(flagKey: string, groupTypeIndex?: number | null): Condition {
  if (groupTypeIndex == null) {
    return {
      properties: [{ key: enrollmentProperty(flagKey), type: 'person', operator: 'exact', value: ['true'] }],
      rollout_percentage: 100,
    };
  }
  return {
    properties: [{ key: enrollmentProperty(flagKey), type: 'group', group_type_index: groupTypeIndex, operator: 'exact', value: ['true'] }],
    rollout_percentage: 100,
    aggregation_group_type_index: groupTypeIndex,
  };
}
