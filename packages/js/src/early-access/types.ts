/**
 * Stages the public endpoint can list (it returns `beta` when none is asked for). `concept` is a waitlist:
 * opting in registers interest and the flag stays off; the release stages (`alpha`, `beta`,
 * `general-availability`) turn the flag on for those enrolled.
 */
export type EarlyAccessStage = 'concept' | 'alpha' | 'beta' | 'general-availability'

/** A group (`client.group(type, key)`): an organization, say, that opts in once for all its members. */
export interface EnrollmentGroup {
  type: string
  key: string
}

/** Third argument of `updateEarlyAccessFeatureEnrollment` (or just the stage, as posthog-js takes it). */
export interface EnrollmentOptions {
  /** The feature's stage; default the one in the lists `getEarlyAccessFeatures` delivered. */
  stage?: EarlyAccessStage
  /** Enroll this group instead of the person. */
  group?: EnrollmentGroup
}

/** One item of `GET /api/early_access_features/`. */
export interface EarlyAccessFeature {
  id: string
  name: string
  description: string
  stage: EarlyAccessStage
  documentationUrl: string | null
  /** The flag that enrollment turns on, or null when none is linked. */
  flagKey: string | null
  /** The feature's JSON payload, as the service gives it (absent from older services). */
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
