import type { FlagDefinition, FlagResult, Inconclusive } from '@service/flag-engine';

/** OFREP's reasons (its `reason` enum, plus OpenFeature's `DEFAULT` for a flag that matched no one). */
export type OfrepReason = 'STATIC' | 'TARGETING_MATCH' | 'SPLIT' | 'DISABLED' | 'DEFAULT';

/** OFREP's answer for one flag: `value` absent means "use the caller's default". */
export interface OfrepEvaluation {
  key: string;
  value?: boolean | string | object;
  reason: OfrepReason;
  variant?: string;
  metadata: Record<string, string | number | boolean>;
}

/**
 * The OpenFeature type a flag answers, fixed by its definition so that a caller always gets the same type from it
 * (OFREP sends one value, and providers refuse a value of another type than the caller's default): a multivariate flag
 * is a string (its variant), a flag whose payload is a JSON object or array is an object (the payload), any other
 * flag a boolean (whether it is enabled); PostHog's OpenFeature providers map them so.
 */
export type FlagKind = 'boolean' | 'string' | 'object';

interface FlagFacts {
  kind: FlagKind;
  /** Everyone gets the same answer: one condition, no properties, 100 %, no variants, enrollment or holdout. */
  static: boolean;
  /** Its variant is picked by hash among several. */
  splitsVariants: boolean;
}

/** A payload as stored: JSON text (PostHog's form) or a JSON value; an unparseable text stays as it is. */
function parsedPayload(payload: unknown): unknown {
  if (typeof payload !== 'string') return payload;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return payload;
  }
}

const facts = new WeakMap<FlagDefinition, FlagFacts>();

function factsOf(definition: FlagDefinition): FlagFacts {
  let known = facts.get(definition);
  if (known) return known;
  const { filters } = definition;
  const variants = filters.multivariate?.variants ?? [];
  const payload = parsedPayload(filters.payloads?.true);
  const kind: FlagKind = variants.length > 0 ? 'string' : typeof payload === 'object' && payload !== null ? 'object' : 'boolean';
  const groups = filters.groups ?? [];
  const only = groups.length === 1 ? groups[0]! : undefined;
  const everyone = only !== undefined && !only.properties?.length && (only.rollout_percentage ?? 100) >= 100 && filters.aggregation_group_type_index == null;
  known = {
    kind,
    static: everyone && kind !== 'string' && !filters.super_groups?.length && !filters.feature_enrollment && !filters.holdout,
    splitsVariants: variants.filter((variant) => variant.rollout_percentage > 0).length > 1,
  };
  facts.set(definition, known);
  return known;
}

function reasonOf(definition: FlagDefinition, known: FlagFacts, result: FlagResult): OfrepReason {
  const { code, condition_index: index } = result.reason;
  switch (code) {
    case 'flag_disabled':
      return 'DISABLED';
    case 'out_of_rollout_bound':
    case 'holdout_condition_value':
      return 'SPLIT';
    case 'super_condition_value':
      return 'TARGETING_MATCH';
    case 'condition_match': {
      if (known.static) return 'STATIC';
      const condition = index === null ? undefined : definition.filters.groups?.[index];
      if ((condition?.rollout_percentage ?? 100) < 100) return 'SPLIT';
      if (result.variant !== null && !condition?.variant && known.splitsVariants) return 'SPLIT';
      return 'TARGETING_MATCH';
    }
    default:
      return 'DEFAULT';
  }
}

/** A flag's engine result as OFREP's answer. */
export function toOfrep(definition: FlagDefinition, result: FlagResult | Inconclusive): OfrepEvaluation {
  // Server mode never answers inconclusive: keep the mapping total all the same (the caller's default).
  if (result.inconclusive) return { key: result.key, reason: 'DEFAULT', metadata: { id: definition.id, enabled: false } };
  const known = factsOf(definition);
  const metadata: OfrepEvaluation['metadata'] = { id: definition.id, version: definition.version ?? 0, enabled: result.enabled };
  const payload = result.enabled ? result.payload : null;
  if (payload !== null && payload !== undefined) metadata.payload = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const answer: OfrepEvaluation = { key: result.key, reason: reasonOf(definition, known, result), metadata };
  if (known.kind === 'boolean') {
    answer.value = result.enabled;
    answer.variant = String(result.enabled);
  } else if (known.kind === 'string') {
    if (result.variant !== null) answer.value = answer.variant = result.variant;
  } else {
    const value = parsedPayload(payload);
    if (typeof value === 'object' && value !== null) {
      answer.value = value;
      answer.variant = 'true';
    }
  }
  return answer;
}
