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

/** The public list URL: `?token=<token>&stage=<s>...`. */
export function earlyAccessUrl(host: string, token: string, stages?: EarlyAccessStage[]): string {
  const q = new URLSearchParams({ token })
  stages?.forEach((s) => q.append('stage', s))
  return `${host}/api/early_access_features/?${q}`
}
