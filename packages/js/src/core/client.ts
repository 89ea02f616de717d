import { enrollmentProperty } from '@service/flag-engine/enrollment'
import { DEFAULTS, type Config, type Props, type ServiceOptions } from './config'
import { createPersistence, type Persistence } from './persistence'
import { createQueue, type Queue } from './queue'
import { sanitize } from './sanitize'
import { fetchJson, type JsonResult } from './request'
import { isValidId, sessionId, uuidv7, type IdentitySnapshot } from './identity'
import { createBus, type Announcement, type ClientEvents, type ExceptionCall, type ExceptionRequest } from './bus'
import { createStore, type Store } from './store'
import { holdEvents, type Extension } from './extension'
import { flagProperties, pageProperties } from './properties'
import { bootstrapSnapshot, createFlagStore, type FlagStore, type FlagValue } from '../flags/store'
import { readFlagsAnswer, type FlagsMeta } from '../flags/response'
import { flagCalledProps } from '../flags/called'
import { reloader } from '../flags/reload'
import { nextOverrides, type OverrideInput } from '../flags/overrides'
import {
  earlyAccessUrl,
  enrollmentProps,
  type EarlyAccessCallback,
  type EarlyAccessFeature,
  type EarlyAccessSnapshot,
  type EarlyAccessStage,
  type EnrollmentGroup,
  type EnrollmentOptions,
} from '../flags/early-access'
import { autocapture } from '../autocapture/autocapture'
import { pageviews } from '../autocapture/pageview'
import { loadChunk } from '../extensions/load'

// Persistence keys. The first five also go into the cookie (see persistence.ts).
const DID = 'distinct_id'
const DEVICE = '$device_id'
const STATE = '$user_state'
const OPT = '$opt'
const SUPER = '$super'
const GROUPS = '$groups'
const PERSON = '$person_props'
const GROUP_PROPS = '$group_props'
const ANON = '$anon_distinct_id'
const FLAGS = '$flags'
const PAYLOADS = '$flag_payloads'
const META = '$flag_meta'
const OVERRIDES = '$flag_overrides'
const CALLED = '$flag_called'
const EAF = '$early_access'
/** The announcements kept for a lazy extension while it loads. */
const HELD = ['eventCaptured', 'exception'] as const

/** Options of `capture`. */
export interface CaptureOptions {
  /** Person properties to set (top-level `$set` of the event). */
  $set?: Props
  /** Person properties to set only when absent (top-level `$set_once`). */
  $set_once?: Props
  /** When the event happened; default now. */
  timestamp?: Date
  /** The event's UUID; default a new UUIDv7. */
  uuid?: string
}

/** `onFeatureFlags` callback: enabled keys, their values, and whether the last load failed. */
export type FeatureFlagsCallback = (flags: string[], variants: Record<string, FlagValue>, context: { errorsLoading: boolean }) => void

const NO_IDENTITY: IdentitySnapshot = { distinctId: '', sessionId: '' }

/**
 * A client. Most apps use the default instance `service`; create more with `new Service()`.
 * No method throws; calls made before `init` are queued and replayed by `init` (reads return empty values).
 * @example
 * import { Service } from 'service-js'
 * const other = new Service().init('phc_other_project')
 */
export class Service {
  /** Effective configuration: defaults merged with the options given to `init`. */
  config: Config = { ...DEFAULTS }
  /** `true` once `init` has run. */
  __loaded = false

  /** Flag values from the server, the bootstrap, the cache and overrides (`flagStore` is its public face). */
  private _flags = createFlagStore()
  private _identity = createStore(NO_IDENTITY)
  private _earlyAccess = createStore<EarlyAccessSnapshot>({})
  /** Identity, session, super properties, groups, flag state and consent, where `persistence` says. */
  private _storage!: Persistence
  /** Events waiting to be sent (in a browser only). */
  private _queue?: Queue
  /** Whether `init` found `window` and `document`; without them nothing is sent. */
  private _browser = false
  private _token = ''
  /** Calls made before `init`, which replays them. */
  private _pending: (() => void)[] = []
  /** Asks `/flags` for fresh values soon (see `reloader`). */
  private _reloadFlags = reloader(() => this._try(() => this._requestFlags()))
  /** What the client announces to extensions (`on`). */
  private _bus = createBus()
  /** Lazy extensions by name, loading or loaded: `true` once started. */
  private _extensions = new Map<string, Promise<boolean>>()
  /** Exceptions sent without their extension (it could not load): at most 10 a page, so a loop cannot flood. */
  private _bareExceptions = 0

