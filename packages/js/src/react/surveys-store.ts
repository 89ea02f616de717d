import type { Service, Store, Survey } from 'service-js'

/** What the survey hooks read: the running surveys, those this user may see here and now, and whether they loaded. */
export interface SurveysView {
  /** The running surveys of the project. */
  surveys: Survey[]
  /** Those this user may see here and now (flags, conditions, not answered yet, ...). */
  active: Survey[]
  /** `true` once the list has loaded. */
  isLoaded: boolean
  /** Why loading failed, if it did. */
  error?: string
}

/** What the hooks serve until the list loads, and on the server. */
export const NO_SURVEYS: SurveysView = { surveys: [], active: [], isLoaded: false }

const stores = new WeakMap<Service, Store<SurveysView>>()

/**
 * A client's surveys as a store for `useSyncExternalStore`, shared by its hooks. While a hook listens it asks the
 * `surveys` extension (`getSurveys`, `getActiveMatchingSurveys`: the first call loads it) again whenever flags load
 * or an event is captured (a survey answered, an event that shows one), and changes its snapshot only when the
 * answer changes.
 */
export function surveysStore(client: Service): Store<SurveysView> {
  let store = stores.get(client)
  if (store) return store
  let view = NO_SURVEYS
  let seen = JSON.stringify(view)
  const listeners = new Set<() => void>()
  let stops: (() => void)[] = []
  const refresh = () =>
    client.getSurveys((surveys, context) =>
      client.getActiveMatchingSurveys((active) => {
        const next: SurveysView = { surveys, active, ...context }
        const json = JSON.stringify(next)
        if (json === seen) return
        seen = json
        view = next
        listeners.forEach((listener) => listener())
      }),
    )
  store = {
    subscribe(listener) {
      listeners.add(listener)
      if (listeners.size === 1) {
        stops = [client.on('featureFlagsLoaded', refresh), client.on('eventCaptured', refresh)]
        refresh()
      }
      return () => {
        listeners.delete(listener)
        if (!listeners.size) stops.forEach((stop) => stop())
      }
    },
    getSnapshot: () => view,
    getServerSnapshot: () => NO_SURVEYS,
  }
  stores.set(client, store)
  return store
}
