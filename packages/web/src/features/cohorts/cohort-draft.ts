import type { Cohort, PropertyFilter } from '../../api/types';
import { parseJson } from '../../components/format';
import { filterDraft, filterError, toPropertyFilter, type FilterDraft } from '../flags/flag-draft';

/**
 * One criterion of a dynamic cohort: a person property or membership of another cohort (a filter, as the flag form
 * edits them), an event done at least `count` times in the last `days` days, or a variant of a flag got in the last
 * `days` days (a behavioral criterion on `$feature_flag_called`, as the service's `flag_variant` shortcut makes).
 */
export interface CriterionDraft {
  kind: 'person' | 'cohort' | 'behavioral' | 'flag_variant';
  filter: FilterDraft;
  event: string;
  count: number | string;
  days: number | string;
  flag: string;
  variant: string;
}

export interface CohortDraft {
  name: string;
  description: string;
  isStatic: boolean;
  /** A static cohort's distinct ids as pasted: one a line, or separated by commas. */
  ids: string;
  /** A dynamic cohort's criteria: the groups are OR'd, the criteria of a group AND'd. */
  groups: CriterionDraft[][];
  /** Filters the criteria cannot show (made through the API in another shape), edited as JSON; null otherwise. */
  json: string | null;
}

const FLAG_CALLED = '$feature_flag_called';

export const newFilter = (): FilterDraft => ({ key: '', type: 'person', group_type_index: '0', operator: 'exact', values: [], value: '' });
export const newCriterion = (kind: CriterionDraft['kind'] = 'person'): CriterionDraft => ({
  kind,
  filter: kind === 'cohort' ? { ...newFilter(), key: 'id', type: 'cohort', operator: 'in' } : newFilter(),
  event: '',
  count: 1,
  days: 30,
  flag: '',
  variant: '',
});

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isGroup = (v: unknown): v is { type: string; values: unknown[] } => isObject(v) && Array.isArray(v.values) && (v.type === 'AND' || v.type === 'OR');
const isExact = (f: unknown, key: string): f is Obj => isObject(f) && f.key === key && (f.operator ?? 'exact') === 'exact' && typeof f.value === 'string';

/** A leaf as a criterion, or null when the form cannot show it as it is (a negation, a count other than "at least"…). */
function criterionOf(leaf: unknown): CriterionDraft | null {
  if (!isObject(leaf) || leaf.negation === true) return null;
  if (leaf.type === 'behavioral') {
    const days = leaf.time_interval === 'day' ? leaf.time_value : null;
    const count = leaf.operator_value ?? 1;
    if (typeof days !== 'number' || (leaf.operator ?? 'gte') !== 'gte' || typeof count !== 'number' || typeof leaf.key !== 'string') return null;
    const filters = Array.isArray(leaf.event_filters) ? leaf.event_filters : [];
    if (filters.length === 0) return { ...newCriterion('behavioral'), event: leaf.key, count, days };
    const [flag, response] = filters;
    if (leaf.key === FLAG_CALLED && count === 1 && filters.length === 2 && isExact(flag, '$feature_flag') && isExact(response, '$feature_flag_response'))
      return { ...newCriterion('flag_variant'), flag: flag.value as string, variant: response.value as string, days };
    return null;
  }
  if (leaf.type === 'cohort') return { ...newCriterion('cohort'), filter: filterDraft(leaf as unknown as PropertyFilter) };
  if (leaf.type === undefined || leaf.type === 'person')
    return { ...newCriterion('person'), filter: filterDraft({ ...(leaf as unknown as PropertyFilter), type: 'person' }) };
  return null;
}

/** A cohort's filters as groups of criteria (an OR of ANDs, an AND, or an OR of leaves), or null when they have another shape. */
export function criteriaOf(filters: unknown): CriterionDraft[][] | null {
  const top = isObject(filters) ? filters.properties : undefined;
  if (!isGroup(top)) return null;
  let groups: unknown[][];
  if (top.values.length > 0 && top.values.every(isGroup)) {
    if (top.type !== 'OR' && top.values.length > 1) return null;
    if (!top.values.every((g) => isGroup(g) && (g.type === 'AND' || g.values.length <= 1) && !g.values.some(isGroup))) return null;
    groups = top.values.map((g) => (g as { values: unknown[] }).values);
  } else if (top.values.some(isGroup)) return null;
  else groups = top.type === 'AND' ? [top.values] : top.values.map((leaf) => [leaf]);
  const criteria = groups.map((g) => g.map(criterionOf));
  return criteria.every((g) => g.length > 0 && g.every(Boolean)) ? (criteria as CriterionDraft[][]) : null;
}

