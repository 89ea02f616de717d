import { useReport } from './use-report'
import { useSnapshot } from './use-snapshot'

/**
 * A flag's payload (parsed JSON), for an enabled flag; `undefined` otherwise. Unlike PostHog's hook,
 * it also sends `$feature_flag_called`, so experiments that only read payloads are counted.
 * @example const { color } = useFeatureFlagPayload<{ color: string }>('new-ui') ?? { color: 'blue' }
 */
export function useFeatureFlagPayload<T = unknown>(flag: string): T | undefined {
  useReport(flag)
  return useSnapshot((s) => s.payloads[flag]) as T | undefined
}
