/**
 * service-js: the browser client of the service (events, identity, feature flags, early access,
 * autocapture, error tracking, surveys, session replay). Wire-compatible with PostHog's browser SDK protocol.
 * @example
 * import { service } from 'service-js'
 * service.init('phc_project_token', { api_host: 'http://localhost:8000' })
 * service.capture('signed_up', { plan: 'pro' })
 */
import { Service } from './service'

export { Service }
export type { ServiceOptions, Config, Extension } from './service'
export { bootstrapSnapshot } from './flags/store'
export type { FlagStore } from './flags/store'
export type { FlagSnapshot, FlagSource, FlagValue } from './flags/types'
export type { FeatureFlagKey, FeatureFlagPayload, FeatureFlagValue, FlagRegistry } from './flags/registry'
export type { Bootstrap, SessionRecordingOptions } from './core/config'
export type { RemoteReplayConfig, ReplayApi } from './replay/types'
export type { Props } from './core/properties'
export type { PersistenceMode } from './core/persistence'
export type { CaptureOptions } from './core/client'
export type { FeatureFlagsCallback } from './flags/feature'
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
} from './early-access/types'
export type { IdentitySnapshot } from './core/identity'
export type {
  ChoiceQuestion,
  DisplaySurveyOptions,
  LinkQuestion,
  OpenQuestion,
  RatingQuestion,
  Survey,
  SurveyAppearance,
  SurveyBranching,
  SurveyConditions,
  SurveyEventCondition,
  SurveyMatchType,
  SurveyPosition,
  SurveyQuestion,
  SurveyResponse,
  SurveysCallback,
  SurveysContext,
} from './surveys/types'
export type { Store } from './core/store'
export type { ClientEvents } from './core/bus'
export type { CaptureEvent } from './core/queue'

/**
 * The default client; call `init` once, anywhere, before or after other calls.
 * @example service.init('phc_project_token')
 */
export const service: Service = /* @__PURE__ */ new Service()
export default service
