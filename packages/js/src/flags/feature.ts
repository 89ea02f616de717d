import type { Client } from '../core/client'
import type { Feature } from '../core/feature'
import { ANON, DEVICE, DID, GROUP_PROPS, GROUPS, PERSON } from '../core/keys'
import { fetchJson, type JsonResult } from '../core/request'
import { flagCalledProps } from './called'
import { CALLED, FLAGS, META, OVERRIDES, PAYLOADS } from './keys'
import { nextOverrides, type OverrideInput } from './overrides'
import { flagProperties } from './properties'
import { reloader } from './reload'
import { flagStream } from './stream'
import { readFlagsAnswer, type FlagsMeta } from './response'
import { bootstrapSnapshot, createFlagStore, noValues, type FlagStore } from './store'
import type { FeatureFlagKey, FeatureFlagPayload, FeatureFlagValue } from './registry'
import type { FlagValue } from './types'

/** `onFeatureFlags` callback: enabled keys, their values, and whether the last load failed. */
export type FeatureFlagsCallback = (flags: string[], variants: Record<string, FlagValue>, context: { errorsLoading: boolean }) => void

/** What the flags feature adds to the client. */
export interface FlagsApi {
  /**
   * The framework-free flag store: `subscribe(listener) → unsubscribe`, `getSnapshot()`,
   * `getServerSnapshot()`. Exists before `init`; made for `useSyncExternalStore`.
   * @example const off = service.flagStore.subscribe(() => console.log(service.flagStore.getSnapshot().flags))
   */
  readonly flagStore: FlagStore

  /** Local flag tools. */
  readonly featureFlags: {
    /**
     * Overrides flag values (and payloads) on this device, for testing; overrides win over every other
     * value and persist until cleared with `overrideFeatureFlags(false)`.
     * @example service.featureFlags.overrideFeatureFlags({ flags: { 'new-ui': 'test' }, payloads: { 'new-ui': { color: 'red' } } })
     */
    overrideFeatureFlags(overrides: OverrideInput): void
  }

  /**
   * Whether a flag is on: `undefined` while no value is known, else `true`/`false` (a variant counts as on).
   * Sends `$feature_flag_called` once per flag and value unless `send_event: false`.
   * @example if (service.isFeatureEnabled('new-ui')) renderNewUi()
   */
  isFeatureEnabled(key: FeatureFlagKey, options?: { send_event?: boolean }): boolean | undefined

  /**
   * A flag's value: `true`/`false`, the variant key, or `undefined` while unknown.
   * Sends `$feature_flag_called` once per flag and value unless `send_event: false`.
   * @example const variant = service.getFeatureFlag('checkout-test') // 'control' | 'test' | false | undefined
   */
  getFeatureFlag<K extends FeatureFlagKey>(key: K, options?: { send_event?: boolean }): FeatureFlagValue<K> | undefined

  /**
   * A flag's payload (parsed JSON; the raw string when it is not JSON), for enabled flags only. Sends no event.
   * @example const { color } = service.getFeatureFlagPayload('new-ui') as { color: string }
   */
  getFeatureFlagPayload<K extends FeatureFlagKey>(key: K): FeatureFlagPayload<K> | undefined

  /**
   * Calls `callback(enabledKeys, values, {errorsLoading})` now if values are known, then on every change.
   * Returns the unsubscribe function. Works before `init`.
   * @example const off = service.onFeatureFlags((flags) => console.log('enabled:', flags))
   */
  onFeatureFlags(callback: FeatureFlagsCallback): () => void

  /**
   * Asks `/flags` for fresh values (calls in the same tick are merged; one request at a time).
   * @example service.reloadFeatureFlags()
   */
  reloadFeatureFlags(): void
}

/**
 * Feature flags: values from the bootstrap, the last ones stored on this device, `/flags` (asked at start and
 * whenever the person, their properties or groups change) and local overrides, in the flag store; every event
 * carries them (`$feature/<key>`, `$active_feature_flags`); reading one sends `$feature_flag_called` once per
 * person, flag and value.
 */
