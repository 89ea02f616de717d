import type { FlagValue, FlagValues } from './types'

/** Argument of `featureFlags.overrideFeatureFlags`: `false` clears every override. */
export type OverrideInput =
  false | string[] | Record<string, FlagValue> | { flags?: string[] | Record<string, FlagValue> | false; payloads?: Record<string, unknown> | false }

/**
 * The overrides after `overrideFeatureFlags(input)`: `{flags, payloads}` replaces either part (`false`
 * clears it), a list of keys or a plain map replaces the flags, `false` clears both.
 */
export function nextOverrides(input: OverrideInput, current: Partial<FlagValues>): Partial<FlagValues> {
  const toFlags = (f: unknown) => (!f ? undefined : Array.isArray(f) ? Object.fromEntries(f.map((k) => [k, true])) : { ...(f as Record<string, FlagValue>) })
  if (input && !Array.isArray(input) && ('flags' in input || 'payloads' in input)) {
    const x = input as { flags?: unknown; payloads?: Record<string, unknown> | false }
    const over = { ...current }
    if ('flags' in x) over.flags = toFlags(x.flags)
    if ('payloads' in x) over.payloads = x.payloads ? { ...x.payloads } : undefined
    return over
  }
  return input ? { ...current, flags: toFlags(input) } : {}
}
