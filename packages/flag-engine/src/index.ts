/**
 * @service/flag-engine: PostHog-compatible feature flag evaluation. Pure, no I/O.
 * Shared by the service's `/flags` endpoint (server mode) and service-node local evaluation (local mode).
 */
export { compileFlags } from './compile';
export { hashKey } from './hash';
export { ENROLLMENT_PROPERTY_PREFIX, enrollmentCondition, enrollmentProperty } from './enrollment';
export { foldEnrollment } from './fold';
export { validateFilters } from './validate';
export type { FilterError } from './validate';
export type {
  CompileOptions,
  CompiledFlags,
  Condition,
  EvaluationContext,
  EvaluationMode,
  FlagDefinition,
  FlagFilters,
  FlagResult,
  Holdout,
  Inconclusive,
  PropertyFilter,
  PropertyGroup,
  PropertyType,
  Reason,
  ReasonCode,
  Variant,
} from './types';