export function flags(c: Client): Feature<FlagsApi> {
  /** Flag values from the server, the bootstrap, the cache and overrides (`flagStore` is its public face). */
  const store = createFlagStore()

  /**
   * `POST /flags/?v=2&config=true` for the current user, and what it answers into the flag store; with
   * `config=true` the answer also carries the project's configuration (`sessionRecording`, ...), announced as
   * `remoteConfig` before `featureFlagsLoaded`.
   */
  const request = (): Promise<void> => {
    const p = c._storage
    const did = c.get_distinct_id()
    const anon = p.get<string>(ANON)
    const body = JSON.stringify({
      token: c.config.token,
      distinct_id: did,
      groups: p.get(GROUPS) ?? {},
      person_properties: p.get(PERSON) ?? {},
      group_properties: p.get(GROUP_PROPS) ?? {},
      $device_id: p.get(DEVICE),
      ...(anon ? { $anon_distinct_id: anon } : {}),
    })
    return fetchJson(
      c.config.api_host + '/flags/?v=2&config=true',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body },
      c.config.feature_flag_request_timeout_ms,
    ).then((r) => void c._try(() => answered(r, did, anon)))
  }

  const answered = (r: JsonResult, did: string, anon?: string): void => {
    // The user changed while we waited: this answer is for someone else, and a new request follows.
    if (did !== c.get_distinct_id()) return
    const answer = readFlagsAnswer(r, store._state._base)
    if ('error' in answer) store._update({ error: answer.error })
    else {
      const { base, meta, partial } = answer
      c._storage.set({
        [FLAGS]: base.flags,
        [PAYLOADS]: base.payloads,
        [META]: meta,
        ...(anon && c._storage.get(ANON) === anon ? { [ANON]: undefined } : {}),
      })
      store._update({ _base: base, source: 'server', error: partial ? 'errors_while_computing_flags' : undefined })
      c._bus.emit('remoteConfig', r.json)
    }
    c._bus.emit('featureFlagsLoaded', store.getSnapshot())
  }

  const ask = reloader(() => c._try(request))
  /** Asks `/flags` for fresh values soon (see `reloader`): in a browser, unless `advanced_disable_flags`. */
  const reload = () => {
    if (!c.config.advanced_disable_flags && c._browser) ask()
  }

  const api: FlagsApi = {
    flagStore: store,
    featureFlags: {
      overrideFeatureFlags: (overrides) =>
        c._run(() => {
          const over = nextOverrides(overrides, store._state._over)
          c._storage.set({ [OVERRIDES]: over })
          store._update({ _over: over })
        }),
    },
    isFeatureEnabled(key, options) {
      const v = api.getFeatureFlag(key, options)
      return v === undefined ? undefined : !!v
    },
    // The registry's types describe what the service answers; at run time a key is any string.
    getFeatureFlag: <K extends FeatureFlagKey>(key: K, options?: { send_event?: boolean }) =>
      c._get(() => {
        const snap = store.getSnapshot()
        if (snap.source === 'none' && !(key in snap.flags)) {
          c._log('no flags yet', key)
          return undefined
        }
        const v = snap.flags[key]
        if (options?.send_event === false || c.has_opted_out_capturing()) return v as FeatureFlagValue<K> | undefined
        // Once per person, flag and value: kept across page loads for this distinct id only (so another
        // user, by identify, reset or a bootstrap, is reported again).
        const p = c._storage
        const id = p.get<string>(DID)!
        const called = p.get<Record<string, Record<string, string[]>>>(CALLED)?.[id] ?? {}
        const seen = called[key] ?? []
        if (!seen.includes(String(v))) {
          p.set({ [CALLED]: { [id]: { ...called, [key]: [...seen, String(v)] } } })
          c._capture('$feature_flag_called', flagCalledProps(key, v, snap, store, p.get<FlagsMeta>(META), c.config.bootstrap?.featureFlags))
        }
        return v as FeatureFlagValue<K> | undefined
      }),
    getFeatureFlagPayload: <K extends FeatureFlagKey>(key: K) => c._get(() => store.getSnapshot().payloads[key] as FeatureFlagPayload<K> | undefined),
    onFeatureFlags(callback) {
      const call = () => {
        const s = store.getSnapshot()
        if (s.source === 'none') return
        const variants: Record<string, FlagValue> = {}
        for (const k in s.flags) if (s.flags[k]) variants[k] = s.flags[k]
        c._try(() => callback(Object.keys(variants), variants, { errorsLoading: !!s.error }))
      }
      call()
      return store.subscribe(call)
    },
    reloadFeatureFlags: () => c._run(reload),
  }

  return {
    api,
    // Bootstrap (freshest) or else the last known values, with local overrides on top; then `/flags` is asked,
    // a moment later (see `reloader`), after `init` and the calls it replays.
    init() {
      const p = c._storage
      const b = c.config.bootstrap ?? {}
      const cached = p.get<Record<string, FlagValue>>(FLAGS)
      store._server = bootstrapSnapshot(b)
      store._update({
        _over: p.get(OVERRIDES) ?? {},
        ...(b.featureFlags
          ? { _base: { flags: { ...b.featureFlags }, payloads: { ...b.featureFlagPayloads } }, source: 'bootstrap' }
          : cached
            ? { _base: { flags: cached, payloads: p.get(PAYLOADS) ?? {} }, source: 'cache' }
            : {}),
      })
      reload()
    },
    start() {
      if (c.config.realtime_flags && !c.config.advanced_disable_flags) flagStream(c, reload)
    },
    properties: () => flagProperties(store.getSnapshot()),
    personChanged: reload,
    reset() {
      store._update(noValues())
      reload()
    },
  }
}
