import { Client } from './core/client'
import type { ConfigOf, Options } from './core/config'
import type { ExtensionOf } from './core/extension'
import { flags, type FlagsApi } from './flags/feature'
import { earlyAccess, type EarlyAccessApi } from './early-access/feature'
import { exceptions, type ExceptionsApi } from './exceptions/feature'
import { autocapture } from './autocapture/feature'
import { pageviews } from './pageviews/feature'
import { surveys } from './surveys/feature'
import type { SurveysApi } from './surveys/types'
import { replay } from './replay/feature'
import type { ReplayApi } from './replay/types'
import { loadChunk } from './extensions/load'

/** Options of `init(projectToken, options)`. Every field is optional. */
export type ServiceOptions = Options<Service>

/** Effective configuration: defaults merged with the options given to `init`. */
export type Config = ConfigOf<Service>

/** A lazy extension of the default client (see `ExtensionOf`). */
export type Extension = ExtensionOf<Service>

/** The default client: the core (`Client`) with flags, early access, error tracking, autocapture, pageviews, surveys and session replay. */
// The merged interface declares what the features add (each feature's `api`, assigned by the core's constructor).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Service extends FlagsApi, EarlyAccessApi, ExceptionsApi, SurveysApi, ReplayApi {}

/**
 * A client. Most apps use the default instance `service`; create more with `new Service()`.
 * No method throws; calls made before `init` are queued and replayed by `init` (reads return empty values).
 * @example
 * import { Service } from 'service-js'
 * const other = new Service().init('phc_other_project')
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Service extends Client {
  constructor() {
    super([flags, earlyAccess, exceptions, autocapture, pageviews, surveys, replay], loadChunk)
  }
}
