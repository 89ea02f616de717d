/** A flag's value: `true`/`false`, or the key of the variant the user gets. */
export type FlagValue = boolean | string

/** Where the current values came from. */
export type FlagSource = 'none' | 'bootstrap' | 'cache' | 'server'

/**
 * Immutable view of the flag state. A new object only when something in it changed; unchanged
 * parts (`flags`, `payloads`, each payload) keep their identity across snapshots.
 */
export interface FlagSnapshot {
  /** Effective values (overrides applied) of every known flag; disabled flags are `false`. */
  readonly flags: Readonly<Record<string, FlagValue>>
  /** Parsed payloads of enabled flags. */
  readonly payloads: Readonly<Record<string, unknown>>
  /** `none` before any value is known; `server` once `/flags` has answered. */
  readonly source: FlagSource
  /** Why the last `/flags` request failed (`timeout`, `connection_error`, `api_error_500`, ...); values are then the last known ones. */
  readonly error?: string
}

/** Values as they come from the server, the bootstrap or the cache. */
export interface FlagValues {
  flags: Record<string, FlagValue>
  payloads: Record<string, unknown>
}
