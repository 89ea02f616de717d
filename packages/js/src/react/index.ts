/**
 * service-js/react: a provider, hooks and a component over service-js's flag store, bridged with
 * `useSyncExternalStore` (React 18 and 19), so bootstrapped flags are there from the first render,
 * server rendering included, and a component re-renders only when the value it reads changes.
 * Each hook is a file of its own (`use-*.ts`).
 * @example
 * import { ServiceProvider, useFeatureFlagEnabled } from 'service-js/react'
 * <ServiceProvider apiKey="phc_project_token" options={{ api_host: 'https://flags.example.com' }}><App /></ServiceProvider>
 */
export { ServiceProvider, type ServiceProviderProps } from './provider'
export { useService } from './use-service'
export { useFeatureFlagEnabled } from './use-feature-flag-enabled'
export { useFeatureFlagPayload } from './use-feature-flag-payload'
export { useFeatureFlagVariantKey } from './use-feature-flag-variant-key'
export { useActiveFeatureFlags } from './use-active-feature-flags'
export { useEarlyAccessFeatures, type EarlyAccess, type EarlyAccessAction, type EarlyAccessItem, type EarlyAccessOptions } from './use-early-access-features'
export { ServiceFeature, type ServiceFeatureProps } from './feature'
export { useSurvey, useActiveSurveys, type SurveyHandle, type ActiveSurveys, type SurveysView } from './surveys'
export {
  ServiceErrorBoundary,
  setupReactErrorHandler,
  withComponentStack,
  type ServiceErrorBoundaryProps,
  type ServiceErrorBoundaryFallbackProps,
} from './errors'
