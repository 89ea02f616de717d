import { ENROLLMENT_PROPERTY_PREFIX } from './enrollment';
import type { Condition, FlagDefinition, PropertyFilter } from './types';

/**
 * A flag definition for evaluators that ignore `filters.super_groups` (posthog-node 5.x does): the early access
 * enrollment condition is folded into `groups`, so that they give the same answers as the stored definition.
 *
 * - the enrollment condition (`$feature_enrollment/<key>` exact `["true"]`) becomes the first condition;
 * - every other condition also requires the enrollment property to be neither `true` nor `false`: a person (or
 *   group) who opted out is off, and one whose property is not given is inconclusive locally (the property
 *   may be stored on the server), as the stored definition is;
 * - `super_groups` is dropped.
 *
 * A super condition that cannot be folded faithfully (not the enrollment condition, another aggregation than the
 * flag's, a multivariate flag (enrollment gives `true`, conditions give a variant) or a holdout (enrollment comes
 * first)) is served with `ensure_experience_continuity: true`, which makes every local evaluator ask the server.
 * Definitions without a super condition are returned as they are.
 */
export function foldEnrollment(definition: FlagDefinition): FlagDefinition {
  const filters = definition.filters ?? {};
  if (filters.feature_enrollment === true) return definition;
  const superGroup = Array.isArray(filters.super_groups) ? filters.super_groups[0] : undefined;
  const properties = superGroup?.properties;
  if (!superGroup || !Array.isArray(properties) || properties.length === 0) return definition;
  const { super_groups: _dropped, ...rest } = filters;
  const property = properties.length === 1 ? properties[0] : undefined;
  if (!property || !foldable(definition, superGroup, property)) {
    return { ...definition, ensure_experience_continuity: true, filters: rest };
  }
  const guard: PropertyFilter = {
    key: property.key,
    type: property.type ?? 'person',
    ...(property.group_type_index != null ? { group_type_index: property.group_type_index } : {}),
    operator: 'is_not',
    value: ['true', 'false'],
  };
  const enrollment: Condition = {
    properties: [property],
    rollout_percentage: superGroup.rollout_percentage ?? 100,
    variant: null,
    ...(superGroup.aggregation_group_type_index != null ? { aggregation_group_type_index: superGroup.aggregation_group_type_index } : {}),
  };
  const groups = (Array.isArray(filters.groups) ? filters.groups : []).map((c) => ({
    ...c,
    properties: [...(Array.isArray(c?.properties) ? c.properties : []), guard],
  }));
  return { ...definition, filters: { ...rest, groups: [enrollment, ...groups] } };
}

/** True for the condition `enrollmentCondition` builds, on a flag of the same aggregation, boolean, without holdout. */
function foldable(definition: FlagDefinition, superGroup: Condition, p: PropertyFilter): boolean {
  const filters = definition.filters;
  const flagAggregation = filters.aggregation_group_type_index ?? null;
  const superAggregation = superGroup.aggregation_group_type_index ?? null;
  const typeFits =
    superAggregation === null
      ? (p.type ?? 'person') === 'person'
      : p.type === 'group' && (p.group_type_index == null || p.group_type_index === superAggregation);
  const value = Array.isArray(p.value) && p.value.length === 1 ? p.value[0] : p.value;
  const variants = filters.multivariate?.variants;
  return (
    typeof p.key === 'string' &&
    p.key.startsWith(ENROLLMENT_PROPERTY_PREFIX) &&
    (p.operator == null || p.operator === 'exact') &&
    value === 'true' &&
    typeFits &&
    superAggregation === flagAggregation &&
    !(Array.isArray(variants) && variants.length > 0) &&
    !filters.holdout
  );
}
