import { useCallback, useEffect, useMemo, useSyncExternalStore } from './externals'
import type { EarlyAccessFeature, EarlyAccessList, EarlyAccessStage, EnrollmentGroup, EnrollmentOptions } from 'service-js'
import { useCtx } from './use-ctx'
import { useSnapshot } from './use-snapshot'

/**
 * What opting in to a feature does: `register-interest` for a `concept` feature (a waitlist: the opt-in is
 * recorded, the flag stays off until the feature is released), `try-it` for a feature in a release stage
 * (`alpha`, `beta`, `general-availability`: the flag turns on at once).
 */
export type EarlyAccessAction = 'register-interest' | 'try-it'

/** An early access feature (its `payload` included), with what opting in does and whether the user opted in. */
export type EarlyAccessItem = EarlyAccessFeature & {
  /** `register-interest` for a `concept` feature, `try-it` for a released one. */
  action: EarlyAccessAction
  /** For `register-interest`: the registration recorded on this device; for `try-it`: the feature's flag is on. */
  enrolled: boolean
}

/** Options of `useEarlyAccessFeatures`. */
export interface EarlyAccessOptions {
  /** A group of the user (`client.group(type, key)`) to enroll by default, whose registrations `enrolled` shows. */
  group?: EnrollmentGroup
}

/** Result of `useEarlyAccessFeatures`. */
export interface EarlyAccess {
  /** The features of the asked stages (default `beta`), `[]` until loaded. */
  features: EarlyAccessItem[]
  /** `true` once the list has loaded. */
  isLoaded: boolean
  /** Why loading failed, if it did. */
  error?: string
  /**
   * Opts the user (or `options.group`, default the hook's group) in or out: sends `$feature_enrollment_update`;
   * registers interest in a `concept` feature, turns a released feature's flag on or off at once.
   */
  enroll: (flagKey: string, enrolled: boolean, options?: EnrollmentOptions) => void
}

/** What `useEarlyAccessFeatures` serves until the list of its stages has loaded. */
const NOT_LOADED: EarlyAccessList = { features: [], isLoaded: false }

/**
 * The early access features open to the user, with opt-in/out. Loads the list from the service on
 * mount (and when `stages` change) and reads it from the client's `earlyAccessStore`. Each item says what
 * opting in does (`action`): `register-interest` for a `concept` feature, `try-it` for a released one.
 * @example
 * const { features, enroll } = useEarlyAccessFeatures(['concept', 'beta'])
 * features.map((f) => (
 *   <button aria-pressed={f.enrolled} onClick={() => enroll(f.flagKey!, !f.enrolled)}>
 *     {f.action === 'register-interest' ? 'Register interest' : 'Try it'}: {f.name}
 *   </button>
 * ))
 * @example const { enroll } = useEarlyAccessFeatures(['beta'], { group: { type: 'company', key: 'acme' } }) // enrolls the company
 */
export function useEarlyAccessFeatures(stages?: EarlyAccessStage[], options?: EarlyAccessOptions): EarlyAccess {
  const { client } = useCtx()
  const key = stages?.join() ?? ''
  const type = options?.group?.type
  const groupKey = options?.group?.key
  useEffect(() => {
    client.getEarlyAccessFeatures(() => {}, true, key ? (key.split(',') as EarlyAccessStage[]) : undefined)
  }, [client, key])
  const store = client.earlyAccessStore
  // The whole snapshot: a new one also when an enrollment is recorded.
  const list = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot)[key] ?? NOT_LOADED
  const group = useMemo(() => (type ? { type, key: groupKey! } : undefined), [type, groupKey])
  // One character per feature ('1' enrolled): re-renders only when an enrollment of these features changes.
  const bits = useSnapshot((s) =>
    list.features
      .map((f) => (f.flagKey && (f.stage === 'concept' ? client.getEarlyAccessFeatureEnrollment(f.flagKey, { group }) : s.flags[f.flagKey]) ? 1 : 0))
      .join(''),
  )
  const enroll = useCallback(
    (flagKey: string, enrolled: boolean, opts?: EnrollmentOptions) =>
      client.updateEarlyAccessFeatureEnrollment(flagKey, enrolled, { stage: list.features.find((f) => f.flagKey === flagKey)?.stage, group, ...opts }),
    [client, list, group],
  )
  const features = useMemo(
    () => list.features.map((f, i): EarlyAccessItem => ({ ...f, action: f.stage === 'concept' ? 'register-interest' : 'try-it', enrolled: bits[i] === '1' })),
    [list, bits],
  )
  return useMemo(() => ({ features, isLoaded: list.isLoaded, error: list.error, enroll }), [features, list, enroll])
}