  /**
   * The framework-free flag store: `subscribe(listener) → unsubscribe`, `getSnapshot()`,
   * `getServerSnapshot()`. Exists before `init`; made for `useSyncExternalStore`.
   * @example const off = service.flagStore.subscribe(() => console.log(service.flagStore.getSnapshot().flags))
   */
  readonly flagStore: FlagStore = this._flags

  /**
   * The distinct id and session id as a store like `flagStore` (for `useSyncExternalStore`); the server
   * snapshot holds the bootstrap's distinct id.
   * @example const { distinctId, sessionId } = service.identityStore.getSnapshot()
   */
  readonly identityStore: Store<IdentitySnapshot> = this._identity

  /**
   * The early access lists `getEarlyAccessFeatures` delivered, by stages asked for (`''`: the server's
   * default), as a store like `flagStore`.
   * @example const beta = service.earlyAccessStore.getSnapshot()[''] // { features, isLoaded, error? } | undefined
   */
  readonly earlyAccessStore: Store<EarlyAccessSnapshot> = this._earlyAccess

  /** Local flag tools. */
  readonly featureFlags = {
    /**
     * Overrides flag values (and payloads) on this device, for testing; overrides win over every other
     * value and persist until cleared with `overrideFeatureFlags(false)`.
     * @example service.featureFlags.overrideFeatureFlags({ flags: { 'new-ui': 'test' }, payloads: { 'new-ui': { color: 'red' } } })
     */
    overrideFeatureFlags: (overrides: OverrideInput): void =>
      this._run(() => {
        const over = nextOverrides(overrides, this._flags._state.over)
        this._storage.set({ [OVERRIDES]: over })
        this._flags._update({ over })
      }),
  }

  /**
   * Starts the client with a project token. Safe without `window` (server rendering): it then only
   * loads the bootstrap and sends nothing. A second call is ignored.
   * @example service.init('phc_project_token', { api_host: 'https://flags.example.com', capture_pageview: 'history_change' })
   */
  init(projectToken: string, options: ServiceOptions = {}): this {
    try {
      if (this.__loaded || !projectToken || typeof projectToken !== 'string') {
        this._log('init ignored')
        return this
      }
      // An option set to undefined (say, an unset environment variable) keeps its default.
      const given = Object.fromEntries(Object.entries(options).filter((e) => e[1] !== undefined))
      const c = (this.config = { ...DEFAULTS, ...given })
      c.api_host = c.api_host.replace(/\/+$/, '')
      this._token = projectToken
      this._browser = typeof window !== 'undefined' && typeof document !== 'undefined'
      const name = 'svc_' + projectToken.replace(/\W/g, '_')
      const p = (this._storage = createPersistence(this._browser ? c.persistence : 'memory', name, this._drop))
      if (this._browser) this._queue = createQueue(c.api_host + '/e/', projectToken, p.kv, name + '_queue', (...a) => this._log(...a))

      const b = c.bootstrap ?? {}
      let merge = false
      if (isValidId(b.distinctID)) {
        const prev = p.get<string>(DID)
        // A known user arriving on a device with an anonymous history: merge them with $identify.
        const known = p.get(STATE) === 'identified'
        if (b.isIdentifiedID && prev && prev !== b.distinctID && !known) merge = true
        // An anonymous bootstrap id never replaces a user this device already knows.
        else if (b.isIdentifiedID || !known)
          p.set({ [DID]: b.distinctID, [DEVICE]: p.get(DEVICE) ?? b.distinctID, [STATE]: b.isIdentifiedID ? 'identified' : 'anonymous' })
      }
      if (!p.get(DID)) this._newIdentity(p.get(DEVICE))
      this._identity._server = { distinctId: isValidId(b.distinctID) ? b.distinctID : '', sessionId: '' }

      // Flags: bootstrap (freshest) or else the last known values, with local overrides on top.
      const cached = p.get<Record<string, FlagValue>>(FLAGS)
      this._flags._server = bootstrapSnapshot(b)
      this._flags._update({
        over: p.get(OVERRIDES) ?? {},
        ...(b.featureFlags
          ? { base: { flags: { ...b.featureFlags }, payloads: { ...b.featureFlagPayloads } }, source: 'bootstrap' }
          : cached
            ? { base: { flags: cached, payloads: p.get(PAYLOADS) ?? {} }, source: 'cache' }
            : {}),
      })
      this.__loaded = true
      this._syncIdentity()
      if (merge) this.identify(b.distinctID!)

      if (this._browser) {
        this.reloadFeatureFlags()
        addEventListener('pagehide', () =>
          this._try(() => {
            this._bus.emit('unload', undefined)
            this._queue?.unload()
          }),
        )
        // Uncaught errors from here on are kept until the extension's chunk has loaded.
        if (c.capture_exceptions) void this._load('exceptions', ['error', 'unhandledrejection'])
      }
      this._try(() => c.loaded?.(this))
      const pre = this._pending
      this._pending = []
      pre.forEach((f) => this._try(f))
      // Each checks its own option.
      if (this._browser) for (const extension of [autocapture, pageviews]) this._start(extension)
    } catch (e) {
      this._log('init failed', e)
    }
    return this
  }

