/**
 * service-node: the server-side client of the service. Batched event capture, and feature flags evaluated
 * locally (with a personal API key) or by the service. Wire-compatible with PostHog's protocol.
 */
export { Service } from './client';
export type { ServiceOptions } from './options';
export type { AliasMessage, CaptureMessage, GroupIdentifyMessage, IdentifyMessage } from './messages';
export type { FlagOptions } from './flags/evaluator';
export type { Bootstrap, FlagContext, FlagValue } from './flags/decision';
export type { FeatureFlagKey, FeatureFlagPayload, FeatureFlagValue, FlagRegistry } from './flags/registry';
export type { EarlyAccessFeature, EarlyAccessFeaturesOptions, EarlyAccessFeatureStage, EnrollmentOptions } from './early-access';
export { FlagEvaluationError } from './errors';
export type { FlagEvaluationFailure } from './errors';
