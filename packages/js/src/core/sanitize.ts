/* eslint-disable @typescript-eslint/no-explicit-any -- any value the app hands over */

/**
 * A copy of properties from the app that JSON can hold and later changes by the app cannot reach: a
 * BigInt becomes its decimal string (as posthog-js sends it); a circular reference, a function or a
 * symbol is left out and reported to `drop` with its path. Everything the client stores or sends goes
 * through it (Persistence.set, and each event before it is queued), so one bad value costs only itself.
 * @example sanitize({ n: 1n, me }, log) // { n: '1', me: { ...without the loop } }
 */
export function sanitize<T>(value: T, drop: (path: string) => void): T {
  const ancestors: unknown[] = []
  // The keys down to the value being copied; joined into a path only for a value left out (a session replay batch
  // holds some 100,000 values: building each one's path cost more than the copy).
  const keys: string[] = []
  const copy = (v: any): any => {
    if (typeof v === 'bigint') return '' + v
    if (typeof v === 'function' || typeof v === 'symbol' || ancestors.includes(v)) return drop(keys.join('.'))
    if (!v || typeof v !== 'object' || typeof v.toJSON === 'function') return v
    ancestors.push(v)
    const out: any = Array.isArray(v) ? [] : {}
    for (const k of Object.keys(v)) {
      keys.push(k)
      out[k] = copy(v[k])
      keys.pop()
    }
    ancestors.pop()
    return out
  }
  return copy(value)
}
