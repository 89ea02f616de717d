import { useSyncExternalStore } from './externals'
import type { FlagSnapshot } from 'service-js'
import { useCtx } from './use-ctx'

/**
 * Reads one value out of the flag snapshot. `useSyncExternalStore` compares what `select` returns,
 * so the component re-renders only when that value changes (not when another flag does).
 */
export function useSnapshot<T>(select: (snapshot: FlagSnapshot) => T): T {
  const { store } = useCtx()
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getSnapshot()),
    () => select(store.getServerSnapshot()),
  )
}
