import { validateFilters, type PropertyFilter, type PropertyGroup } from '@service/flag-engine';
import { ValidationError } from '../errors';

/**
 * A behavioral leaf (PostHog's shape): "did `key` at least `operator_value` times in the last `time_value`
 * `time_interval`s", optionally only events whose properties match `event_filters`.
 */
export interface BehavioralFilter {
  type: 'behavioral';
  value: 'performed_event' | 'performed_event_multiple';
  key: string;
  event_type?: 'events';
  operator?: 'gte' | 'gt' | 'exact' | 'lte' | 'lt';
  operator_value?: number;
  time_value: number;
  time_interval: 'day' | 'week' | 'month';
  event_filters?: PropertyFilter[];
  negation?: boolean;
}

/** A dynamic cohort's filters: `{properties: {type: 'OR', values: [{type: 'AND', values: [...]}]}}`. */
export interface CohortFilters {
  properties?: CohortGroup;
}
export interface CohortGroup {
  type: 'AND' | 'OR';
  values: Array<CohortGroup | PropertyFilter | BehavioralFilter>;
}

const INTERVAL_DAYS = { day: 1, week: 7, month: 30 } as const;
const COUNT_OPERATORS = ['gte', 'gt', 'exact', 'lte', 'lt'] as const;
/** Bounds of a cohort's filters: how deep groups nest, how many leaves, how far back a behavioral leaf looks. */
const MAX_DEPTH = 4;
const MAX_LEAVES = 200;
const MAX_DAYS = 3650;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isGroup = (value: unknown): value is CohortGroup => isObject(value) && 'values' in value;
const invalid = (detail: string) => new ValidationError(`Cohort filters are not valid (${detail})`, 'filters', 'invalid_input');

/** The leaves of a cohort's tree, in order (the order numbers its behavioral leaves). */
export function leavesOf(filters: CohortFilters): Array<PropertyFilter | BehavioralFilter> {
  const out: Array<PropertyFilter | BehavioralFilter> = [];
  const walk = (group: CohortGroup) => {
    for (const value of group.values) {
      if (isGroup(value)) walk(value);
      else out.push(value);
    }
  };
  if (filters.properties) walk(filters.properties);
  return out;
}

export const isBehavioral = (leaf: PropertyFilter | BehavioralFilter): leaf is BehavioralFilter => leaf.type === 'behavioral';

/** The cohorts a cohort's filters name (`{type: 'cohort', value: id}` leaves). */
export const referencedCohorts = (filters: CohortFilters): number[] => [
  ...new Set(leavesOf(filters).flatMap((leaf) => (leaf.type === 'cohort' ? [Number(leaf.value)] : []))),
];

/** How many days back a behavioral leaf looks. */
export const windowDays = (leaf: BehavioralFilter) => leaf.time_value * INTERVAL_DAYS[leaf.time_interval];

/** Whether a count of events within the window puts a person in a behavioral leaf. */
export function countMatches(leaf: BehavioralFilter, count: number): boolean {
  const n = leaf.operator_value ?? 1;
  switch (leaf.operator ?? 'gte') {
    case 'gte':
      return count >= n;
    case 'gt':
      return count > n;
    case 'exact':
      return count === n;
    case 'lte':
      return count <= n;
    case 'lt':
      return count < n;
  }
}

/** Property leaves checked by the flag engine's own validation (operators, regexes), as one condition's properties. */
function checkProperties(leaves: PropertyFilter[], what: string) {
  if (!leaves.length) return;
  const error = validateFilters({ groups: [{ properties: leaves, rollout_percentage: 100 }] });
  if (error) throw invalid(`${what}: ${error.detail.replace(/^Filters are not valid \(|\)$/g, '')}`);
}

function checkBehavioral(leaf: Record<string, unknown>) {
  if (leaf.value !== 'performed_event' && leaf.value !== 'performed_event_multiple')
    throw invalid('a behavioral leaf is performed_event or performed_event_multiple');
  if (typeof leaf.key !== 'string' || leaf.key === '' || leaf.key.length > 400) throw invalid('a behavioral leaf names its event in key');
  if (leaf.event_type !== undefined && leaf.event_type !== 'events') throw invalid('a behavioral leaf counts events (event_type "events")');
  if (leaf.operator !== undefined && !COUNT_OPERATORS.includes(leaf.operator as never))
    throw invalid(`a behavioral operator is one of ${COUNT_OPERATORS.join(', ')}`);
  const n = leaf.operator_value;
  if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 1_000_000))
    throw invalid('operator_value is a count from 0 to 1000000');
  if (!Object.hasOwn(INTERVAL_DAYS, String(leaf.time_interval))) throw invalid('time_interval is day, week or month');
  const days = Number(leaf.time_value) * INTERVAL_DAYS[leaf.time_interval as keyof typeof INTERVAL_DAYS];
  if (!Number.isInteger(leaf.time_value) || (leaf.time_value as number) < 1 || days > MAX_DAYS)
    throw invalid(`time_value is a whole number of intervals up to ${MAX_DAYS} days`);
  if (leaf.event_filters !== undefined) {
    if (!Array.isArray(leaf.event_filters) || leaf.event_filters.length > 50) throw invalid('event_filters is a list of up to 50 property filters');
    const asPerson = leaf.event_filters.map((f: unknown) => (isObject(f) ? { ...f, type: 'person' } : f)) as PropertyFilter[];
    checkProperties(asPerson, 'event_filters');
  }
}

