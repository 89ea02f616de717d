import { compileRegex, PROPERTY_OPERATORS } from './operators';

/** The first problem found in a flag's filters, in the service's error-body terms. */
export interface FilterError {
  /** Path of the offending field, joined with `__` (e.g. `filters__groups`). */
  attr: string;
  code: string;
  detail: string;
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isIndex = (v: unknown): boolean => v == null || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 4);
const isPercentage = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100;

class Invalid extends Error {
  constructor(
    readonly attr: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

function check(ok: boolean, attr: string, detail: string): void {
  if (!ok) throw new Invalid(attr, detail);
}

/** Validates `filters` of a flag being created or updated; returns the first error, or null when valid. */
export function validateFilters(filters: unknown): FilterError | null {
  try {
    validate(filters);
    return null;
  } catch (e) {
    if (e instanceof Invalid) return { attr: e.attr, code: 'invalid_input', detail: e.detail };
    throw e;
  }
}

function validate(filters: unknown): void {
  check(isObject(filters), 'filters', 'Filters must be an object.');
  const f = filters as Obj;
  const aggregation = f.aggregation_group_type_index;
  check(isIndex(aggregation), 'filters__aggregation_group_type_index', 'Aggregation group type index must be an integer between 0 and 4, or null.');
  check(f.groups == null || Array.isArray(f.groups), 'filters__groups', 'Filters are not valid (groups must be a list of conditions)');

  const variants = validateVariants(f.multivariate);
  for (const c of (f.groups as unknown[] | null) ?? []) {
    validateCondition(c, 'filters__groups', (aggregation as number | null) ?? null, variants);
  }
  check(f.super_groups == null || Array.isArray(f.super_groups), 'filters__super_groups', 'Filters are not valid (super_groups must be a list of conditions)');
  for (const c of (f.super_groups as unknown[] | null) ?? []) validateCondition(c, 'filters__super_groups', null, []);

  const holdout = f.holdout;
  check(
    holdout == null ||
      (isObject(holdout) &&
        (typeof holdout.id === 'number' || (typeof holdout.id === 'string' && holdout.id !== '')) &&
        isPercentage(holdout.exclusion_percentage)),
    'filters__holdout',
    'Holdout must have an id and an exclusion_percentage between 0 and 100.',
  );
  check(f.feature_enrollment == null || typeof f.feature_enrollment === 'boolean', 'filters__feature_enrollment', 'Must be a boolean.');

  const payloads = f.payloads;
  if (payloads == null) return;
  check(isObject(payloads), 'filters', 'Payloads must be passed as a dictionary');
  const holdoutKey = isObject(holdout) ? `holdout-${holdout.id}` : null;
  for (const key of Object.keys(payloads as Obj)) {
    if (key === holdoutKey) continue;
    if (variants.length > 0) {
      check(variants.includes(key), 'filters', 'Payload keys must match a variant key for multivariate flags');
    } else {
      check(key === 'true', 'filters', "Payload keys must be 'true' for boolean flags");
    }
  }
}

/** Checks `filters.multivariate`; returns the variant keys (empty for boolean flags). */
function validateVariants(multivariate: unknown): string[] {
  if (multivariate == null) return [];
  const attr = 'filters__multivariate';
  check(
    isObject(multivariate) && Array.isArray(multivariate.variants),
    attr,
    'Invalid variant definitions: multivariate must be an object with a list of variants.',
  );
  const keys: string[] = [];
  let sum = 0;
  for (const v of (multivariate as { variants: unknown[] }).variants) {
    check(isObject(v) && typeof v.key === 'string' && v.key !== '', attr, 'Invalid variant definitions: every variant needs a non-empty key.');
    const variant = v as Obj & { key: string };
    check(!keys.includes(variant.key), attr, 'Invalid variant definitions: variant keys must be unique.');
    check(isPercentage(variant.rollout_percentage), attr, 'Invalid variant definitions: variant rollout percentages must be numbers between 0 and 100.');
    keys.push(variant.key);
    sum += variant.rollout_percentage as number;
  }
  check(keys.length === 0 || Math.abs(sum - 100) < 1e-9, 'filters', 'Invalid variant definitions: Variant rollout percentages must sum to 100.');
  return keys;
}

function validateCondition(c: unknown, attr: string, flagAggregation: number | null, variants: string[]): void {
  check(isObject(c), attr, 'Filters are not valid (each condition must be an object)');
  const condition = c as Obj;
  check(
    isIndex(condition.aggregation_group_type_index),
    attr,
    'Filters are not valid (aggregation_group_type_index must be an integer between 0 and 4, or null)',
  );
  const aggregation = (condition.aggregation_group_type_index as number | null | undefined) ?? flagAggregation;
  check(condition.properties == null || Array.isArray(condition.properties), attr, 'Filters are not valid (properties must be a list)');
  for (const p of (condition.properties as unknown[] | null) ?? []) validateProperty(p, attr, aggregation);
  check(
    condition.rollout_percentage == null || isPercentage(condition.rollout_percentage),
    attr,
    'Filters are not valid (rollout_percentage must be between 0 and 100)',
  );
  check(
    condition.variant == null || (typeof condition.variant === 'string' && variants.includes(condition.variant)),
    'filters',
    'Filters are not valid (variant override does not exist)',
  );
}

function validateProperty(p: unknown, attr: string, aggregation: number | null): void {
  check(isObject(p) && typeof p.key === 'string' && p.key !== '', attr, 'Filters are not valid (every property needs a key)');
  const property = p as Obj;
  const type = property.type ?? 'person';
  const operator = property.operator ?? null;
  if (aggregation === null) {
    check(type === 'person' || type === 'cohort' || type === 'flag', 'filters', 'Filters are not valid (can only use person and cohort properties)');
  } else {
    check(
      type === 'flag' || (type === 'group' && (property.group_type_index == null || property.group_type_index === aggregation)),
      'filters',
      'Filters are not valid (can only use group properties)',
    );
  }
  if (type === 'cohort') {
    const id = property.value;
    check(
      (operator === null || operator === 'in' || operator === 'not_in') && (Number.isInteger(id) || (typeof id === 'string' && /^\d+$/.test(id))),
      attr,
      'Filters are not valid (cohort filters need a cohort id and the operator in or not_in)',
    );
  } else if (type === 'flag') {
    check(
      (operator === null || operator === 'flag_evaluates_to') && (typeof property.value === 'boolean' || typeof property.value === 'string'),
      attr,
      'Filters are not valid (flag filters need the operator flag_evaluates_to and a boolean or variant value)',
    );
  } else {
    check(
      operator === null || (typeof operator === 'string' && PROPERTY_OPERATORS.has(operator)),
      attr,
      `Filters are not valid (unknown operator ${JSON.stringify(operator)})`,
    );
    if (operator === 'regex' || operator === 'not_regex') {
      const re = compileRegex(property.value);
      const pattern = JSON.stringify(String(property.value));
      if (typeof re === 'string') throw new Invalid(attr, `Filters are not valid (invalid regular expression ${pattern}: ${re})`);
    }
  }
}
