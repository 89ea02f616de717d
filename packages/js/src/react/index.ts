/**
 * service-js/react: a provider, hooks and a component over service-js's flag store, bridged with
 * `useSyncExternalStore` (React 18 and 19), so bootstrapped flags are there from the first render,
 * server rendering included, and a component re-renders only when the value it reads changes.
 * @example
 * import { ServiceProvider, useFeatureFlagEnabled } from 'service-js/react'
 * <ServiceProvider apiKey="phc_project_token" options={{ api_host: 'https://flags.example.com' }}><App /></ServiceProvider>
 */
export { ServiceProvider, useService, type ServiceProviderProps } from './provider'
export {
  useFeatureFlagEnabled,
  useFeatureFlagPayload,
  useFeatureFlagVariantKey,
  useActiveFeatureFlags,
  useEarlyAccessFeatures,
  type EarlyAccess,
  type EarlyAccessAction,
  type EarlyAccessItem,
  type EarlyAccessOptions,
} from './hooks'
export { ServiceFeature, type ServiceFeatureProps } from './feature'
export {
  ServiceErrorBoundary,
  setupReactErrorHandler,
  withComponentStack,
  type ServiceErrorBoundaryProps,
  type ServiceErrorBoundaryFallbackProps,
} from './errors'
