import type { Bootstrap } from '../core/config'
import { createStore, type Store, type WritableStore } from '../core/store'

/** A flag's value: `true`/`false`, or the key of the variant the user gets. */
export type FlagValue = boolean | string

/** Where the current values came from. */
export type FlagSource = 'none' | 'bootstrap' | 'cache' | 'server'

/**
 * Immutable view of the flag state. A new object only when something in it changed; unchanged
 * parts (`flags`, `payloads`, each payload) keep their identity across snapshots.
 */
export interface FlagSnapshot {
  /** Effective values (overrides applied) of every known flag; disabled flags are `false`. */
  readonly flags: Readonly<Record<string, FlagValue>>
  /** Parsed payloads of enabled flags. */
  readonly payloads: Readonly<Record<string, unknown>>
  /** `none` before any value is known; `server` once `/flags` has answered. */
  readonly source: FlagSource
  /** Why the last `/flags` request failed (`timeout`, `connection_error`, `api_error_500`, ...); values are then the last known ones. */
  readonly error?: string
}

/**
 * The framework-free flag store: what `useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)` needs.
 * `getServerSnapshot()` is the snapshot built from `init`'s bootstrap alone (no storage, overrides or
 * requests): identical on server and client.
 */
export type FlagStore = Store<FlagSnapshot>

/** Values as they come from the server, the bootstrap or the cache. */
export interface FlagValues {
  flags: Record<string, FlagValue>
  payloads: Record<string, unknown>
}

interface State {
  base: FlagValues
  over: Partial<FlagValues>
  source: FlagSource
  error?: string
}

/** The store with the writers the client uses; only the `FlagStore` part is public. */
export interface InternalFlagStore extends WritableStore<FlagSnapshot> {
  _state: State
  _update(s: Partial<State>): void
}

const json = (v: unknown) => JSON.stringify(v)
const freeze = Object.freeze

/** Payloads arrive as JSON strings: parse them, keep the raw value when that fails. */
export function parsePayload(v: unknown): unknown {
  if (typeof v === 'string') {
    try {
      return JSON.parse(v)
    } catch {
      // not JSON: a plain string payload
    }
  }
  return v
}

const EMPTY: FlagSnapshot = freeze({ flags: freeze({}), payloads: freeze({}), source: 'none' })

function snapshot({ base, over, source, error }: State, prev: FlagSnapshot): FlagSnapshot {
  const flags = { ...base.flags, ...over.flags }
  const all = { ...base.payloads, ...over.payloads }
  const payloads: Record<string, unknown> = {}
  for (const k in all) {
    if (!flags[k] || all[k] == null) continue
    const v = parsePayload(all[k])
    payloads[k] = k in prev.payloads && json(prev.payloads[k]) === json(v) ? prev.payloads[k] : v
  }
  const f = json(flags) === json(prev.flags) ? prev.flags : freeze(flags)
  const p = json(payloads) === json(prev.payloads) ? prev.payloads : freeze(payloads)
  if (f === prev.flags && p === prev.payloads && source === prev.source && error === prev.error) return prev
  return freeze(error ? { flags: f, payloads: p, source, error } : { flags: f, payloads: p, source })
}

/**
 * The snapshot of bootstrap values alone, a pure function of `bootstrap` (no `window` needed), so a
 * server render and the client's hydration render agree. Call once per bootstrap object and keep it.
 * @example const snap = bootstrapSnapshot({ featureFlags: { 'new-ui': true } }) // snap.flags['new-ui'] === true
 */
export function bootstrapSnapshot(bootstrap?: Bootstrap): FlagSnapshot {
  const b = bootstrap?.featureFlags
  return b ? snapshot({ base: { flags: b, payloads: bootstrap.featureFlagPayloads ?? {} }, over: {}, source: 'bootstrap' }, EMPTY) : EMPTY
}

export function createFlagStore(): InternalFlagStore {
  const store = createStore(EMPTY) as InternalFlagStore
  store._state = { base: { flags: {}, payloads: {} }, over: {}, source: 'none' }
  store._update = (s) => store.set(snapshot((store._state = { ...store._state, ...s }), store.getSnapshot()))
  return store
}
