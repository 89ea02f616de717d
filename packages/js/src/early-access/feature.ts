import { enrollmentProperty } from '@service/flag-engine/enrollment'
import type { Client } from '../core/client'
import type { Feature } from '../core/feature'
import { GROUP_PROPS, GROUPS, PERSON } from '../core/keys'
import type { Props } from '../core/properties'
import { fetchJson } from '../core/request'
import { createStore, type Store } from '../core/store'
import type { FlagsApi } from '../flags/feature'
import { FLAGS, PAYLOADS } from '../flags/keys'
import type { InternalFlagStore } from '../flags/store'
import type { EarlyAccessCallback, EarlyAccessFeature, EarlyAccessSnapshot, EarlyAccessStage, EnrollmentGroup, EnrollmentOptions } from './types'
import { earlyAccessUrl, enrollmentProps } from './wire'

/** The lists delivered, cached in persistence under this key as `{ k: stages, f: features }`. */
const EAF = '$early_access'

/** What the early access feature adds to the client. */
export interface EarlyAccessApi {
  /**
   * The early access lists `getEarlyAccessFeatures` delivered, by stages asked for (`''`: the server's
   * default), as a store like `flagStore`.
   * @example const beta = service.earlyAccessStore.getSnapshot()[''] // { features, isLoaded, error? } | undefined
   */
  readonly earlyAccessStore: Store<EarlyAccessSnapshot>

  /**
   * Lists early access features (cached in persistence unless `force`); `stages` default to the server's (`beta`).
   * The lists delivered are also in `earlyAccessStore`.
   * @example service.getEarlyAccessFeatures((features) => render(features), true, ['alpha', 'beta'])
   */
  getEarlyAccessFeatures(callback: EarlyAccessCallback, force?: boolean, stages?: EarlyAccessStage[]): void

  /**
   * Opts the user (or a group of theirs) in or out of an early access feature: sends `$feature_enrollment_update`
   * (the service then sets the `$feature_enrollment/<key>` property of the person, or of the group), records
   * the enrollment here (sent with later `/flags` requests, read by `getEarlyAccessFeatureEnrollment`) and, in
   * a release stage, sets the flag locally at once. A `concept` feature is a waitlist: the opt-in is registered,
   * the flag stays off. The third argument is the stage (as in posthog-js) or `{ stage?, group? }`; the stage
   * defaults to the one in the lists delivered. A group is recorded and its flag set only while the user is in
   * it (`group(type, key)`); otherwise the event alone is sent.
   * @example service.updateEarlyAccessFeatureEnrollment('new-editor', true)
   * @example service.updateEarlyAccessFeatureEnrollment('ai-reports', true, { group: { type: 'company', key: 'acme' } })
   */
  updateEarlyAccessFeatureEnrollment(flagKey: string, enrolled: boolean, options?: EarlyAccessStage | EnrollmentOptions): void

  /**
   * The enrollment recorded on this device by `updateEarlyAccessFeatureEnrollment` for the person (or for
   * `group`, while the user is in it): `true`/`false`, `undefined` when none. For a `concept` feature it
   * tells that the user registered interest (its flag stays off).
   * @example const registered = service.getEarlyAccessFeatureEnrollment('ai-assistant') === true
   */
  getEarlyAccessFeatureEnrollment(flagKey: string, options?: { group?: EnrollmentGroup }): boolean | undefined
}

/**
 * Early access: the public list of features by stage (cached, and in `earlyAccessStore`), and opting the person
 * or a group in or out, which the flags feature's values follow at once in a release stage.
 */
export function earlyAccess(c: Client & FlagsApi): Feature<EarlyAccessApi> {
  const store = createStore<EarlyAccessSnapshot>({})

  /** A copy of where enrollments are recorded: the person's properties, or the group's while the user is in it (else undefined). */
  const enrollments = (group?: EnrollmentGroup): Props | undefined => {
    const p = c._storage
    if (!group) return { ...p.get<Props>(PERSON) }
    if (p.get<Props>(GROUPS)?.[group.type] === String(group.key)) return { ...p.get<Record<string, Props>>(GROUP_PROPS)?.[group.type] }
  }

  return {
    api: {
      earlyAccessStore: store,
      getEarlyAccessFeatures: (callback, force = false, stages) =>
        c._run(() => {
          const p = c._storage
          const key = (stages ?? []).join()
          const deliver = (features: EarlyAccessFeature[], context: { isLoaded: boolean; error?: string }) => {
            store.set({ ...store.getSnapshot(), [key]: { features, ...context } })
            c._try(() => callback(features, context))
          }
          const cached = p.get<{ k: string; f: EarlyAccessFeature[] }>(EAF)
          if (!force && cached?.k === key) return deliver(cached.f, { isLoaded: true })
          fetchJson(earlyAccessUrl(c.config.api_host, c.config.token, stages), {}, 10000).then((r) => {
            const f = r.json?.earlyAccessFeatures
            const ok = Array.isArray(f)
            if (ok) p.set({ [EAF]: { k: key, f } })
            deliver(ok ? f : [], ok ? { isLoaded: true } : { isLoaded: false, error: r.error ?? 'invalid_response' })
          })
        }),
      updateEarlyAccessFeatureEnrollment: (flagKey, enrolled, options) =>
        c._run(() => {
          const p = c._storage
          const feature = p.get<{ f: EarlyAccessFeature[] }>(EAF)?.f.find((f) => f.flagKey === flagKey)
          const { stage = feature?.stage, group } = typeof options === 'string' ? { stage: options } : (options ?? {})
          const recorded = enrollments(group)
          c._capture('$feature_enrollment_update', enrollmentProps(flagKey, enrolled, feature?.name, stage, group))
          if (!recorded) return
          recorded[enrollmentProperty(flagKey)] = enrolled
          p.set(group ? { [GROUP_PROPS]: { ...p.get<Props>(GROUP_PROPS), [group.type]: recorded } } : { [PERSON]: recorded })
          // Listeners of `earlyAccessStore` hear of the recorded enrollment.
          store.set({ ...store.getSnapshot() })
          if (stage === 'concept') return
          const flags = c.flagStore as InternalFlagStore
          const base = flags._state._base
          const values = { ...base.flags, [flagKey]: enrolled }
          p.set({ [FLAGS]: values, [PAYLOADS]: base.payloads })
          flags._update({ _base: { ...base, flags: values } })
        }),
      getEarlyAccessFeatureEnrollment: (flagKey, options) => c._get(() => enrollments(options?.group)?.[enrollmentProperty(flagKey)] as boolean | undefined),
    },
  }
}
