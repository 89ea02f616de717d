import type { ConfigOf } from '../../core/config'
import { fetchJson } from '../../core/request'
import type { Survey, SurveysCallback, SurveysContext } from '../../surveys/types'

/** The list is fresh for 5 minutes; after a failure, the next try waits as long (posthog-js's timings). */
const TTL = 300_000

/** The running surveys of the project. */
export interface SurveyList {
  /** What is known now (the cached list until the service answers). */
  current(): Survey[]
  /** Whether a list is known (cached or loaded). */
  loaded(): boolean
  /** The list, to `callback`: the known one at once (refreshed in the background when stale), else once loaded. */
  get(callback: SurveysCallback, force?: boolean): void
}

/**
 * `GET <api_host>/api/surveys/?token=`, cached in localStorage (unless `persistence` keeps nothing there) as
 * `svc_<token>_surveys`, beside the client's own keys, with the time it was loaded. `loaded` hears of each new list.
 */
export function createList(config: Pick<ConfigOf<unknown>, 'api_host' | 'token' | 'persistence'>, loaded: () => void): SurveyList {
  const key = `svc_${config.token.replace(/\W/g, '_')}_surveys`
  const store = config.persistence.includes('localStorage') ? key : undefined
  let surveys: Survey[] | undefined
  let at = 0
  let failedAt = 0
  let loading: Promise<SurveysContext> | undefined
  try {
    const cached = store && JSON.parse(localStorage.getItem(store) || 'null')
    if (Array.isArray(cached?.surveys)) ({ surveys, at } = cached)
  } catch {
    // no storage, or not ours: load
  }

  const load = () =>
    (loading ??= fetchJson(`${config.api_host}/api/surveys/?token=${encodeURIComponent(config.token)}`, {}, 10_000).then(({ json, error }) => {
      loading = undefined
      if (!Array.isArray(json?.surveys)) {
        failedAt = Date.now()
        return { isLoaded: false, error: `surveys could not be loaded: ${error ?? 'invalid_response'}` }
      }
      surveys = json.surveys as Survey[]
      at = Date.now()
      try {
        if (store) localStorage.setItem(store, JSON.stringify({ surveys, at }))
      } catch {
        // full: kept in memory
      }
      loaded()
      return { isLoaded: true }
    }))

  return {
    current: () => surveys ?? [],
    loaded: () => !!surveys,
    get(callback, force) {
      const call = (context: SurveysContext) => {
        try {
          callback(context.isLoaded ? (surveys ?? []) : [], context)
        } catch {
          // the app's callback: its error is its own
        }
      }
      if (surveys && !force) {
        if (Date.now() - at > TTL && Date.now() - failedAt > TTL) void load()
        return call({ isLoaded: true })
      }
      void load().then(call)
    },
  }
}