  /**
   * Captures an event (queued, sent in batches).
   * @example service.capture('signed_up', { plan: 'pro' })
   */
  capture(event: string, properties?: Props, options?: CaptureOptions): void {
    const timestamp = new Date()
    this._run(() => this._capture(event, properties, { timestamp, ...options }))
  }

  /**
   * Identifies the user. From an anonymous id this sends `$identify` (linking the anonymous history)
   * and reloads flags; `$set`/`$set_once` set person properties (also used for flag targeting).
   * @example service.identify('user_42', { email: 'ada@example.com' }, { first_seen: '2024-01-01' })
   */
  identify(distinctId: string, $set?: Props, $set_once?: Props): void {
    this._run(() => {
      const id = typeof distinctId === 'number' ? String(distinctId) : distinctId
      if (!isValidId(id)) return this._log('invalid id', id)
      const p = this._storage
      const prev = this.get_distinct_id()
      const anon = p.get(STATE) !== 'identified'
      if ($set) p.set({ [PERSON]: { ...p.get<Props>(PERSON), ...$set } })
      if (id !== prev) {
        p.set({ [DID]: id, [STATE]: 'identified', ...(anon ? { [ANON]: prev } : {}) })
        this._syncIdentity()
        if (anon) this._capture('$identify', { distinct_id: id, $anon_distinct_id: prev }, { $set, $set_once })
      } else if (anon) p.set({ [STATE]: 'identified' })
      if (($set || $set_once) && !(anon && id !== prev)) this._capture('$set', { $set: $set ?? {}, $set_once: $set_once ?? {} })
      if (id !== prev || $set) this.reloadFeatureFlags()
    })
  }

  /**
   * Links another id to the current user (`$create_alias`).
   * @example service.alias('ada@example.com')
   */
  alias(alias: string, original?: string): void {
    this._run(() => {
      if (!isValidId(alias)) return this._log('invalid id', alias)
      this._capture('$create_alias', { alias, distinct_id: original ?? this.get_distinct_id() })
    })
  }

