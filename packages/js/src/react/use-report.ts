import type { FeatureFlagKey } from 'service-js'
import { useEffect } from './externals'
import { useCtx } from './use-ctx'

/**
 * Reports a flag as used: `getFeatureFlag` sends `$feature_flag_called` (the client sends it once per
 * person, flag and value). Runs on the store, not on renders: again whenever the value changes, when
 * flags are loaded for another person (after `identify` or `reset`, even with the same value), and,
 * before `init`, as soon as the client has values.
 */
export function useReport(flag: FeatureFlagKey): void {
  const { client, store } = useCtx()
  useEffect(() => {
    let last: string | undefined
    const report = () => {
      const value = store.getSnapshot().flags[flag]
      const seen = client.get_distinct_id() + '\n' + value
      if (!client.__loaded || value === undefined || seen === last) return
      last = seen
      client.getFeatureFlag(flag)
    }
    report()
    const offStore = store.subscribe(report)
    const offLoaded = client.on('featureFlagsLoaded', report)
    return () => {
      offStore()
      offLoaded()
    }
  }, [client, store, flag])
}
