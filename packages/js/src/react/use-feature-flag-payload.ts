import type { FeatureFlagKey, FeatureFlagPayload } from 'service-js'
import { useReport } from './use-report'
import { useSnapshot } from './use-snapshot'

/**
 * A flag's payload (parsed JSON), for an enabled flag; `undefined` otherwise. Unlike PostHog's hook,
 * it also sends `$feature_flag_called`, so experiments that only read payloads are counted.
 * With declarations from `service typegen`, the payload's type is the flag's; a type argument overrides it.
 * @example const { color } = useFeatureFlagPayload<{ color: string }>('new-ui') ?? { color: 'blue' }
 */
export function useFeatureFlagPayload<T = FromRegistry, K extends FeatureFlagKey = FeatureFlagKey>(flag: K): PayloadType<T, K> | undefined {
  useReport(flag)
  return useSnapshot((s) => s.payloads[flag]) as PayloadType<T, K> | undefined
}

// T's default: no type argument given, so the payload's type is the registry's. A type of its own, so that any type
// argument (`string` too) is told apart from it.
declare const _fromRegistry: unique symbol
type FromRegistry = typeof _fromRegistry
/** The payload's type: the type argument if one was given, else flag K's in the registry. */
type PayloadType<T, K extends string> = [T] extends [FromRegistry] ? FeatureFlagPayload<K> : T
