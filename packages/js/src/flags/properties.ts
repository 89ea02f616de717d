import type { Props } from '../core/properties'
import type { FlagSnapshot } from './types'

/** `$active_feature_flags` (enabled keys, when any) and `$feature/<key>` for every known flag. */
export function flagProperties({ flags }: FlagSnapshot): Props {
  const props: Props = {}
  const active = Object.keys(flags).filter((k) => flags[k])
  if (active.length) props.$active_feature_flags = active
  for (const k in flags) props['$feature/' + k] = flags[k]
  return props
}
