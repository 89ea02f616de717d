import type { Condition, FeatureFlag, FlagFilters, PropertyFilter, Variant } from '../../api/types';
import { parseJson } from '../../components/format';

/** The engine's operators (packages/flag-engine/src/operators.ts), in words. */
export const OPERATORS: { value: string; label: string }[] = [
  { value: 'exact', label: 'equals' },
  { value: 'is_not', label: "doesn't equal" },
  { value: 'icontains', label: 'contains' },
  { value: 'not_icontains', label: "doesn't contain" },
  { value: 'regex', label: 'matches regex' },
  { value: 'not_regex', label: "doesn't match regex" },
  { value: 'starts_with', label: 'starts with' },
  { value: 'not_starts_with', label: "doesn't start with" },
  { value: 'ends_with', label: 'ends with' },
  { value: 'not_ends_with', label: "doesn't end with" },
  { value: 'icontains_multi', label: 'contains any of' },
  { value: 'not_icontains_multi', label: 'contains none of' },
  { value: 'gt', label: '> (greater than)' },
  { value: 'gte', label: '≥' },
  { value: 'lt', label: '< (less than)' },
  { value: 'lte', label: '≤' },
  { value: 'between', label: 'between' },
  { value: 'not_between', label: 'not between' },
  { value: 'is_set', label: 'is set' },
  { value: 'is_not_set', label: 'is not set' },
  { value: 'is_date_before', label: 'date before' },
  { value: 'is_date_after', label: 'date after' },
  { value: 'is_date_exact', label: 'date is' },
  { value: 'semver_eq', label: 'version =' },
  { value: 'semver_neq', label: 'version ≠' },
  { value: 'semver_gt', label: 'version >' },
  { value: 'semver_gte', label: 'version ≥' },
  { value: 'semver_lt', label: 'version <' },
  { value: 'semver_lte', label: 'version ≤' },
  { value: 'semver_tilde', label: 'version ~ (patch)' },
  { value: 'semver_caret', label: 'version ^ (minor)' },
  { value: 'semver_wildcard', label: 'version matches (1.2.*)' },
];
export const LIST_OPERATORS = new Set(['exact', 'is_not', 'icontains_multi', 'not_icontains_multi']);
export const NO_VALUE = new Set(['is_set', 'is_not_set']);
const NUMERIC = new Set(['gt', 'gte', 'lt', 'lte']);

export interface FilterDraft {
  key: string;
  type: string;
  group_type_index: string;
  operator: string;
  values: string[];
  value: string;
}
export interface ConditionDraft {
  filters: FilterDraft[];
  rollout: number | string;
  variant: string | null;
}
export interface VariantDraft {
  key: string;
  name: string;
  rollout: number | string;
  payload: string;
}
export interface FlagDraft {
  key: string;
  name: string;
  active: boolean;
  aggregation: string;
  conditions: ConditionDraft[];
  multivariate: boolean;
  variants: VariantDraft[];
  payload: string;
  continuity: boolean;
}

const payloadText = (payload: unknown) => {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') {
    try {
      return JSON.stringify(JSON.parse(payload), null, 2);
    } catch {
      return JSON.stringify(payload);
    }
  }
  return JSON.stringify(payload, null, 2);
};

/** The operators of a cohort filter (`{key: 'id', type: 'cohort', value: <cohort id>, operator}`). */
export const COHORT_OPERATORS = [
  { value: 'in', label: 'is in' },
  { value: 'not_in', label: 'is not in' },
];

/** A property filter as the editor edits it: a person's or a group's property, or membership of a cohort. */
export const filterDraft = (p: PropertyFilter): FilterDraft => ({
  key: p.key ?? '',
  type: p.type === 'group' || p.type === 'cohort' ? p.type : 'person',
  group_type_index: String(p.group_type_index ?? 0),
  operator: p.operator ?? (p.type === 'cohort' ? 'in' : 'exact'),
  values: Array.isArray(p.value) ? p.value.map(String) : p.value === undefined || p.value === null ? [] : [String(p.value)],
  value: Array.isArray(p.value) ? JSON.stringify(p.value) : p.value === undefined || p.value === null ? '' : String(p.value),
});

/** Condition sets (a flag's `groups`) as the condition editor edits them. */
export const toConditionDrafts = (groups: Condition[]): ConditionDraft[] =>
  groups.map((g) => ({
    filters: (Array.isArray(g.properties) ? g.properties : []).map(filterDraft),
    rollout: g.rollout_percentage ?? 100,
    variant: g.variant ?? null,
  }));

/** A flag as the form edits it. */
export function toDraft(flag?: FeatureFlag): FlagDraft {
  const f: FlagFilters = flag?.filters ?? {};
  const variants = f.multivariate?.variants ?? [];
  return {
    key: flag?.key ?? '',
    name: flag?.name ?? '',
    // A new flag starts off: nobody gets it until someone turns it on, knowing who it serves.
    active: flag?.active ?? false,
    aggregation: f.aggregation_group_type_index == null ? 'person' : String(f.aggregation_group_type_index),
    conditions: toConditionDrafts(Array.isArray(f.groups) ? f.groups : flag ? [] : [{ properties: [], rollout_percentage: 100 }]),
    multivariate: variants.length > 0,
    variants: variants.map((v: Variant) => ({ key: v.key, name: v.name ?? '', rollout: v.rollout_percentage, payload: payloadText(f.payloads?.[v.key]) })),
    payload: payloadText(f.payloads?.['true']),
    continuity: flag?.ensure_experience_continuity ?? false,
  };
}

