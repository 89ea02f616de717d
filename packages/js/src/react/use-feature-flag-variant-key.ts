import type { FeatureFlagKey, FeatureFlagValue } from 'service-js'
import { useReport } from './use-report'
import { useSnapshot } from './use-snapshot'

/**
 * A flag's value: the variant key for a multivariate flag, else `true`/`false`; `undefined` while
 * unknown. Sends `$feature_flag_called`.
 * @example const variant = useFeatureFlagVariantKey('checkout-test') // 'control' | 'test' | ...
 */
export function useFeatureFlagVariantKey<K extends FeatureFlagKey>(flag: K): FeatureFlagValue<K> | undefined {
  useReport(flag)
  return useSnapshot((s) => s.flags[flag]) as FeatureFlagValue<K> | undefined
}