/**
 * Checks a dynamic cohort's filters (the shape posthog-node reads: a group's values are all groups or all leaves) and
 * returns the cohorts they reference; whether those exist and make no cycle is the service's to check.
 */
export function checkCohortFilters(filters: unknown): CohortFilters {
  if (!isObject(filters) || !isGroup(filters.properties)) throw invalid('filters.properties is a group {type, values}');
  let leaves = 0;
  const walk = (group: Record<string, unknown>, depth: number) => {
    if (depth > MAX_DEPTH) throw invalid(`groups nest at most ${MAX_DEPTH} deep`);
    if (group.type !== 'AND' && group.type !== 'OR') throw invalid('a group type is AND or OR');
    if (!Array.isArray(group.values)) throw invalid('a group has a list of values');
    const subgroups = group.values.filter(isGroup).length;
    if (subgroups && subgroups !== group.values.length) throw invalid("a group's values are all groups or all property filters");
    const properties: PropertyFilter[] = [];
    for (const value of group.values as unknown[]) {
      if (!isObject(value)) throw invalid('a value is a group or a property filter');
      if (isGroup(value)) {
        walk(value, depth + 1);
        continue;
      }
      if (++leaves > MAX_LEAVES) throw invalid(`at most ${MAX_LEAVES} property filters`);
      if (value.negation !== undefined && typeof value.negation !== 'boolean') throw invalid('negation is true or false');
      if (value.type === 'behavioral') checkBehavioral(value);
      else if (value.type === 'person' || value.type === 'cohort' || value.type === undefined) properties.push(value as unknown as PropertyFilter);
      else throw invalid('leaves are person properties, cohorts or behavioral filters');
    }
    checkProperties(properties, 'properties');
  };
  walk(filters.properties as unknown as Record<string, unknown>, 1);
  return { properties: filters.properties as unknown as CohortGroup };
}

/** The filters of "the people who got variant `variant` of flag `flagKey` in the last `days` days": a behavioral leaf on `$feature_flag_called`. */
export function flagVariantFilters(flagKey: string, variant: string, days = 30): CohortFilters {
  const leaf: BehavioralFilter = {
    type: 'behavioral',
    value: 'performed_event',
    key: '$feature_flag_called',
    event_type: 'events',
    operator: 'gte',
    operator_value: 1,
    time_value: days,
    time_interval: 'day',
    event_filters: [
      { key: '$feature_flag', type: 'event', operator: 'exact', value: flagKey },
      { key: '$feature_flag_response', type: 'event', operator: 'exact', value: variant },
    ],
  };
  return { properties: { type: 'OR', values: [{ type: 'AND', values: [leaf] }] } };
}

/** The person property that stands for membership of a static cohort in the server's compiled flags. */
export const memberProperty = (cohortId: number) => `$cohort_member/${cohortId}`;
/** The person property that stands for a behavioral leaf's match in the server's compiled flags. */
export const behaviorProperty = (cohortId: number, leaf: number) => `$cohort_behavior/${cohortId}/${leaf}`;

const isSet = (key: string, negation?: boolean): PropertyFilter => ({
  key,
  type: 'person',
  operator: 'is_set',
  value: 'is_set',
  ...(negation ? { negation } : {}),
});

/**
 * A cohort as the server's flag engine evaluates it: a static cohort is membership of its member property, a
 * behavioral leaf is its behavior property; both are set on the person for the request from the stored members and
 * counts (`CohortLookups`), so one engine evaluates every cohort.
 */
export function serverGroup(cohortId: number, isStatic: boolean, filters: CohortFilters): PropertyGroup {
  if (isStatic) return { type: 'AND', values: [isSet(memberProperty(cohortId))] };
  let behavioral = 0;
  const map = (group: CohortGroup): PropertyGroup => ({
    type: group.type,
    values: group.values.map((value) => {
      if (isGroup(value)) return map(value);
      if (isBehavioral(value)) return isSet(behaviorProperty(cohortId, behavioral++), value.negation);
      return value;
    }),
  });
  return filters.properties ? map(filters.properties) : { type: 'AND', values: [] };
}
