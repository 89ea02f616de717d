import { enrollmentProperty } from '@service/flag-engine/enrollment'
import type { Props } from '../core/config'

/** Release stages the public endpoint can list (it returns `beta` when none is asked for). */
export type EarlyAccessStage = 'concept' | 'alpha' | 'beta' | 'general-availability'

/** One item of `GET /api/early_access_features/`. */
export interface EarlyAccessFeature {
  id: string
  name: string
  description: string
  stage: EarlyAccessStage
  documentationUrl: string | null
  /** The flag that enrollment turns on, or null when none is linked. */
  flagKey: string | null
  payload?: unknown
}

/** Second argument of the `getEarlyAccessFeatures` callback. */
export interface EarlyAccessContext {
  isLoaded: boolean
  error?: string
}

export type EarlyAccessCallback = (features: EarlyAccessFeature[], context: EarlyAccessContext) => void

/** One list as `getEarlyAccessFeatures` last delivered it. */
export interface EarlyAccessList extends EarlyAccessContext {
  features: EarlyAccessFeature[]
}

/**
 * Snapshot of `client.earlyAccessStore`: the lists delivered so far, by the stages asked for (`''` for the
 * server's default, else the stages joined with commas, as in `['alpha', 'beta'].join()`).
 */
export type EarlyAccessSnapshot = Readonly<Record<string, Readonly<EarlyAccessList>>>

/** The public list URL: `?token=<token>&stage=<s>...`. */
export function earlyAccessUrl(host: string, token: string, stages?: EarlyAccessStage[]): string {
  const q = new URLSearchParams({ token })
  stages?.forEach((s) => q.append('stage', s))
  return `${host}/api/early_access_features/?${q}`
}

/** Properties of `$feature_enrollment_update` (undefined ones are not sent); `$set` makes `$feature_enrollment/<flagKey>` a person property. */
export function enrollmentProps(flagKey: string, enrolled: boolean, name?: string, stage?: EarlyAccessStage): Props {
  return {
    $feature_flag: flagKey,
    $feature_enrollment: enrolled,
    $set: { [enrollmentProperty(flagKey)]: enrolled },
    $early_access_feature_name: name,
    $feature_enrollment_stage: stage,
  }
}
