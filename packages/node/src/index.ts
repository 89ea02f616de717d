/**
 * service-node: the server-side client of the service. Batched event capture, and feature flags evaluated
 * locally (with a personal API key) or by the service. Wire-compatible with PostHog's protocol.
 */
export { Service } from './client';
export type { AliasMessage, Bootstrap, CaptureMessage, FlagOptions, GroupIdentifyMessage, IdentifyMessage, ServiceOptions } from './client';
export type { EarlyAccessFeature, EarlyAccessFeaturesOptions, EarlyAccessFeatureStage, EnrollmentOptions } from './early-access';
export { FlagEvaluationError } from './errors';
export type { FlagEvaluationFailure } from './errors';
export type { FlagContext, FlagValue } from './flags';