  /**
   * Forgets the user (on logout): new anonymous distinct id and session, super properties, groups and
   * flag state cleared, flags reloaded. The device id is kept unless `resetDeviceId`; consent is kept.
   * @example service.reset()
   */
  reset(resetDeviceId?: boolean): void {
    this._run(() => {
      const device = this._storage.get<string>(DEVICE)
      this._storage.clear([OPT])
      this._newIdentity(resetDeviceId ? undefined : device)
      this._session(false)
      this._flags._update({ base: { flags: {}, payloads: {} }, over: {}, source: 'none', error: undefined })
      this.reloadFeatureFlags()
    })
  }

  /**
   * Puts the user in a group (`$groups` on every later event); sends `$groupidentify` when the group
   * or its properties change, and reloads flags.
   * @example service.group('company', 'acme', { name: 'Acme Inc.' })
   */
  group(groupType: string, groupKey: string, groupProperties?: Props): void {
    this._run(() => {
      if (!groupType || groupKey == null || groupKey === '') return this._log('no group')
      const p = this._storage
      const key = String(groupKey)
      const groups = p.get<Record<string, string>>(GROUPS) ?? {}
      const gp = p.get<Record<string, Props>>(GROUP_PROPS) ?? {}
      const changed = groups[groupType] !== key
      p.set({ [GROUPS]: { ...groups, [groupType]: key } })
      if (groupProperties) p.set({ [GROUP_PROPS]: { ...gp, [groupType]: { ...(changed ? {} : gp[groupType]), ...groupProperties } } })
      else if (changed) p.set({ [GROUP_PROPS]: { ...gp, [groupType]: undefined } })
      if (changed || groupProperties) {
        this._capture('$groupidentify', { $group_type: groupType, $group_key: key, ...(groupProperties ? { $group_set: groupProperties } : {}) })
        this.reloadFeatureFlags()
      }
    })
  }

  /**
   * Sets super properties, sent with every later event (persisted).
   * @example service.register({ app_version: '2.1.0' })
   */
  register(properties: Props): void {
    this._run(() => this._storage.set({ [SUPER]: { ...this._storage.get<Props>(SUPER), ...properties } }))
  }

  /**
   * Sets super properties that are not set yet (or still equal `defaultValue`).
   * @example service.register_once({ first_landing_page: location.pathname })
   */
  register_once(properties: Props, defaultValue?: unknown): void {
    this._run(() => {
      const cur = this._storage.get<Props>(SUPER) ?? {}
      const add: Props = {}
      for (const k in properties) if (!(k in cur) || (defaultValue !== undefined && cur[k] === defaultValue)) add[k] = properties[k]
      this._storage.set({ [SUPER]: { ...cur, ...add } })
    })
  }

  /**
   * Removes one super property.
   * @example service.unregister('app_version')
   */
  unregister(property: string): void {
    this._run(() => this._storage.set({ [SUPER]: { ...this._storage.get<Props>(SUPER), [property]: undefined } }))
  }

  /**
   * The current distinct id (`''` before `init`).
   * @example const id = service.get_distinct_id()
   */
  get_distinct_id(): string {
    return this._get(() => this._storage.get<string>(DID) ?? '', '')
  }

  /**
   * The current session id (a new one after 30 idle minutes; `''` before `init`).
   * @example const sessionId = service.get_session_id()
   */
  get_session_id(): string {
    return this._get(() => this._session(false), '')
  }

  /**
   * Stops capturing on this device (persisted); flags keep working.
   * @example service.opt_out_capturing()
   */
  opt_out_capturing(): void {
    this._run(() => this._storage.set({ [OPT]: false }))
  }

  /**
   * Resumes capturing on this device (persisted) and sends `$opt_in`.
   * @example service.opt_in_capturing()
   */
  opt_in_capturing(): void {
    this._run(() => {
      this._storage.set({ [OPT]: true })
      this._capture('$opt_in')
    })
  }

  /**
   * Whether capturing is off on this device.
   * @example if (!service.has_opted_out_capturing()) showBanner()
   */
  has_opted_out_capturing(): boolean {
    return this._get(() => {
      const o = this._storage.get<boolean>(OPT)
      return o == null ? !!this.config.opt_out_capturing_by_default : !o
    }, !!this.config.opt_out_capturing_by_default)
  }

