import { sql, type Selectable } from 'kysely';
import type { CohortTable } from '../db/cohorts-schema';
import type { Dialect } from '../db/database';
import type { Executor } from '../db/schema';
import { Slices } from '../turns';

export type CohortRow = Selectable<CohortTable>;

/** Ids a statement adds at most: SQLite binds three values a row (its limit is 32,766); PostgreSQL binds one array. */
const SQLITE_BATCH = 2000;
const POSTGRES_BATCH = 20_000;

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

  remove: (db: Executor, id: number) => db.deleteFrom('cohorts').where('id', '=', id).execute(),

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
   * loop between; on PostgreSQL a batch is one array bound to one statement (`unnest`), as COPY would send it.
   */
  async addMembers(db: Executor, dialect: Dialect, projectId: number, cohortId: number, ids: readonly string[]): Promise<void> {
    const slices = new Slices();
    await slices.begin();
    const size = dialect === 'postgres' ? POSTGRES_BATCH : SQLITE_BATCH;
    for (let i = 0; i < ids.length; i += size) {
      const batch = ids.slice(i, i + size);
      if (dialect === 'postgres') {
        await sql`insert into cohort_members (cohort_id, project_id, distinct_id) select ${cohortId}, ${projectId}, unnest(${batch}::text[]) on conflict do nothing`.execute(
          db,
        );
      } else {
        await db
          .insertInto('cohort_members')
          .values(batch.map((distinct_id) => ({ cohort_id: cohortId, project_id: projectId, distinct_id })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      if (slices.over) await slices.next();
    }
  },

  async removeMembers(db: Executor, cohortId: number, ids: readonly string[]): Promise<void> {
    const slices = new Slices();
    await slices.begin();
    for (let i = 0; i < ids.length; i += SQLITE_BATCH) {
      await db
        .deleteFrom('cohort_members')
        .where('cohort_id', '=', cohortId)
        .where('distinct_id', 'in', ids.slice(i, i + SQLITE_BATCH))
        .execute();
      if (slices.over) await slices.next();
    }
  },

  /**
   * What `/flags` needs of one distinct id, in one indexed query: the static cohorts among `staticIds` it is in
   * (`leaf` -1) and its event counts of the behavioral leaves of `behavioralIds` since `sinceDay`.
   */
  async personFacts(
    db: Executor,
    projectId: number,
    distinctId: string,
    staticIds: number[],
    behavioralIds: number[],
    sinceDay: number,
  ): Promise<EventCount[]> {
    const members = () =>
      db
        .selectFrom('cohort_members')
        .select(['cohort_id', sql<number>`-1`.as('leaf'), 'distinct_id', sql<number>`0`.as('day'), sql<number>`0`.as('count')])
        .where('project_id', '=', projectId)
        .where('distinct_id', '=', distinctId)
        .where('cohort_id', 'in', staticIds);
    const counts = () =>
      db
        .selectFrom('cohort_event_counts')
        .select(['cohort_id', 'leaf', 'distinct_id', 'day', 'count'])
        .where('project_id', '=', projectId)
        .where('distinct_id', '=', distinctId)
        .where('cohort_id', 'in', behavioralIds)
        .where('day', '>=', sinceDay);
    if (staticIds.length && behavioralIds.length) return members().unionAll(counts()).execute();
    if (staticIds.length) return members().execute();
    return behavioralIds.length ? counts().execute() : [];
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
