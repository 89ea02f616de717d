import type { FlagValue } from './types'

/**
 * The project's flags, for the compiler. Empty here; `service typegen` writes declarations that fill it by module
 * augmentation, one entry a flag key: `{ variants?: 'control' | 'test'; payload: T }` (`variants` only for a
 * multivariate flag, `payload: never` for a flag without payloads). Once filled, flag key parameters accept only
 * its keys, and values and payloads take its types. Keys stay plain strings at run time.
 * @example
 * declare module '@flagstation/service-js' {
 *   interface FlagRegistry {
 *     'new-ui': { payload: { color: string } }
 *   }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface FlagRegistry {}

/** Whether nothing filled {@link FlagRegistry}: then any string is a key. */
type Untyped = [keyof FlagRegistry] extends [never] ? true : false

/** A flag key: a key of {@link FlagRegistry} once `service typegen` filled it, else any string. */
export type FeatureFlagKey = Untyped extends true ? string : keyof FlagRegistry & string

type Entry<K> = K extends keyof FlagRegistry ? FlagRegistry[K] : never

/** The value of flag `K`: its variant keys or `false` for a multivariate flag, `true`/`false` for another. */
export type FeatureFlagValue<K extends string = string> = Untyped extends true ? FlagValue : Entry<K> extends { variants: infer V } ? V | false : boolean

/** The (parsed) payload type of flag `K`, inferred by `service typegen` from its JSON payloads. */
export type FeatureFlagPayload<K extends string = string> = Untyped extends true ? unknown : Entry<K> extends { payload: infer P } ? P : unknown
