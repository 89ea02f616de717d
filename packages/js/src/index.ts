/**
 * service-js: the browser client of the service (events, identity, feature flags, early access,
 * autocapture, error tracking). Wire-compatible with PostHog's browser SDK protocol.
 * @example
 * import { service } from 'service-js'
 * service.init('phc_project_token', { api_host: 'http://localhost:8000' })
 * service.capture('signed_up', { plan: 'pro' })
 */
import { Service } from './core/client'

export { Service }
export { bootstrapSnapshot } from './flags/store'
export type { FlagSnapshot, FlagSource, FlagStore, FlagValue } from './flags/store'
export type { Bootstrap, Props, ServiceOptions, Config } from './core/config'
export type { PersistenceMode } from './core/persistence'
export type { CaptureOptions, FeatureFlagsCallback } from './core/client'
export type { OverrideInput } from './flags/overrides'
export type {
  EarlyAccessCallback,
  EarlyAccessContext,
  EarlyAccessFeature,
  EarlyAccessList,
  EarlyAccessSnapshot,
  EarlyAccessStage,
  EnrollmentGroup,
  EnrollmentOptions,
} from './flags/early-access'
export type { IdentitySnapshot } from './core/identity'
export type { Store } from './core/store'
export type { ClientEvents } from './core/bus'
export type { Extension } from './core/extension'
export type { CaptureEvent } from './core/queue'

/**
 * The default client; call `init` once, anywhere, before or after other calls.
 * @example service.init('phc_project_token')
 */
export const service: Service = /* @__PURE__ */ new Service()
export default service
