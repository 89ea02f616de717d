import { sql, type Selectable } from 'kysely';
import type { CohortTable } from '../db/cohorts-schema';
import type { Dialect } from '../db/database';
import type { Executor } from '../db/schema';
import { Slices } from '../turns';

export type CohortRow = Selectable<CohortTable>;

/** Ids a statement adds at most (bound as one JSON array on SQLite, one array on PostgreSQL): a few milliseconds' work each. */
const ADD_BATCH = { sqlite: 5000, postgres: 20_000 } as const;
/** Ids a statement removes at most (bound one by one). */
const REMOVE_BATCH = 2000;

/** One stored event count of a behavioral leaf. */
export interface EventCount {
  cohort_id: number;
  leaf: number;
  distinct_id: string;
  day: number;
  count: number;
}

/** The SQL of cohorts, their static members and their behavioral event counts. */
export const cohortStore = {
  live: (db: Executor, projectId: number) =>
    db.selectFrom('cohorts').selectAll().where('project_id', '=', projectId).where('deleted', '=', 0).orderBy('id').execute(),

  get: (db: Executor, projectId: number, id: number) =>
    db.selectFrom('cohorts').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst(),

  async page(db: Executor, projectId: number, limit: number, offset: number) {
    const base = db.selectFrom('cohorts').where('project_id', '=', projectId).where('deleted', '=', 0);
    const { count } = await base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    const rows = await base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
    return { count: Number(count), rows };
  },

  insert: (db: Executor, row: Omit<CohortTable, 'id'>) => db.insertInto('cohorts').values(row).returningAll().executeTakeFirstOrThrow(),

  update: (db: Executor, id: number, changes: Partial<Omit<CohortTable, 'id' | 'project_id'>>) =>
    db.updateTable('cohorts').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),

  /** Deletes a cohort with its members and counts (a creation that failed half way). */
  async remove(db: Executor, id: number) {
    await db.deleteFrom('cohort_members').where('cohort_id', '=', id).execute();
    await db.deleteFrom('cohort_event_counts').where('cohort_id', '=', id).execute();
    await db.deleteFrom('cohorts').where('id', '=', id).execute();
  },

  /** Members of static cohorts, by cohort id. */
  async memberCounts(db: Executor, ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await db
      .selectFrom('cohort_members')
      .select(['cohort_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('cohort_id', 'in', ids)
      .groupBy('cohort_id')
      .execute();
    return new Map(rows.map((r) => [r.cohort_id, Number(r.count)]));
  },

  members: (db: Executor, cohortId: number, limit: number, offset: number) =>
    db.selectFrom('cohort_members').select('distinct_id').where('cohort_id', '=', cohortId).orderBy('distinct_id').limit(limit).offset(offset).execute(),

  /**
   * Adds distinct ids to a static cohort (ids already in it are kept once), a batch a statement with turns of the event
   * loop between; a batch is one value bound to one statement (a JSON array read by `json_each` on SQLite, an array `unnest`ed on
   * PostgreSQL), so the statement is small whatever the batch, as COPY would send it.
   */
  async addMembers(db: Executor, dialect: Dialect, projectId: number, cohortId: number, ids: readonly string[]): Promise<void> {
    const slices = new Slices();
    await slices.begin();
    const size = ADD_BATCH[dialect];
    for (let i = 0; i < ids.length; i += size) {
      const batch = ids.slice(i, i + size);
      // `where true`: SQLite reads an upsert after `insert … select` only when the select has a where clause.
      const values =
        dialect === 'postgres'
          ? sql`select ${cohortId}, ${projectId}, unnest(${batch}::text[]) where true`
          : sql`select ${cohortId}, ${projectId}, value from json_each(${JSON.stringify(batch)}) where true`;
      await sql`insert into cohort_members (cohort_id, project_id, distinct_id) ${values} on conflict do nothing`.execute(db);
      if (slices.over) await slices.next();
    }
  },

  async removeMembers(db: Executor, cohortId: number, ids: readonly string[]): Promise<void> {
    const slices = new Slices();
    await slices.begin();
    for (let i = 0; i < ids.length; i += REMOVE_BATCH) {
      await db
        .deleteFrom('cohort_members')
        .where('cohort_id', '=', cohortId)
        .where('distinct_id', 'in', ids.slice(i, i + REMOVE_BATCH))
        .execute();
      if (slices.over) await slices.next();
    }
  },

  /**
   * The query of what `/flags` needs of one distinct id (binds project id, distinct id, project id, distinct id, first
   * day): the static cohorts it is in (`leaf` -1) and its event counts of behavioral leaves since the first day, from
   * the two tables' `(project_id, distinct_id)` indexes. One text for every project, so it is prepared once.
   */
  personFactsQuery(db: Executor) {
    const members = db
      .selectFrom('cohort_members')
      .select(['cohort_id', sql<number>`-1`.as('leaf'), 'distinct_id', sql<number>`0`.as('day'), sql<number>`0`.as('count')])
      .where('project_id', '=', 0)
      .where('distinct_id', '=', '');
    const counts = db
      .selectFrom('cohort_event_counts')
      .select(['cohort_id', 'leaf', 'distinct_id', 'day', 'count'])
      .where('project_id', '=', 0)
      .where('distinct_id', '=', '')
      .where('day', '>=', 0);
    return members.unionAll(counts);
  },

  /** Event counts of the given distinct ids (a page of persons) for the given cohorts since `sinceDay`. */
  countsOf: (db: Executor, projectId: number, cohortIds: number[], distinctIds: string[], sinceDay: number): Promise<EventCount[]> =>
    cohortIds.length && distinctIds.length
      ? db
          .selectFrom('cohort_event_counts')
          .select(['cohort_id', 'leaf', 'distinct_id', 'day', 'count'])
          .where('project_id', '=', projectId)
          .where('cohort_id', 'in', cohortIds)
          .where('distinct_id', 'in', distinctIds)
          .where('day', '>=', sinceDay)
          .execute()
      : Promise.resolve([]),

  /** Adds event counts (rows of one slice, summed per key), in the ingest transaction. */
  addCounts: (db: Executor, projectId: number, rows: EventCount[]) =>
    db
      .insertInto('cohort_event_counts')
      .values(rows.map((row) => ({ ...row, project_id: projectId })))
      .onConflict((oc) => oc.columns(['cohort_id', 'leaf', 'distinct_id', 'day']).doUpdateSet({ count: sql`cohort_event_counts.count + excluded.count` }))
      .execute(),

  /** Drops a behavioral leaf's counts of days before `beforeDay` (past its window). */
  expireLeaf: (db: Executor, cohortId: number, leaf: number, beforeDay: number) =>
    db.deleteFrom('cohort_event_counts').where('cohort_id', '=', cohortId).where('leaf', '=', leaf).where('day', '<', beforeDay).executeTakeFirst(),

  /** Drops the counts of deleted cohorts. */
  dropCountsOfDeleted: (db: Executor) =>
    db
      .deleteFrom('cohort_event_counts')
      .where('cohort_id', 'in', (eb) => eb.selectFrom('cohorts').select('id').where('deleted', '=', 1))
      .executeTakeFirst(),

  /** The live cohorts with behavioral leaves, of every project (the expiry job's work). */
  allDynamic: (db: Executor) =>
    db.selectFrom('cohorts').selectAll().where('deleted', '=', 0).where('is_static', '=', 0).where('filters', 'like', '%behavioral%').execute(),
};
