import type { Bootstrap } from '../core/config'
import { createStore, type Store, type WritableStore } from '../core/store'
import type { FlagSnapshot, FlagSource, FlagValues } from './types'

/**
 * The framework-free flag store: what `useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)` needs.
 * `getServerSnapshot()` is the snapshot built from `init`'s bootstrap alone (no storage, overrides or
 * requests): identical on server and client.
 */
export type FlagStore = Store<FlagSnapshot>

interface State {
  _base: FlagValues
  _over: Partial<FlagValues>
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

function snapshot({ _base: base, _over: over, source, error }: State, prev: FlagSnapshot): FlagSnapshot {
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
  return b ? snapshot({ _base: { flags: b, payloads: bootstrap.featureFlagPayloads ?? {} }, _over: {}, source: 'bootstrap' }, EMPTY) : EMPTY
}

/** The state of a store that knows no values (a new one, and after `reset`). */
export const noValues = (): State => ({ _base: { flags: {}, payloads: {} }, _over: {}, source: 'none', error: undefined })

export function createFlagStore(): InternalFlagStore {
  const store = createStore(EMPTY) as InternalFlagStore
  store._state = noValues()
  store._update = (s) => store.set(snapshot((store._state = { ...store._state, ...s }), store.getSnapshot()))
  return store
}
