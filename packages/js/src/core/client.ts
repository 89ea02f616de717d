import { DEFAULTS, type ConfigOf, type Options } from './config'
import { createPersistence, localStore, type Persistence } from './persistence'
import { createQueue, type Queue } from './queue'
import { sanitize } from './sanitize'
import { isValidId, sessionId, uuidv7, windowId, type IdentitySnapshot } from './identity'
import { createBus, type Announcement, type Bus, type ClientEvents } from './bus'
import { createStore, type Store } from './store'
import { holdEvents, type ExtensionOf } from './extension'
import type { Feature } from './feature'
import { pageProperties, type Props } from './properties'
import { ANON, DEVICE, DID, GROUP_PROPS, GROUPS, OPT, PERSON, STATE, SUPER } from './keys'

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

/**
 * A feature as the client takes it: the function that makes it for one client. `never` takes any client:
 * a feature may need the members of others (early access writes to the flag store), which the composition
 * (`Service`) provides.
 */
export type FeatureFactory = (client: never) => Feature

/** Loads a lazy extension's chunk by name (from `api_host` in the script-tag build); undefined when there is none. */
export type ChunkLoader = (name: string, host: string) => Promise<ExtensionOf<Client> | undefined>

const NO_IDENTITY: IdentitySnapshot = { distinctId: '', sessionId: '' }

/**
 * The core of a client: configuration, `init`, identity and sessions, groups and super properties, consent,
 * events (built, queued and sent), announcements (`on`) and lazy extensions. Everything else is a feature
 * that plugs into it (see `Feature`): `Service` is this core with the default features.
 * No method throws; calls made before `init` are queued and replayed by `init` (reads return empty values).
 */
export class Client {
  /** Effective configuration: defaults merged with the options given to `init`. */
  config: ConfigOf<this> = { ...DEFAULTS }
  /** `true` once `init` has run. */
  __loaded = false

  /** @internal Identity, session, super properties, groups, flag state and consent, where `persistence` says. */
  _storage!: Persistence
  /** @internal Whether `init` found `window` and `document`; without them nothing is sent. */
  _browser = false
  /** @internal What the client announces (`on`). */
  _bus: Bus = createBus()
  /** The features plugged in, in order. */
  private _features: Feature[]
  private _identity = createStore(NO_IDENTITY)
  /** Events waiting to be sent (in a browser only). */
  private _queue?: Queue
  /** Session replay's `$snapshot` batches waiting to be sent to `/s/` (each up to 0.9 MB: one a request, 100 at most kept). */
  private _snapshots?: Queue
  /** Calls made before `init`, which replays them. */
  private _pending: (() => void)[] = []
  /** Lazy extensions by name, loading or loaded: `true` once started. */
  private _extensions = new Map<string, Promise<boolean>>()
  /** This tab's id (`$window_id`, as posthog-js sends it on every event): kept in sessionStorage for the tab's life. */
  private _window?: string

  /**
   * The distinct id and session id as a store like `flagStore` (for `useSyncExternalStore`); the server
   * snapshot holds the bootstrap's distinct id.
   * @example const { distinctId, sessionId } = service.identityStore.getSnapshot()
   */
  readonly identityStore: Store<IdentitySnapshot> = this._identity

  /** A client with these features (each adds its `api` to the client, in order) and this loader of lazy extensions. */
  constructor(
    features: FeatureFactory[],
    private _loadChunk: ChunkLoader,
  ) {
    for (const f of (this._features = features.map((make) => make(this as never)))) Object.assign(this, f.api)
  }

