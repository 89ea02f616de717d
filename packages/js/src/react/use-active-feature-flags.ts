import { useRef } from './externals'
import { useSnapshot } from './use-snapshot'

/**
 * The keys of the enabled flags (same array until that list changes). Sends no event.
 * @example const active = useActiveFeatureFlags() // ['new-ui', 'checkout-test']
 */
export function useActiveFeatureFlags(): string[] {
  const last = useRef<string[]>([])
  return useSnapshot((s) => {
    const keys = Object.keys(s.flags).filter((k) => s.flags[k])
    return keys.join('\n') === last.current.join('\n') ? last.current : (last.current = keys)
  })
}