/** A cohort as the form edits it; a new one is dynamic with one empty criterion. */
export function toCohortDraft(cohort?: Cohort): CohortDraft {
  if (!cohort) return { name: '', description: '', isStatic: false, ids: '', groups: [[newCriterion()]], json: null };
  const groups = cohort.is_static ? [] : criteriaOf(cohort.filters);
  return {
    name: cohort.name,
    description: cohort.description,
    isStatic: cohort.is_static,
    ids: '',
    groups: groups ?? [],
    json: groups === null ? JSON.stringify(cohort.filters, null, 2) : null,
  };
}

/** Pasted distinct ids: one a line or separated by commas, trimmed, blanks and repeats dropped. */
export const parseIds = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\n,]/)
      .map((id) => id.trim())
      .filter(Boolean),
  ),
];

const wholeNumber = (value: number | string, min: number, max: number) => {
  const n = Number(value);
  return value !== '' && Number.isInteger(n) && n >= min && n <= max;
};

function criterionError(c: CriterionDraft): string | undefined {
  switch (c.kind) {
    case 'person':
    case 'cohort':
      return filterError(c.filter);
    case 'behavioral':
      if (!c.event.trim()) return 'Name the event.';
      if (!wholeNumber(c.count, 1, 1_000_000)) return 'How many times: a whole number from 1.';
      break;
    case 'flag_variant':
      if (!c.flag) return 'Pick a flag.';
      if (!c.variant) return 'Pick the variant.';
  }
  return wholeNumber(c.days, 1, 3650) ? undefined : 'The last how many days: a whole number from 1 to 3650.';
}

/** A criterion as a leaf of the API's filters (PostHog's shapes). */
function leafOf(c: CriterionDraft): object {
  const behavioral = { type: 'behavioral', value: 'performed_event', event_type: 'events', operator: 'gte', time_value: Number(c.days), time_interval: 'day' };
  switch (c.kind) {
    case 'person':
    case 'cohort':
      return toPropertyFilter(c.filter);
    case 'behavioral':
      return { ...behavioral, key: c.event.trim(), operator_value: Number(c.count) };
    case 'flag_variant':
      return {
        ...behavioral,
        key: FLAG_CALLED,
        operator_value: 1,
        event_filters: [
          { key: '$feature_flag', type: 'event', operator: 'exact', value: c.flag },
          { key: '$feature_flag_response', type: 'event', operator: 'exact', value: c.variant },
        ],
      };
  }
}

/** The criteria's errors by field (`criterion-<group>-<criterion>`). */
export function criteriaErrors(groups: CriterionDraft[][]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (groups.length === 0) errors.criteria = 'Add a group of criteria: a dynamic cohort needs at least one.';
  groups.forEach((g, i) => {
    if (g.length === 0) errors[`group-${i}`] = 'Add a criterion to this group, or remove the group.';
    g.forEach((c, j) => {
      const error = criterionError(c);
      if (error) errors[`criterion-${i}-${j}`] = error;
    });
  });
  return errors;
}

/**
 * The body the API takes (name, description and, for a dynamic cohort, filters; a static cohort's ids go apart), or the
 * field errors that keep the form from being sent.
 */
export function fromCohortDraft(d: CohortDraft): { body?: Record<string, unknown>; errors?: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!d.name.trim()) errors.name = 'Name the cohort.';
  let filters: unknown;
  if (!d.isStatic) {
    if (d.json !== null) {
      const parsed = parseJson(d.json);
      if (parsed.error) errors.filters = parsed.error;
      else if (!isObject(parsed.value)) errors.filters = 'Filters are a JSON object: {"properties": {"type": "OR", "values": [...]}}.';
      else filters = parsed.value;
    } else {
      Object.assign(errors, criteriaErrors(d.groups));
      filters = { properties: { type: 'OR', values: d.groups.map((g) => ({ type: 'AND', values: g.map(leafOf) })) } };
    }
  }
  if (Object.keys(errors).length) return { errors };
  return { body: { name: d.name.trim(), description: d.description, ...(filters ? { filters } : {}) } };
}

/** Where an API error's `attr` belongs in the form. */
export const cohortFieldOf = (attr: string) =>
  attr === 'name' ? 'name' : attr.startsWith('filters') ? 'filters' : attr.startsWith('distinct_ids') ? 'ids' : undefined;

/** What kind of cohort it is, for lists: its ids, events people did, or their properties (and other cohorts). */
export function cohortKind(cohort: Pick<Cohort, 'is_static' | 'filters'>): 'static' | 'behavioral' | 'properties' {
  if (cohort.is_static) return 'static';
  const behavioral = (v: unknown): boolean => (isGroup(v) ? v.values.some(behavioral) : isObject(v) && v.type === 'behavioral');
  return behavioral(cohort.filters?.properties) ? 'behavioral' : 'properties';
}

export const KIND_LABEL = { static: 'Static list', behavioral: 'Behavioral', properties: 'Person properties' } as const;
export const KIND_COLOR = { static: 'gray', behavioral: 'grape', properties: 'blue' } as const;