  /**
   * Starts the client with a project token. Safe without `window` (server rendering): it then only
   * loads the bootstrap and sends nothing. A second call is ignored.
   * @example service.init('phc_project_token', { api_host: 'https://flags.example.com', capture_pageview: 'history_change' })
   */
  init(projectToken: string, options: Options<this> = {}): this {
    try {
      if (this.__loaded || !projectToken || typeof projectToken !== 'string') {
        this._log('init ignored')
        return this
      }
      // An option set to undefined (say, an unset environment variable) keeps its default.
      const given = Object.fromEntries(Object.entries(options).filter((e) => e[1] !== undefined))
      const c = (this.config = { ...DEFAULTS, ...given, token: projectToken })
      c.api_host = c.api_host.replace(/\/+$/, '')
      this._browser = typeof window !== 'undefined' && typeof document !== 'undefined'
      const name = 'svc_' + projectToken.replace(/\W/g, '_')
      const p = (this._storage = createPersistence(this._browser ? c.persistence : 'memory', name, this._drop))
      if (this._browser) {
        const log = (...a: unknown[]) => this._log(...a)
        this._queue = createQueue(c.api_host + '/e/', projectToken, p.kv, name + '_queue', log)
        // Recording batches are kept in sessionStorage (its own quota, and a batch belongs to this tab), so that they
        // never take the room of the events and identity in localStorage.
        this._snapshots = createQueue(c.api_host + '/s/', projectToken, p.kv && localStore('sessionStorage'), name + '_snapshots', log, 1, 100)
      }

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
      this._each('init')
      this.__loaded = true
      this._syncIdentity()
      if (merge) this.identify(b.distinctID!)

      if (this._browser)
        addEventListener('pagehide', () =>
          this._try(() => {
            this._bus.emit('unload', undefined)
            this._queue?.unload()
            this._snapshots?.unload()
          }),
        )
      this._try(() => c.loaded?.(this))
      const pre = this._pending
      this._pending = []
      pre.forEach((f) => this._try(f))
      if (this._browser) this._each('start')
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
      if (id !== prev || $set) this._each('personChanged')
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
      this._each('reset')
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
        this._each('personChanged')
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
    this._bus.emit('flush', undefined)
    return Promise.all(this._extensions.values())
      .then(() => Promise.all([this._queue?.flush(), this._snapshots?.flush()]))
      .then(() => {})
  }

  /** @internal Logs with `debug: true`. */
  _log(...args: unknown[]): void {
    if (this.config.debug) console.warn('[service-js]', ...args)
  }

  /** Hears of a value left out of an event or of what is stored (see `sanitize`). */
  private _drop = (path: string) => this._log('left out:', path)

  /** @internal Runs `fn`; what it throws is logged, never thrown. */
  _try<T>(fn: () => T): T | undefined {
    try {
      return fn()
    } catch (e) {
      this._log(e)
    }
  }

  /** @internal Runs `fn` now, or keeps it for `init` to replay when the client is not initialised yet. */
  _run(fn: () => void): void {
    if (this.__loaded) this._try(fn)
    else if (this._pending.length < 1000) this._pending.push(fn)
  }

  /** @internal Reads need an initialised client: before `init` they return `dflt`. */
  _get<T>(fn: () => T, dflt?: T): T {
    if (!this.__loaded) {
      this._log('before init')
      return dflt!
    }
    const v = this._try(fn)
    return v === undefined ? dflt! : v
  }

  /** Calls a hook of every feature, in order. */
  private _each(hook: 'init' | 'start' | 'personChanged' | 'reset'): void {
    for (const f of this._features) f[hook]?.()
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

  /** @internal Builds an event (unless capturing is off) and queues it; `capture` without the wait for `init`. */
  _capture(event: string, properties?: Props, options: CaptureOptions = {}): void {
    if (!event || typeof event !== 'string') return this._log('no event name')
    if (!this._queue || this.has_opted_out_capturing()) return
    const p = this._storage
    const session = this._session(true)
    const added: Props = {}
    this._bus.emit('beforeCapture', added)
    for (const f of this._features) Object.assign(added, f.properties?.())
    const groups = p.get<Props>(GROUPS)
    const ev = sanitize(
      {
        uuid: options.uuid ?? uuidv7(),
        event,
        properties: {
          ...pageProperties(),
          ...added,
          ...p.get<Props>(SUPER),
          token: this.config.token,
          distinct_id: this.get_distinct_id(),
          $device_id: p.get(DEVICE),
          $session_id: session,
          $window_id: (this._window ??= windowId()),
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
    ;(event === '$snapshot' ? this._snapshots! : this._queue).add(ev)
    this._bus.emit('eventCaptured', ev)
  }

  /**
   * @internal Loads a lazy extension's chunk once, then starts it. The window events named in `keep`, and the
   * `eventCaptured` and `exception` announcements, made while it loads are kept and handed to it in order, so
   * that it misses nothing.
   */
  _load(name: string, keep: string[] = []): Promise<boolean> {
    let loading = this._extensions.get(name)
    if (!loading && this._browser) {
      const early = holdEvents(keep)
      const heard: Announcement[] = []
      const offs = HELD.map((n) => this.on(n, (v) => heard.push([n, v] as Announcement)))
      loading = this._loadChunk(name, this.config.api_host)
        .catch(() => undefined)
        .then((extension) => {
          const kept = early()
          offs.forEach((off) => off())
          if (extension) this._try(() => extension.start(this, kept, heard))
          else this._log('not loaded:', name)
          return !!extension
        })
      this._extensions.set(name, loading)
    }
    return loading ?? Promise.resolve(false)
  }
}