  /**
   * Whether a flag is on: `undefined` while no value is known, else `true`/`false` (a variant counts as on).
   * Sends `$feature_flag_called` once per flag and value unless `send_event: false`.
   * @example if (service.isFeatureEnabled('new-ui')) renderNewUi()
   */
  isFeatureEnabled(key: string, options?: { send_event?: boolean }): boolean | undefined {
    const v = this.getFeatureFlag(key, options)
    return v === undefined ? undefined : !!v
  }

  /**
   * A flag's value: `true`/`false`, the variant key, or `undefined` while unknown.
   * Sends `$feature_flag_called` once per flag and value unless `send_event: false`.
   * @example const variant = service.getFeatureFlag('checkout-test') // 'control' | 'test' | false | undefined
   */
  getFeatureFlag(key: string, options?: { send_event?: boolean }): FlagValue | undefined {
    return this._get(() => {
      const snap = this._flags.getSnapshot()
      if (snap.source === 'none' && !(key in snap.flags)) {
        this._log('no flags yet', key)
        return undefined
      }
      const v = snap.flags[key]
      if (options?.send_event === false || this.has_opted_out_capturing()) return v
      // Once per person, flag and value: kept across page loads for this distinct id only (so another
      // user, by identify, reset or a bootstrap, is reported again).
      const p = this._storage
      const id = p.get<string>(DID)!
      const called = p.get<Record<string, Record<string, string[]>>>(CALLED)?.[id] ?? {}
      const seen = called[key] ?? []
      if (!seen.includes(String(v))) {
        p.set({ [CALLED]: { [id]: { ...called, [key]: [...seen, String(v)] } } })
        this._capture('$feature_flag_called', flagCalledProps(key, v, snap, this._flags, p.get<FlagsMeta>(META), this.config.bootstrap?.featureFlags))
      }
      return v
    }, undefined)
  }

  /**
   * A flag's payload (parsed JSON; the raw string when it is not JSON), for enabled flags only. Sends no event.
   * @example const { color } = service.getFeatureFlagPayload('new-ui') as { color: string }
   */
  getFeatureFlagPayload(key: string): unknown {
    return this._get(() => this._flags.getSnapshot().payloads[key], undefined)
  }

  /**
   * Calls `callback(enabledKeys, values, {errorsLoading})` now if values are known, then on every change.
   * Returns the unsubscribe function. Works before `init`.
   * @example const off = service.onFeatureFlags((flags) => console.log('enabled:', flags))
   */
  onFeatureFlags(callback: FeatureFlagsCallback): () => void {
    const call = () => {
      const s = this._flags.getSnapshot()
      if (s.source === 'none') return
      const variants: Record<string, FlagValue> = {}
      for (const k in s.flags) if (s.flags[k]) variants[k] = s.flags[k]
      this._try(() => callback(Object.keys(variants), variants, { errorsLoading: !!s.error }))
    }
    call()
    return this._flags.subscribe(call)
  }

  /**
   * Asks `/flags` for fresh values (calls in the same tick are merged; one request at a time).
   * @example service.reloadFeatureFlags()
   */
  reloadFeatureFlags(): void {
    this._run(() => {
      if (!this.config.advanced_disable_flags && this._browser) this._reloadFlags()
    })
  }

