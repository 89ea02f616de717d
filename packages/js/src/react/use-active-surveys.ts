import { useContext, useMemo, useSyncExternalStore } from 'react'
import { service } from 'service-js'
import type { Survey } from 'service-js'
import { surveysStore } from './surveys-store'
import { StoreContext } from './context'

/** Result of `useActiveSurveys`. */
export interface ActiveSurveys {
  /** The surveys this user may see here and now, `[]` until loaded. */
  surveys: Survey[]
  /** `true` once the list has loaded. */
  isLoaded: boolean
  /** Why loading failed, if it did. */
  error?: string
}

/**
 * The surveys this user may see here and now (running, their flags on, their conditions met, not answered yet),
 * kept up to date as flags load and events are captured. Loads the `surveys` extension on mount.
 * @example
 * const { surveys } = useActiveSurveys()
 * const nps = surveys.find((s) => s.type === 'api' && s.name === 'NPS')
 */
export function useActiveSurveys(): ActiveSurveys {
  const client = useContext(StoreContext)?.client ?? service
  const store = useMemo(() => surveysStore(client), [client])
  const view = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot)
  return useMemo(() => ({ surveys: view.active, isLoaded: view.isLoaded, error: view.error }), [view])
}
