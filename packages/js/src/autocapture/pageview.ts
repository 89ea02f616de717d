let listeners: Set<() => void> | undefined

/**
 * Calls `cb` after every pushState/replaceState and on popstate. History is patched once per page,
 * whatever the number of clients.
 */
export function onHistoryChange(cb: () => void): void {
  if (!listeners) {
    const ls = (listeners = new Set())
    const fire = () => ls.forEach((f) => f())
    for (const m of ['pushState', 'replaceState'] as const) {
      const orig = history[m]
      history[m] = function (this: History, ...args: Parameters<History['pushState']>) {
        const r = orig.apply(this, args)
        fire()
        return r
      }
    }
    addEventListener('popstate', fire)
  }
  listeners.add(cb)
}
