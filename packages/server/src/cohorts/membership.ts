import { compileFlags, type FlagDefinition } from '@service/flag-engine';
import type { Executor } from '../db/schema';
import type { Properties } from '../json';
import { Slices } from '../turns';
import { applyFacts, dayOf, firstDayOf, projectCohorts } from './evaluation';
import { cohortStore, type CohortRow, type EventCount } from './store';

/** A person in a cohort, as the members list shows it. */
export interface CohortMember {
  distinct_id: string;
  /** The uuid of the stored person behind the distinct id, or null when none is stored (a static cohort's id, say). */
  person_id: string | null;
  properties: Properties;
}

const PAGE = 500;
const flagOf = (id: number): FlagDefinition => ({
  id,
  key: `cohort-${id}`,
  active: true,
  filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: id }], rollout_percentage: 100 }] },
});

/**
 * The members of dynamic cohorts: every stored person of the project evaluated against them, a page of persons at a
 * time (their properties, their distinct ids' static memberships and event counts) with turns of the event loop
 * between, as `/flags` evaluates a person. `visit` gets each person in a cohort, with the cohort's id.
 */
export async function scanDynamic(
  db: Executor,
  projectId: number,
  all: readonly CohortRow[],
  targets: readonly number[],
  visit: (cohortId: number, member: CohortMember) => boolean | void,
): Promise<void> {
  const flags = targets.map(flagOf);
  const cohorts = projectCohorts(all, flags);
  const engine = compileFlags(flags, { cohorts: cohorts.server, mode: 'server' });
  const { lookups } = cohorts;
  const today = dayOf(Date.now());
  const since = firstDayOf(today, lookups.longestWindow);
  const slices = new Slices();
  await slices.begin();
  for (let after = 0; ;) {
    const persons = await db
      .selectFrom('persons')
      .select(['id', 'uuid', 'properties'])
      .where('project_id', '=', projectId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (!persons.length) return;
    after = persons[persons.length - 1]!.id;
    const ids = await db
      .selectFrom('person_distinct_ids')
      .select(['person_id', 'distinct_id'])
      .where('project_id', '=', projectId)
      .where(
        'person_id',
        'in',
        persons.map((p) => p.id),
      )
      .execute();
    const distinctIds = ids.map((row) => row.distinct_id);
    const facts: EventCount[] = await cohortStore.countsOf(db, projectId, lookups.behavioralIds, distinctIds, since);
    if (lookups.staticIds.length && distinctIds.length) {
      const members = await db
        .selectFrom('cohort_members')
        .select(['cohort_id', 'distinct_id'])
        .where('cohort_id', 'in', lookups.staticIds)
        .where('distinct_id', 'in', distinctIds)
        .execute();
      for (const m of members) facts.push({ cohort_id: m.cohort_id, leaf: -1, distinct_id: m.distinct_id, day: 0, count: 0 });
    }
    const byPerson = new Map<number, string[]>();
    for (const row of ids) byPerson.set(row.person_id, [...(byPerson.get(row.person_id) ?? []), row.distinct_id]);
    for (const person of persons) {
      const own = byPerson.get(person.id) ?? [];
      if (!own.length) continue;
      const properties = JSON.parse(person.properties) as Properties;
      const shown = { ...properties };
      applyFacts(
        properties,
        lookups,
        facts.filter((f) => own.includes(f.distinct_id)),
        today,
      );
      for (const result of engine.evaluateList({ distinctId: own[0]!, personProperties: properties, groups: {}, groupProperties: {} })) {
        if ('inconclusive' in result || !result.enabled) continue;
        const stop = visit(Number(result.key.slice('cohort-'.length)), { distinct_id: own[0]!, person_id: person.uuid, properties: shown });
        if (stop) return;
      }
      if (slices.over) await slices.next();
    }
  }
}
