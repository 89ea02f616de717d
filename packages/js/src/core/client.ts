import { DEFAULTS, type Config, type Props, type ServiceOptions } from './config'
import { createPersistence, type Persistence } from './persistence'
import { createQueue, type Queue } from './queue'
import { fetchJson, type JsonResult } from './request'
import { isValidId, sessionId, uuidv7 } from './identity'
import { bootstrapSnapshot, createFlagStore, type FlagSnapshot, type FlagStore, type FlagValue, type FlagValues } from '../flags/store'
import { parseFlagsResponse, type FlagMeta } from '../flags/response'
import { earlyAccessUrl, type EarlyAccessCallback, type EarlyAccessFeature, type EarlyAccessStage } from '../flags/early-access'
import { autocaptureProps } from '../autocapture/elements'
import { onHistoryChange } from '../autocapture/pageview'
import { catchExceptions, exceptionProps } from '../exceptions/exceptions'
import { VERSION } from '../version'

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

/** Options of `capture`. */
export interface CaptureOptions {
  /** Person properties to set (top-level `$set` of the event). */
  $set?: Props
  /** Person properties to set only when absent (top-level `$set_once`). */
  $set_once?: Props
  /** When the event happened; default now. */
  timestamp?: Date
}

/** Argument of `featureFlags.overrideFeatureFlags`: `false` clears every override. */
export type OverrideInput =
  | false
  | string[]
  | Record<string, FlagValue>
  | { flags?: string[] | Record<string, FlagValue> | false; payloads?: Record<string, unknown> | false }

/** `onFeatureFlags` callback: enabled keys, their values, and whether the last load failed. */
export type FeatureFlagsCallback = (flags: string[], variants: Record<string, FlagValue>, context: { errorsLoading: boolean }) => void

