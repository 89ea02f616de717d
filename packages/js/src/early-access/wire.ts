import { enrollmentProperty } from '@service/flag-engine/enrollment'
import type { Props } from '../core/properties'
import type { EarlyAccessStage, EnrollmentGroup } from './types'

/** The public list URL: `?token=<token>&stage=<s>...`. */
export function earlyAccessUrl(host: string, token: string, stages?: EarlyAccessStage[]): string {
  const q = new URLSearchParams({ token })
  stages?.forEach((s) => q.append('stage', s))
  return `${host}/api/early_access_features/?${q}`
}

/**
 * Properties of `$feature_enrollment_update` (undefined ones are not sent). For a person, `$set` makes
 * `$feature_enrollment/<flagKey>` a person property; for a group, `$group_type`/`$group_key` name the
 * group whose property the service sets (no `$set`).
 */
export function enrollmentProps(flagKey: string, enrolled: boolean, name?: string, stage?: EarlyAccessStage, group?: EnrollmentGroup): Props {
  return {
    $feature_flag: flagKey,
    $feature_enrollment: enrolled,
    $set: group ? undefined : { [enrollmentProperty(flagKey)]: enrolled },
    $group_type: group?.type,
    $group_key: group && String(group.key),
    $early_access_feature_name: name,
    $feature_enrollment_stage: stage,
  }
}