function filterValue(f: FilterDraft): unknown {
  if (NO_VALUE.has(f.operator)) return f.operator;
  if (LIST_OPERATORS.has(f.operator))
    return f.values.length === 1 && f.operator !== 'icontains_multi' && f.operator !== 'not_icontains_multi' ? f.values[0] : f.values;
  if (NUMERIC.has(f.operator) && f.value.trim() !== '' && !Number.isNaN(Number(f.value))) return Number(f.value);
  if (f.operator === 'between' || f.operator === 'not_between') {
    const parsed = parseJson(f.value);
    return parsed.error ? f.value : parsed.value;
  }
  return f.value;
}

/** What keeps condition sets from being sent, by field (`rollout-<set>`, `filter-<set>-<filter>`). */
export function conditionErrors(conditions: ConditionDraft[]): Record<string, string> {
  const errors: Record<string, string> = {};
  conditions.forEach((c, i) => {
    const pct = Number(c.rollout);
    if (c.rollout === '' || Number.isNaN(pct) || pct < 0 || pct > 100) errors[`rollout-${i}`] = 'A percentage from 0 to 100.';
    c.filters.forEach((f, j) => {
      const error = filterError(f);
      if (error) errors[`filter-${i}-${j}`] = error;
    });
  });
  return errors;
}

/** What keeps one filter from being sent. */
export function filterError(f: FilterDraft): string | undefined {
  if (f.type === 'cohort') return f.value ? undefined : 'Pick a cohort.';
  if (!f.key.trim()) return 'Name the property this filter reads.';
  if (!NO_VALUE.has(f.operator) && (LIST_OPERATORS.has(f.operator) ? f.values.length === 0 : f.value.trim() === '')) return 'Enter a value to compare with.';
  return undefined;
}

/** A filter as the API takes it; a cohort's is `{key: 'id', type: 'cohort', value: <id>, operator: 'in' | 'not_in'}`. */
export function toPropertyFilter(f: FilterDraft, aggregation: number | null = null): PropertyFilter {
  if (f.type === 'cohort') return { key: 'id', type: 'cohort', value: Number(f.value), operator: f.operator };
  return {
    key: f.key.trim(),
    type: aggregation === null ? f.type : 'group',
    operator: f.operator,
    value: filterValue(f),
    ...(f.type === 'group' || aggregation !== null ? { group_type_index: aggregation ?? Number(f.group_type_index) } : {}),
  };
}

/** Condition sets as a flag's `groups`: matched by person (aggregation null) or by a group type. */
export function toGroups(conditions: ConditionDraft[], aggregation: number | null = null, multivariate = false): Condition[] {
  return conditions.map((c) => ({
    properties: c.filters.map((f) => toPropertyFilter(f, aggregation)),
    rollout_percentage: Number(c.rollout),
    ...(multivariate && c.variant ? { variant: c.variant } : {}),
  }));
}

/** The body the API takes, or the field errors that keep the form from being sent. */
export function fromDraft(d: FlagDraft): { body?: Record<string, unknown>; errors?: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!d.key.trim()) errors.key = 'Enter a key: it is what your code asks for.';
  else if (!/^[\w-]+$/.test(d.key.trim())) errors.key = 'Only letters, numbers, hyphens (-) and underscores (_), no spaces.';
  const payloads: Record<string, string> = {};
  if (d.multivariate) {
    const keys = d.variants.map((v) => v.key.trim());
    if (d.variants.length < 2) errors.variants = 'Add at least two variants, or turn off multiple variants.';
    else if (keys.some((k) => !k)) errors.variants = 'Every variant needs a key.';
    else if (new Set(keys).size !== keys.length) errors.variants = 'Variant keys must be different.';
    else if (keys.some((k) => !/^[\w-]+$/.test(k))) errors.variants = 'Variant keys take letters, numbers, hyphens and underscores only.';
    const sum = d.variants.reduce((acc, v) => acc + (Number(v.rollout) || 0), 0);
    if (!errors.variants && Math.abs(sum - 100) > 1e-9) errors.variants = `Variant percentages must add up to 100 (now ${round(sum)}).`;
    d.variants.forEach((v, i) => {
      const parsed = parseJson(v.payload);
      if (parsed.error) errors[`payload-${i}`] = parsed.error;
      else if (parsed.value !== undefined) payloads[v.key.trim()] = JSON.stringify(parsed.value);
    });
  } else {
    const parsed = parseJson(d.payload);
    if (parsed.error) errors.payload = parsed.error;
    else if (parsed.value !== undefined) payloads.true = JSON.stringify(parsed.value);
  }
  Object.assign(errors, conditionErrors(d.conditions));
  if (Object.keys(errors).length) return { errors };
  const aggregation = d.aggregation === 'person' ? null : Number(d.aggregation);
  const filters: FlagFilters = {
    aggregation_group_type_index: aggregation,
    groups: toGroups(d.conditions, aggregation, d.multivariate),
    multivariate: d.multivariate
      ? { variants: d.variants.map((v) => ({ key: v.key.trim(), ...(v.name ? { name: v.name } : {}), rollout_percentage: Number(v.rollout) })) }
      : null,
    payloads,
  };
  return { body: { key: d.key.trim(), name: d.name, active: d.active, filters, ensure_experience_continuity: d.continuity } };
}

export const round = (n: number) => Math.round(n * 100) / 100;

/** Where an API error's `attr` belongs in this form. */
export const flagFieldOf = (attr: string) =>
  attr === 'key'
    ? 'key'
    : attr === 'name'
      ? 'name'
      : attr.startsWith('filters__multivariate')
        ? 'variants'
        : attr.startsWith('filters__groups')
          ? 'conditions'
          : attr === 'filters'
            ? 'filters'
            : undefined;