  /**
   * Lists early access features (cached in persistence unless `force`); `stages` default to the server's (`beta`).
   * The lists delivered are also in `earlyAccessStore`.
   * @example service.getEarlyAccessFeatures((features) => render(features), true, ['alpha', 'beta'])
   */
  getEarlyAccessFeatures(callback: EarlyAccessCallback, force = false, stages?: EarlyAccessStage[]): void {
    this._run(() => {
      const p = this._storage
      const key = (stages ?? []).join()
      const deliver = (features: EarlyAccessFeature[], context: { isLoaded: boolean; error?: string }) => {
        this._earlyAccess.set({ ...this._earlyAccess.getSnapshot(), [key]: { features, ...context } })
        this._try(() => callback(features, context))
      }
      const cached = p.get<{ k: string; f: EarlyAccessFeature[] }>(EAF)
      if (!force && cached?.k === key) return deliver(cached.f, { isLoaded: true })
      fetchJson(earlyAccessUrl(this.config.api_host, this._token, stages), {}, 10000).then((r) => {
        const f = r.json?.earlyAccessFeatures
        const ok = Array.isArray(f)
        if (ok) p.set({ [EAF]: { k: key, f } })
        deliver(ok ? f : [], ok ? { isLoaded: true } : { isLoaded: false, error: r.error ?? 'invalid_response' })
      })
    })
  }

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
  updateEarlyAccessFeatureEnrollment(flagKey: string, enrolled: boolean, options?: EarlyAccessStage | EnrollmentOptions): void {
    this._run(() => {
      const p = this._storage
      const feature = p.get<{ f: EarlyAccessFeature[] }>(EAF)?.f.find((f) => f.flagKey === flagKey)
      const { stage = feature?.stage, group } = typeof options === 'string' ? { stage: options } : (options ?? {})
      const recorded = this._enrollments(group)
      this._capture('$feature_enrollment_update', enrollmentProps(flagKey, enrolled, feature?.name, stage, group))
      if (!recorded) return
      recorded[enrollmentProperty(flagKey)] = enrolled
      p.set(group ? { [GROUP_PROPS]: { ...p.get<Props>(GROUP_PROPS), [group.type]: recorded } } : { [PERSON]: recorded })
      // Listeners of `earlyAccessStore` hear of the recorded enrollment.
      this._earlyAccess.set({ ...this._earlyAccess.getSnapshot() })
      if (stage === 'concept') return
      const base = this._flags._state.base
      const flags = { ...base.flags, [flagKey]: enrolled }
      p.set({ [FLAGS]: flags, [PAYLOADS]: base.payloads })
      this._flags._update({ base: { ...base, flags } })
    })
  }

  /**
   * The enrollment recorded on this device by `updateEarlyAccessFeatureEnrollment` for the person (or for
   * `group`, while the user is in it): `true`/`false`, `undefined` when none. For a `concept` feature it
   * tells that the user registered interest (its flag stays off).
   * @example const registered = service.getEarlyAccessFeatureEnrollment('ai-assistant') === true
   */
  getEarlyAccessFeatureEnrollment(flagKey: string, options?: { group?: EnrollmentGroup }): boolean | undefined {
    return this._get(() => this._enrollments(options?.group)?.[enrollmentProperty(flagKey)] as boolean | undefined, undefined)
  }

  /**
   * Captures an error as `$exception` with its parsed stack, the steps that led to it (`$exception_steps`)
   * and `$release`. The `exceptions` extension builds the event: the first call loads it, and calls made
   * meanwhile are sent once it runs, with their time. At most 10 per exception type, then 1 per 10 s.
   * Should the extension not load, the type and message alone are sent, for the first 10 calls.
   * @example try { risky() } catch (e) { service.captureException(e, { area: 'checkout' }) }
   */
  captureException(error: unknown, properties?: Props): void {
    this._toExceptions({ error, properties })
  }

  /**
   * Records a step for the trail sent with the next exception (`$exception_steps`, the last 20 steps,
   * pageviews and clicks included once the `exceptions` extension runs).
   * @example service.addExceptionStep('Opened checkout', { cart_id: 'c_19' })
   */
  addExceptionStep(message: string, properties?: Props): void {
    this._toExceptions({ step: message, properties })
  }

  /**
   * Listens to what the client announces (see `ClientEvents`): `eventCaptured`, `featureFlagsLoaded`,
   * `distinctId`, `sessionId`, `beforeCapture`, `unload`. Returns the function that stops listening.
   * Made for extensions; works before `init`.
   * @example const off = service.on('eventCaptured', (event) => console.log(event.event))
   */
  on<K extends keyof ClientEvents>(name: K, listener: (value: ClientEvents[K]) => void): () => void {
    return this._bus.on(name, listener)
  }

