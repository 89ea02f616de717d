import type { Props } from './properties'
import { DEVICE, DID, OPT, STATE } from './keys'
import { sanitize } from './sanitize'

/** The smallest storage interface we need; every call may throw (private mode, quota, sandbox). */
export interface KV {
  get(k: string): string | null
  set(k: string, v: string): void
  del(k: string): void
}

export type PersistenceMode = 'localStorage+cookie' | 'localStorage' | 'cookie' | 'memory'

/** Keys that also go into the cookie in `localStorage+cookie` mode (identity, session, consent). */
const COOKIE_KEYS = [DID, DEVICE, STATE, '$sesid', OPT]

/** localStorage (or sessionStorage), or undefined when it is missing or throws (then we fall back to memory). */
export function localStore(kind: 'localStorage' | 'sessionStorage' = 'localStorage'): KV | undefined {
  try {
    const s = window[kind]
    s.setItem('__svc', '1')
    s.removeItem('__svc')
    return { get: (k) => s.getItem(k), set: (k, v) => s.setItem(k, v), del: (k) => s.removeItem(k) }
  } catch {
    return undefined
  }
}

/** First-party cookies on the current host for a year, or undefined when cookies do not work. */
export function cookieStore(): KV | undefined {
  try {
    const d = document
    const write = (k: string, v: string, age: number) => {
      d.cookie = `${k}=${encodeURIComponent(v)}; max-age=${age}; path=/; samesite=lax${location.protocol === 'https:' ? '; secure' : ''}`
    }
    const kv: KV = {
      get: (k) => {
        const m = d.cookie.match(new RegExp('(?:^|; *)' + k + '=([^;]*)'))
        return m ? decodeURIComponent(m[1]) : null
      },
      set: (k, v) => write(k, v, 31536000),
      del: (k) => write(k, '', -1),
    }
    kv.set('__svc', '1')
    if (kv.get('__svc') !== '1') return undefined
    kv.del('__svc')
    return kv
  } catch {
    return undefined
  }
}

/** The client's persistent properties: read once at start, kept in memory, written through. */
export interface Persistence {
  get<T = unknown>(k: string): T | undefined
  /** Merges `props`; a key set to `undefined` is removed. */
  set(props: Props): void
  /** Removes everything except the listed keys. */
  clear(keep: string[]): void
  /** Where the event queue may be stored (localStorage modes only), else undefined. */
  kv?: KV
}

/** `drop` hears of each value left out of what is stored (see {@link sanitize}). */
export function createPersistence(mode: PersistenceMode, name: string, drop: (path: string) => void = () => {}): Persistence {
  const ls = mode.includes('localStorage') ? localStore() : undefined
  const ck = mode.includes('cookie') ? cookieStore() : undefined
  const read = (s?: KV): Props => {
    try {
      const o = JSON.parse(s?.get(name) || '{}')
      return o && typeof o === 'object' ? o : {}
    } catch {
      return {}
    }
  }
  let props: Props = { ...read(ls), ...read(ck) }
  /** The stored properties of these keys. */
  const pick = (keys: string[]) => Object.fromEntries(keys.filter((k) => k in props).map((k) => [k, props[k]]))
  const save = () => {
    try {
      ls?.set(name, JSON.stringify(props))
    } catch {
      // quota or private mode: the in-memory copy stays authoritative
    }
    try {
      const sub = mode === 'cookie' ? props : pick(COOKIE_KEYS)
      ck?.set(name, JSON.stringify(sub))
    } catch {
      // same
    }
  }
  return {
    get: <T>(k: string) => props[k] as T | undefined,
    set(o) {
      o = sanitize(o, drop)
      props = { ...props, ...o }
      for (const k in o) if (o[k] === undefined) delete props[k]
      save()
    },
    clear(keep) {
      props = pick(keep)
      save()
    },
    kv: ls,
  }
}
