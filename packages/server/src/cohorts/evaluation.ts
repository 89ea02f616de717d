import type { FlagDefinition, PropertyGroup } from '@service/flag-engine';
import type { Properties } from '../json';
import {
  behaviorProperty,
  countMatches,
  isBehavioral,
  leavesOf,
  memberProperty,
  referencedCohorts,
  serverGroup,
  windowDays,
  type BehavioralFilter,
  type CohortFilters,
} from './filters';
import type { CohortRow, EventCount } from './store';

const DAY_MS = 86_400_000;
/** Today, as days since 1970-01-01 (UTC). */
export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);
/** The first day a window of `days` days counts: today and the `days - 1` days before it. */
export const firstDayOf = (today: number, days: number) => today - days + 1;

/** A behavioral leaf `/flags` looks up: its cohort, its place among the cohort's behavioral leaves, its filter. */
export interface BehaviorLookup {
  cohortId: number;
  leaf: number;
  filter: BehavioralFilter;
}

/** What `/flags` looks up for a person before evaluating a project's flags: the cohorts its flags reach that are not property cohorts. */
export interface CohortLookups {
  staticIds: number[];
  behaviors: BehaviorLookup[];
  /** The cohorts of `behaviors`, once each. */
  behavioralIds: number[];
  /** The longest window among `behaviors`, in days. */
  longestWindow: number;
}

/** A project's cohorts as flag evaluation uses them. */
export interface ProjectCohorts {
  /** Cohorts posthog-node evaluates locally (`/flags/definitions?send_cohorts`): person property cohorts whose references are too. */
  local: Record<string, PropertyGroup>;
  /** Every cohort, for the server's engine (static and behavioral ones through the person properties `lookups` sets). */
  server: Record<string, PropertyGroup>;
  lookups: CohortLookups;
}

const filtersOf = (row: CohortRow) => JSON.parse(row.filters) as CohortFilters;

/** The cohorts a flag names in its conditions (release and enrollment). */
function flagCohorts(definition: FlagDefinition): number[] {
  const filters = definition.filters ?? {};
  const conditions = [...(Array.isArray(filters.groups) ? filters.groups : []), ...(Array.isArray(filters.super_groups) ? filters.super_groups : [])];
  return conditions.flatMap((c) => (Array.isArray(c?.properties) ? c.properties : []).flatMap((p) => (p?.type === 'cohort' ? [Number(p.value)] : [])));
}

/** Builds a project's cohorts for evaluation from its live cohorts and the flags that will be evaluated. */
export function projectCohorts(rows: readonly CohortRow[], flags: readonly FlagDefinition[]): ProjectCohorts {
  const byId = new Map(rows.map((row) => [row.id, { row, filters: filtersOf(row) }]));
  const server: Record<string, PropertyGroup> = {};
  for (const { row, filters } of byId.values()) server[row.id] = serverGroup(row.id, row.is_static === 1, filters);

  // A cohort evaluates locally when it is a person property cohort and every cohort it references does too.
  const localOk = new Map<number, boolean>();
  const isLocal = (id: number, path: Set<number>): boolean => {
    const known = localOk.get(id);
    if (known !== undefined) return known;
    const cohort = byId.get(id);
    if (!cohort || cohort.row.is_static === 1 || path.has(id)) return false;
    path.add(id);
    const ok = !leavesOf(cohort.filters).some(isBehavioral) && referencedCohorts(cohort.filters).every((ref) => isLocal(ref, path));
    path.delete(id);
    localOk.set(id, ok);
    return ok;
  };
  const local: Record<string, PropertyGroup> = {};
  for (const { row, filters } of byId.values()) if (isLocal(row.id, new Set())) local[row.id] = filters.properties as PropertyGroup;

  // What a request looks up: the static and behavioral cohorts the flags reach, through references too.
  const reached = new Set<number>();
  const visit = (id: number) => {
    if (reached.has(id) || !byId.has(id)) return;
    reached.add(id);
    for (const ref of referencedCohorts(byId.get(id)!.filters)) visit(ref);
  };
  for (const flag of flags) for (const id of flagCohorts(flag)) visit(id);
  const lookups: CohortLookups = { staticIds: [], behaviors: [], behavioralIds: [], longestWindow: 0 };
  for (const id of reached) {
    const { row, filters } = byId.get(id)!;
    if (row.is_static === 1) {
      lookups.staticIds.push(id);
      continue;
    }
    const behaviors = leavesOf(filters).filter(isBehavioral);
    behaviors.forEach((filter, leaf) => lookups.behaviors.push({ cohortId: id, leaf, filter }));
    if (behaviors.length) lookups.behavioralIds.push(id);
    for (const filter of behaviors) lookups.longestWindow = Math.max(lookups.longestWindow, windowDays(filter));
  }
  return { local, server, lookups };
}

export const needsLookup = (lookups: CohortLookups) => lookups.staticIds.length > 0 || lookups.behaviors.length > 0;

/**
 * Sets on a person's properties (a fresh object of the request's) the properties that stand for the static cohorts it
 * is in and the behavioral leaves it matches, from its stored facts, and removes any the request sent itself.
 */
export function applyFacts(properties: Properties, lookups: CohortLookups, facts: readonly EventCount[], today: number): void {
  const members = new Set<number>();
  const counts = new Map<string, number>();
  for (const fact of facts) {
    if (fact.leaf < 0) members.add(Number(fact.cohort_id));
    else {
      const key = `${fact.cohort_id}/${fact.leaf}`;
      const leaf = lookups.behaviors.find((b) => b.cohortId === Number(fact.cohort_id) && b.leaf === Number(fact.leaf));
      if (leaf && Number(fact.day) >= firstDayOf(today, windowDays(leaf.filter))) counts.set(key, (counts.get(key) ?? 0) + Number(fact.count));
    }
  }
  for (const id of lookups.staticIds) {
    const key = memberProperty(id);
    if (members.has(id)) properties[key] = true;
    else delete properties[key];
  }
  for (const { cohortId, leaf, filter } of lookups.behaviors) {
    const key = behaviorProperty(cohortId, leaf);
    if (countMatches(filter, counts.get(`${cohortId}/${leaf}`) ?? 0)) properties[key] = true;
    else delete properties[key];
  }
}