  /**
   * Loads a lazy extension by name (`'exceptions'`) and starts it; resolves `true` once it runs, `false`
   * when it cannot load (or without `window`). The ESM build imports it (a chunk of its own); the
   * script-tag build fetches `<api_host>/static/<name>.<version>.js` from the service. Loaded once.
   * @example await service.loadExtension('exceptions')
   */
  loadExtension(name: string): Promise<boolean> {
    return new Promise((resolve) => this._run(() => resolve(this._load(name))))
  }

  /**
   * Sends queued events now (after the extensions still loading, so that what they kept is sent too);
   * resolves when the queue is empty or a send failed (it is then retried later).
   * @example await service.flush()
   */
  flush(): Promise<void> {
    return Promise.all(this._extensions.values()).then(() => this._queue?.flush())
  }

  // ---- internals ----

  private _log(...args: unknown[]): void {
    if (this.config.debug) console.warn('[service-js]', ...args)
  }

  /** Hears of a value left out of an event or of what is stored (see `sanitize`). */
  private _drop = (path: string) => this._log('left out:', path)

  private _try<T>(fn: () => T): T | undefined {
    try {
      return fn()
    } catch (e) {
      this._log(e)
    }
  }

  /** Runs `fn` now, or keeps it for `init` to replay when the client is not initialised yet. */
  private _run(fn: () => void): void {
    if (this.__loaded) this._try(fn)
    else if (this._pending.length < 1000) this._pending.push(fn)
  }

  /** Reads need an initialised client: before `init` they return `dflt`. */
  private _get<T>(fn: () => T, dflt: T): T {
    if (!this.__loaded) {
      this._log('before init')
      return dflt
    }
    const v = this._try(fn)
    return v === undefined ? dflt : v
  }

  private _newIdentity(device?: string): void {
    const id = uuidv7()
    this._storage.set({ [DID]: id, [DEVICE]: device ?? id, [STATE]: 'anonymous' })
  }

  /** The session id, a new one after the idle timeout; `touch` records activity (events do, reads don't). */
  private _session(touch: boolean): string {
    const id = sessionId(this._storage, this.config.session_idle_timeout_seconds * 1000, touch)
    this._syncIdentity(id)
    return id
  }

  /** Brings `identityStore` up to date with storage, and announces a changed distinct id or session id. */
  private _syncIdentity(sessionId = this._identity.getSnapshot().sessionId): void {
    const prev = this._identity.getSnapshot()
    const distinctId = this.get_distinct_id()
    const changed = (k: keyof IdentitySnapshot, v: string) => v !== prev[k] && this._bus.emit(k, v)
    if (distinctId !== prev.distinctId || sessionId !== prev.sessionId) this._identity.set({ distinctId, sessionId })
    changed('distinctId', distinctId)
    changed('sessionId', sessionId)
  }

  private _capture(event: string, properties?: Props, options: CaptureOptions = {}): void {
    if (!event || typeof event !== 'string') return this._log('no event name')
    if (!this._queue || this.has_opted_out_capturing()) return
    const p = this._storage
    const session = this._session(true)
    const added: Props = {}
    this._bus.emit('beforeCapture', added)
    const groups = p.get<Props>(GROUPS)
    const ev = sanitize(
      {
        uuid: options.uuid ?? uuidv7(),
        event,
        properties: {
          ...pageProperties(),
          ...added,
          ...flagProperties(this._flags.getSnapshot()),
          ...p.get<Props>(SUPER),
          token: this._token,
          distinct_id: this.get_distinct_id(),
          $device_id: p.get(DEVICE),
          $session_id: session,
          $is_identified: p.get(STATE) === 'identified',
          $groups: groups && Object.keys(groups).length ? groups : undefined,
          ...properties,
        },
        timestamp: (options.timestamp ?? new Date()).toISOString(),
        // Undefined values are not sent (JSON leaves them out).
        $set: options.$set,
        $set_once: options.$set_once,
      },
      this._drop,
    )
    this._log('capture', ev)
    this._queue.add(ev)
    this._bus.emit('eventCaptured', ev)
  }