type Meta = { requestId?: string; flags?: Record<string, FlagMeta> }

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

  private _s = createFlagStore()
  private _p!: Persistence
  private _q?: Queue
  private _web = false
  private _token = ''
  private _pre: (() => void)[] = []
  private _fl: { busy?: boolean; again?: boolean; timer?: ReturnType<typeof setTimeout> } = {}
  private _pv?: { id: string; path: string; t: number }

  /**
   * The framework-free flag store: `subscribe(listener) → unsubscribe`, `getSnapshot()`,
   * `getServerSnapshot()`. Exists before `init`; made for `useSyncExternalStore`.
   * @example const off = service.flagStore.subscribe(() => console.log(service.flagStore.getSnapshot().flags))
   */
  readonly flagStore: FlagStore = this._s

  /** Local flag tools. */
  readonly featureFlags = {
    /**
     * Overrides flag values (and payloads) on this device, for testing; overrides win over every other
     * value and persist until cleared with `overrideFeatureFlags(false)`.
     * @example service.featureFlags.overrideFeatureFlags({ flags: { 'new-ui': 'test' }, payloads: { 'new-ui': { color: 'red' } } })
     */
    overrideFeatureFlags: (overrides: OverrideInput): void => this._run(() => this._override(overrides)),
  }

  /**
   * Starts the client with a project token. Safe without `window` (server rendering): it then only
   * loads the bootstrap and sends nothing. A second call is ignored.
   * @example service.init('phc_project_token', { api_host: 'https://flags.example.com', capture_pageview: 'history_change' })
   */
  init(projectToken: string, options: ServiceOptions = {}): this {
    try {
      if (this.__loaded || !projectToken || typeof projectToken != 'string') {
        this._log('init ignored: already initialised or no project token')
        return this
      }
      // An option set to undefined (say, an unset environment variable) keeps its default.
      const given = Object.fromEntries(Object.entries(options).filter((e) => e[1] !== undefined))
      const c = (this.config = { ...DEFAULTS, ...given })
      c.api_host = c.api_host.replace(/\/+$/, '')
      this._token = projectToken
      this._web = typeof window != 'undefined' && typeof document != 'undefined'
      const name = 'svc_' + projectToken.replace(/\W/g, '_')
      const p = (this._p = createPersistence(this._web ? c.persistence : 'memory', name))
      if (this._web) this._q = createQueue(c.api_host + '/e/', projectToken, p.kv, name + '_queue', (...a) => this._log(...a))

      const b = c.bootstrap ?? {}
      let merge = false
      if (isValidId(b.distinctID)) {
        const prev = p.get<string>(DID)
        // A known user arriving on a device with an anonymous history: merge them with $identify.
        const known = p.get(STATE) == 'identified'
        if (b.isIdentifiedID && prev && prev != b.distinctID && !known) merge = true
        // An anonymous bootstrap id never replaces a user this device already knows.
        else if (b.isIdentifiedID || !known) p.set({ [DID]: b.distinctID, [DEVICE]: p.get(DEVICE) ?? b.distinctID, [STATE]: b.isIdentifiedID ? 'identified' : 'anonymous' })
      }
      if (!p.get(DID)) this._newIdentity(p.get(DEVICE))

      // Flags: bootstrap (freshest) or else the last known values, with local overrides on top.
      const cached = p.get<Record<string, FlagValue>>(FLAGS)
      this._s.server = bootstrapSnapshot(b)
      this._s.update({
        over: p.get(OVERRIDES) ?? {},
        ...(b.featureFlags
          ? { base: { flags: { ...b.featureFlags }, payloads: { ...b.featureFlagPayloads } }, source: 'bootstrap' }
          : cached
            ? { base: { flags: cached, payloads: p.get(PAYLOADS) ?? {} }, source: 'cache' }
            : {}),
      })
      this.__loaded = true
      if (merge) this.identify(b.distinctID!)

      if (this._web) {
        this.reloadFeatureFlags()
        if (c.autocapture) {
          const onDom = (e: Event) =>
            this._try(() => {
              const props = autocaptureProps(e)
              if (props) this._capture('$autocapture', props)
            })
          for (const t of ['click', 'change', 'submit']) document.addEventListener(t, onDom, true)
        }
        if (c.capture_exceptions) catchExceptions((props) => this._try(() => this._capture('$exception', props)))
        if (c.capture_pageview == 'history_change') onHistoryChange(() => this._try(() => location.pathname != this._pv?.path && this._pageview()))
        const leave = c.capture_pageleave == 'if_capture_pageview' ? !!c.capture_pageview : c.capture_pageleave
        addEventListener('pagehide', () =>
          this._try(() => {
            if (leave) this._capture('$pageleave', this._prevPage())
            this._q?.unload()
          }),
        )
      }
      this._try(() => c.loaded?.(this))
      const pre = this._pre
      this._pre = []
      pre.forEach((f) => this._try(f))
      if (this._web && c.capture_pageview) this._pageview()
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
      const id = typeof distinctId == 'number' ? String(distinctId) : distinctId
      if (!isValidId(id)) return this._log('identify: invalid distinct id', id)
      const p = this._p
      const prev = this.get_distinct_id()
      const anon = p.get(STATE) != 'identified'
      if ($set) p.set({ [PERSON]: { ...p.get<Props>(PERSON), ...$set } })
      if (id != prev) {
        p.set({ [DID]: id, [STATE]: 'identified', [CALLED]: undefined, ...(anon ? { [ANON]: prev } : {}) })
        if (anon) this._capture('$identify', { distinct_id: id, $anon_distinct_id: prev }, { $set, $set_once })
      } else if (anon) p.set({ [STATE]: 'identified' })
      if (($set || $set_once) && !(anon && id != prev)) this._capture('$set', { $set: $set ?? {}, $set_once: $set_once ?? {} })
      if (id != prev || $set) this.reloadFeatureFlags()
    })
  }

  /**
   * Links another id to the current user (`$create_alias`).
   * @example service.alias('ada@example.com')
   */
  alias(alias: string, original?: string): void {
    this._run(() => {
      if (!isValidId(alias)) return this._log('alias: invalid id', alias)
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
      const device = this._p.get<string>(DEVICE)
      this._p.clear([OPT])
      this._newIdentity(resetDeviceId ? undefined : device)
      this._s.update({ base: { flags: {}, payloads: {} }, over: {}, source: 'none', error: undefined })
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
      if (!groupType || groupKey == null || groupKey === '') return this._log('group: type and key are required')
      const p = this._p
      const key = String(groupKey)
      const groups = p.get<Record<string, string>>(GROUPS) ?? {}
      const gp = p.get<Record<string, Props>>(GROUP_PROPS) ?? {}
      const changed = groups[groupType] != key
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
    this._run(() => this._p.set({ [SUPER]: { ...this._p.get<Props>(SUPER), ...properties } }))
  }

  /**
   * Sets super properties that are not set yet (or still equal `defaultValue`).
   * @example service.register_once({ first_landing_page: location.pathname })
   */
  register_once(properties: Props, defaultValue?: unknown): void {
    this._run(() => {
      const cur = this._p.get<Props>(SUPER) ?? {}
      const add: Props = {}
      for (const k in properties) if (!(k in cur) || (defaultValue !== undefined && cur[k] === defaultValue)) add[k] = properties[k]
      this._p.set({ [SUPER]: { ...cur, ...add } })
    })
  }

  /**
   * Removes one super property.
   * @example service.unregister('app_version')
   */
  unregister(property: string): void {
    this._run(() => this._p.set({ [SUPER]: { ...this._p.get<Props>(SUPER), [property]: undefined } }))
  }

  /**
   * The current distinct id (`''` before `init`).
   * @example const id = service.get_distinct_id()
   */
  get_distinct_id(): string {
    return this._get(() => this._p.get<string>(DID) ?? '', '')
  }

  /**
   * The current session id (a new one after 30 idle minutes; `''` before `init`).
   * @example const sessionId = service.get_session_id()
   */
  get_session_id(): string {
    return this._get(() => sessionId(this._p, this.config.session_idle_timeout_seconds * 1000, false), '')
  }

  /**
   * Stops capturing on this device (persisted); flags keep working.
   * @example service.opt_out_capturing()
   */
  opt_out_capturing(): void {
    this._run(() => this._p.set({ [OPT]: false }))
  }

  /**
   * Resumes capturing on this device (persisted) and sends `$opt_in`.
   * @example service.opt_in_capturing()
   */
  opt_in_capturing(): void {
    this._run(() => {
      this._p.set({ [OPT]: true })
      this._capture('$opt_in')
    })
  }

  /**
   * Whether capturing is off on this device.
   * @example if (!service.has_opted_out_capturing()) showBanner()
   */
  has_opted_out_capturing(): boolean {
    return this._get(() => {
      const o = this._p.get<boolean>(OPT)
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
      const snap = this._s.getSnapshot()
      if (snap.source == 'none' && !(key in snap.flags)) {
        this._log(`getFeatureFlag(${key}): no flag values yet`)
        return undefined
      }
      const v = snap.flags[key]
      if (options?.send_event !== false) this._flagCalled(key, v, snap)
      return v
    }, undefined)
  }

  /**
   * A flag's payload (parsed JSON; the raw string when it is not JSON), for enabled flags only. Sends no event.
   * @example const { color } = service.getFeatureFlagPayload('new-ui') as { color: string }
   */
  getFeatureFlagPayload(key: string): unknown {
    return this._get(() => this._s.getSnapshot().payloads[key], undefined)
  }

  /**
   * Calls `callback(enabledKeys, values, {errorsLoading})` now if values are known, then on every change.
   * Returns the unsubscribe function. Works before `init`.
   * @example const off = service.onFeatureFlags((flags) => console.log('enabled:', flags))
   */
  onFeatureFlags(callback: FeatureFlagsCallback): () => void {
    const call = () => {
      const s = this._s.getSnapshot()
      if (s.source == 'none') return
      const variants: Record<string, FlagValue> = {}
      for (const k in s.flags) if (s.flags[k]) variants[k] = s.flags[k]
      this._try(() => callback(Object.keys(variants), variants, { errorsLoading: !!s.error }))
    }
    call()
    return this._s.subscribe(call)
  }

  /**
   * Asks `/flags` for fresh values (calls in the same tick are merged; one request at a time).
   * @example service.reloadFeatureFlags()
   */
  reloadFeatureFlags(): void {
    this._run(() => {
      if (this.config.advanced_disable_flags || !this._web) return
      const f = this._fl
      f.timer ??= setTimeout(() => {
        f.timer = undefined
        this._try(() => this._loadFlags())
      }, 5)
    })
  }

  /**
   * Lists early access features (cached in persistence unless `force`); `stages` default to the server's (`beta`).
   * @example service.getEarlyAccessFeatures((features) => render(features), true, ['alpha', 'beta'])
   */
  getEarlyAccessFeatures(callback: EarlyAccessCallback, force = false, stages?: EarlyAccessStage[]): void {
    this._run(() => {
      const p = this._p
      const key = (stages ?? []).join()
      const cached = p.get<{ k: string; f: EarlyAccessFeature[] }>(EAF)
      if (!force && cached?.k == key) return void this._try(() => callback(cached.f, { isLoaded: true }))
      fetchJson(earlyAccessUrl(this.config.api_host, this._token, stages), {}, 10000).then((r) => {
        const f = r.json?.earlyAccessFeatures
        const ok = Array.isArray(f)
        if (ok) p.set({ [EAF]: { k: key, f } })
        this._try(() => callback(ok ? f : [], ok ? { isLoaded: true } : { isLoaded: false, error: r.error ?? 'invalid_response' }))
      })
    })
  }

  /**
   * Opts the user in or out of an early access feature: sends `$feature_enrollment_update` (which sets
   * the `$feature_enrollment/<key>` person property), sends that property with later `/flags` requests,
   * and sets the flag locally at once.
   * @example service.updateEarlyAccessFeatureEnrollment('new-editor', true)
   */
  updateEarlyAccessFeatureEnrollment(flagKey: string, enrolled: boolean, stage?: EarlyAccessStage): void {
    this._run(() => {
      const p = this._p
      const prop = '$feature_enrollment/' + flagKey
      const name = p.get<{ f: EarlyAccessFeature[] }>(EAF)?.f.find((f) => f.flagKey == flagKey)?.name
      this._capture('$feature_enrollment_update', {
        $feature_flag: flagKey,
        $feature_enrollment: enrolled,
        $set: { [prop]: enrolled },
        ...(name ? { $early_access_feature_name: name } : {}),
        ...(stage ? { $feature_enrollment_stage: stage } : {}),
      })
      const base = this._s.state.base
      const flags = { ...base.flags, [flagKey]: enrolled }
      p.set({ [PERSON]: { ...p.get<Props>(PERSON), [prop]: enrolled }, [FLAGS]: flags, [PAYLOADS]: base.payloads })
      this._s.update({ base: { ...base, flags } })
    })
  }

  /**
   * Captures an error as `$exception` with its parsed stack.
   * @example try { risky() } catch (e) { service.captureException(e, { area: 'checkout' }) }
   */
  captureException(error: unknown, properties?: Props): void {
    this._try(() => this.capture('$exception', { ...exceptionProps(error, true), ...properties }))
  }

  /**
   * Sends queued events now; resolves when the queue is empty or a send failed (it is then retried later).
   * @example await service.flush()
   */
  flush(): Promise<void> {
    return this._q?.flush() ?? Promise.resolve()
  }

  // ---- internals ----

  private _log(...args: unknown[]): void {
    if (this.config.debug) console.warn('[service-js]', ...args)
  }

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
    else if (this._pre.length < 1000) this._pre.push(fn)
  }

  /** Reads need an initialised client: before `init` they return `dflt`. */
  private _get<T>(fn: () => T, dflt: T): T {
    if (!this.__loaded) {
      this._log('called before init')
      return dflt
    }
    const v = this._try(fn)
    return v === undefined ? dflt : v
  }

  private _newIdentity(device?: string): void {
    const id = uuidv7()
    this._p.set({ [DID]: id, [DEVICE]: device ?? id, [STATE]: 'anonymous' })
  }

  private _capture(event: string, properties?: Props, options: CaptureOptions & { uuid?: string } = {}): void {
    if (!event || typeof event != 'string') return this._log('capture: an event name is required')
    if (!this._q || this.has_opted_out_capturing()) return
    const p = this._p
    const snap = this._s.getSnapshot()
    const flagProps: Props = {}
    const active = Object.keys(snap.flags).filter((k) => snap.flags[k])
    if (active.length) flagProps.$active_feature_flags = active
    for (const k in snap.flags) flagProps['$feature/' + k] = snap.flags[k]
    const ref = document.referrer
    let refDomain = '$direct'
    try {
      if (ref) refDomain = new URL(ref).host
    } catch {
      // keep $direct
    }
    const groups = p.get<Props>(GROUPS)
    const ev = {
      uuid: options.uuid ?? uuidv7(),
      event,
      properties: {
        $lib: 'web',
        $lib_version: VERSION,
        $current_url: location.href,
        $host: location.host,
        $pathname: location.pathname,
        $referrer: ref || '$direct',
        $referring_domain: refDomain,
        $screen_height: screen.height,
        $screen_width: screen.width,
        $viewport_height: innerHeight,
        $viewport_width: innerWidth,
        $pageview_id: this._pv?.id,
        ...flagProps,
        ...p.get<Props>(SUPER),
        token: this._token,
        distinct_id: this.get_distinct_id(),
        $device_id: p.get(DEVICE),
        $session_id: sessionId(p, this.config.session_idle_timeout_seconds * 1000, true),
        $is_identified: p.get(STATE) == 'identified',
        ...(groups && Object.keys(groups).length ? { $groups: groups } : {}),
        ...properties,
      },
      timestamp: (options.timestamp ?? new Date()).toISOString(),
      ...(options.$set ? { $set: options.$set } : {}),
      ...(options.$set_once ? { $set_once: options.$set_once } : {}),
    }
    JSON.stringify(ev) // throws (and the event is dropped) on circular or BigInt values, before it reaches the queue
    this._log('capture', ev)
    this._q.add(ev)
  }

  private _prevPage(): Props {
    const pv = this._pv
    return pv ? { $prev_pageview_id: pv.id, $prev_pageview_pathname: pv.path, $prev_pageview_duration: (Date.now() - pv.t) / 1000 } : {}
  }

  private _pageview(): void {
    const id = uuidv7()
    this._capture('$pageview', { title: document.title, $pageview_id: id, ...this._prevPage() }, { uuid: id })
    this._pv = { id, path: location.pathname, t: Date.now() }
  }

  private _flagCalled(key: string, v: FlagValue | undefined, snap: FlagSnapshot): void {
    const p = this._p
    const called = p.get<Record<string, string[]>>(CALLED) ?? {}
    const seen = called[key] ?? []
    if (seen.includes(String(v)) || this.has_opted_out_capturing()) return
    p.set({ [CALLED]: { ...called, [key]: [...seen, String(v)] } })
    const meta = p.get<Meta>(META) ?? {}
    const m = meta.flags?.[key] ?? {}
    const st = this._s.state
    const boot = this.config.bootstrap?.featureFlags
    const error = [snap.error, v === undefined && 'flag_missing'].filter(Boolean).join()
    this._capture('$feature_flag_called', {
      $feature_flag: key,
      $feature_flag_response: v,
      $feature_flag_payload: snap.payloads[key],
      $feature_flag_request_id: meta.requestId,
      $feature_flag_id: m.id,
      $feature_flag_version: m.version,
      $feature_flag_reason: m.reason,
      $used_bootstrap_value: snap.source == 'bootstrap',
      ...(boot && key in boot ? { $feature_flag_bootstrapped_response: boot[key] } : {}),
      ...(st.over.flags && key in st.over.flags ? { $feature_flag_original_response: st.base.flags[key] } : {}),
      ...(error ? { $feature_flag_error: error } : {}),
    })
  }

  private _loadFlags(): void {
    const f = this._fl
    if (f.busy) return void (f.again = true)
    const p = this._p
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
    f.busy = true
    fetchJson(c.api_host + '/flags/?v=2', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }, c.feature_flag_request_timeout_ms)
      .then((r) => this._try(() => this._onFlags(r, did, anon)))
      .finally(() => {
        f.busy = false
        if (f.again) {
          f.again = false
          this._try(() => this._loadFlags())
        }
      })
  }

  private _onFlags(r: JsonResult, did: string, anon?: string): void {
    // The user changed while we waited: this answer is for someone else, and a new request follows.
    if (did != this.get_distinct_id()) return
    const s = this._s
    if (!r.error && (!r.json || typeof r.json != 'object')) r = { error: 'unknown_error' }
    if (r.error) return s.update({ error: r.error })
    const res = parseFlagsResponse(r.json)
    if (res.quotaLimited) return s.update({ error: 'quota_limited' })
    const prev = s.state.base
    const base: FlagValues = res.partial
      ? { flags: { ...prev.flags, ...res.flags }, payloads: { ...prev.payloads, ...res.payloads } }
      : { flags: res.flags, payloads: res.payloads }
    const meta: Meta = { requestId: res.requestId, flags: res.meta }
    this._p.set({ [FLAGS]: base.flags, [PAYLOADS]: base.payloads, [META]: meta, ...(anon && this._p.get(ANON) == anon ? { [ANON]: undefined } : {}) })
    s.update({ base, source: 'server', error: res.partial ? 'errors_while_computing_flags' : undefined })
  }

  private _override(o: OverrideInput): void {
    const toFlags = (f: unknown) =>
      !f ? undefined : Array.isArray(f) ? Object.fromEntries(f.map((k) => [k, true])) : { ...(f as Record<string, FlagValue>) }
    let over: Partial<FlagValues> = {}
    if (o && !Array.isArray(o) && ('flags' in o || 'payloads' in o)) {
      const x = o as { flags?: unknown; payloads?: Record<string, unknown> | false }
      over = { ...this._s.state.over }
      if ('flags' in x) over.flags = toFlags(x.flags)
      if ('payloads' in x) over.payloads = x.payloads ? { ...x.payloads } : undefined
    } else if (o) over = { ...this._s.state.over, flags: toFlags(o) }
    this._p.set({ [OVERRIDES]: over })
    this._s.update({ over })
  }
}
