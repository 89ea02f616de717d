import type { FeatureFlagKey } from 'service-js'
import { useReport } from './use-report'
import { useSnapshot } from './use-snapshot'

/**
 * Whether a flag is on (a variant counts as on): `undefined` while no value is known (or
 * `defaultValue`), `false` once the service has answered without it. Sends `$feature_flag_called`.
 * @example const newUi = useFeatureFlagEnabled('new-ui')
 */
export function useFeatureFlagEnabled(flag: FeatureFlagKey, defaultValue?: boolean): boolean | undefined {
  useReport(flag)
  return useSnapshot((s) => (flag in s.flags ? !!s.flags[flag] : s.source === 'server' ? false : defaultValue))
}