  /** Starts an extension on this client (errors are logged, never thrown). */
  private _start(extension: Extension, early?: Event[], heard?: Announcement[]): void {
    this._try(() => extension.start(this, early, heard))
  }

  /**
   * Loads a lazy extension's chunk once, then starts it. The window events named in `keep`, and the
   * `eventCaptured` and `exception` announcements, made while it loads are kept and handed to it in
   * order, so that it misses nothing.
   */
  private _load(name: string, keep: string[] = []): Promise<boolean> {
    let loading = this._extensions.get(name)
    if (!loading && this._browser) {
      const early = holdEvents(keep)
      const heard: Announcement[] = []
      const offs = HELD.map((n) => this.on(n, (v) => heard.push([n, v] as Announcement)))
      loading = loadChunk(name, this.config.api_host)
        .catch(() => undefined)
        .then((extension) => {
          const kept = early()
          offs.forEach((off) => off())
          if (extension) this._start(extension, kept, heard)
          else this._log('not loaded:', name)
          return !!extension
        })
      this._extensions.set(name, loading)
    }
    return loading ?? Promise.resolve(false)
  }

  /**
   * Announces a call to the `exceptions` extension, loading it first if needed (it gets the calls made
   * while it loads; `flush` waits for it). An error whose extension cannot load is still sent, with its
   * type and message only, 10 at most.
   */
  private _toExceptions(call: ExceptionRequest): void {
    const c: ExceptionCall = { ...call, timestamp: new Date() }
    this._run(() => {
      this._load('exceptions').then(
        (ok) =>
          ok ||
          ('error' in c &&
            this._bareExceptions++ < 10 &&
            this._try(() => {
              const e = c.error as Error | undefined
              this._capture('$exception', { $exception_type: e?.name || 'Error', $exception_message: String(e?.message ?? e), ...c.properties }, c)
            })),
      )
      this._bus.emit('exception', c)
    })
  }

  /** A copy of where enrollments are recorded: the person's properties, or the group's while the user is in it (else undefined). */
  private _enrollments(group?: EnrollmentGroup): Props | undefined {
    const p = this._storage
    if (!group) return { ...p.get<Props>(PERSON) }
    if (p.get<Props>(GROUPS)?.[group.type] === String(group.key)) return { ...p.get<Record<string, Props>>(GROUP_PROPS)?.[group.type] }
  }

  /** `POST /flags/?v=2` for the current user, and what it answers into the flag store. */
  private _requestFlags(): Promise<void> {
    const p = this._storage
    const c = this.config
    const did = this.get_distinct_id()
    const anon = p.get<string>(ANON)
    const body = JSON.stringify({
      token: this._token,
      distinct_id: did,
      groups: p.get(GROUPS) ?? {},
      person_properties: p.get(PERSON) ?? {},
      group_properties: p.get(GROUP_PROPS) ?? {},
      $device_id: p.get(DEVICE),
      ...(anon ? { $anon_distinct_id: anon } : {}),
    })
    return fetchJson(
      c.api_host + '/flags/?v=2',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body },
      c.feature_flag_request_timeout_ms,
    ).then((r) => void this._try(() => this._onFlags(r, did, anon)))
  }

  private _onFlags(r: JsonResult, did: string, anon?: string): void {
    // The user changed while we waited: this answer is for someone else, and a new request follows.
    if (did !== this.get_distinct_id()) return
    const s = this._flags
    const answer = readFlagsAnswer(r, s._state.base)
    if ('error' in answer) s._update({ error: answer.error })
    else {
      const { base, meta, partial } = answer
      this._storage.set({
        [FLAGS]: base.flags,
        [PAYLOADS]: base.payloads,
        [META]: meta,
        ...(anon && this._storage.get(ANON) === anon ? { [ANON]: undefined } : {}),
      })
      s._update({ base, source: 'server', error: partial ? 'errors_while_computing_flags' : undefined })
    }
    this._bus.emit('featureFlagsLoaded', s.getSnapshot())
  }
}
