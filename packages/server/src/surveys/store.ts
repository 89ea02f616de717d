import { sql, type Selectable, type SqlBool } from 'kysely';
import { containsIgnoringCase } from '../db/like';
import { countThenPage } from '../db/page';
import type { Executor, SurveyTable } from '../db/schema';
import { IN_APP_TYPES, type SurveyStatus } from './limits';

export type SurveyRow = Selectable<SurveyTable>;
export type SurveyChanges = Partial<Omit<SurveyRow, 'id' | 'project_id' | 'created_at' | 'created_by'>>;

export interface SurveyListOptions {
  limit: number;
  offset: number;
  search?: string;
  status?: SurveyStatus;
  archived: boolean;
  /** The time the status is read at (ISO, UTC). */
  now: string;
}

/** SQL for surveys. Every query is scoped to a project, but the schedule job's, which reads every project's. */
export const surveyStore = {
  async insert(db: Executor, row: SurveyRow): Promise<SurveyRow> {
    await db.insertInto('surveys').values(row).execute();
    return row;
  },

  get(db: Executor, projectId: number, id: string): Promise<SurveyRow | undefined> {
    return db.selectFrom('surveys').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  },

  /** A survey by its id alone (a flag names its survey so). */
  byId(db: Executor, id: string): Promise<SurveyRow | undefined> {
    return db.selectFrom('surveys').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** A page of a project's surveys, newest first; the status is the one `statusOf` gives at `now`. */
  async page(db: Executor, projectId: number, opts: SurveyListOptions) {
    let query = db
      .selectFrom('surveys')
      .where('project_id', '=', projectId)
      .where('archived', '=', opts.archived ? 1 : 0);
    if (opts.search) query = query.where(containsIgnoringCase('name', opts.search));
    const { now } = opts;
    const ended = sql<SqlBool>`(end_date is not null and end_date <= ${now})`;
    if (opts.status === 'stopped') query = query.where(ended);
    if (opts.status === 'draft') query = query.where(sql<SqlBool>`not ${ended} and (start_date is null or start_date > ${now})`);
    if (opts.status === 'running') query = query.where(sql<SqlBool>`not ${ended} and start_date is not null and start_date <= ${now}`);
    return countThenPage(query, opts.limit, opts.offset, (page) => page.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute());
  },

  async update(db: Executor, row: SurveyRow, changes: SurveyChanges): Promise<SurveyRow> {
    const values = { ...changes, updated_at: new Date().toISOString() };
    await db.updateTable('surveys').set(values).where('id', '=', row.id).execute();
    return { ...row, ...values };
  },

  /** A project's surveys that may show in the page now or later (in-app, not archived, not ended by `now`), oldest first. */
  inApp(db: Executor, projectId: number, now: string): Promise<SurveyRow[]> {
    return db
      .selectFrom('surveys')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('archived', '=', 0)
      .where('type', 'in', [...IN_APP_TYPES])
      .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>', now)]))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  /** Every project's running recurring surveys: the schedule job moves their iterations on. */
  runningRecurring(db: Executor, now: string): Promise<SurveyRow[]> {
    return db
      .selectFrom('surveys')
      .selectAll()
      .where('schedule', '=', 'recurring')
      .where('archived', '=', 0)
      .where('start_date', '<=', now)
      .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>', now)]))
      .execute();
  },

  /**
   * Surveys whose flags are on while they do not run, or off while they run (not archived): those whose start or end
   * came with no change to them (a start date reached, an end date passed, the responses limit).
   */
  flagsOutOfStep(db: Executor, now: string): Promise<SurveyRow[]> {
    return db
      .selectFrom('surveys')
      .innerJoin('feature_flags', 'feature_flags.id', 'surveys.targeting_flag_id')
      .selectAll('surveys')
      .where((eb) => {
        const running = eb.and([
          eb('surveys.start_date', '<=', now),
          eb.or([eb('surveys.end_date', 'is', null), eb('surveys.end_date', '>', now)]),
          eb('surveys.archived', '=', 0),
        ]);
        return eb.or([eb.and([eb('feature_flags.active', '=', 1), eb.not(running)]), eb.and([eb('feature_flags.active', '=', 0), running])]);
      })
      .execute();
  },

  /** A survey of the project (not archived) linked to the flag of this key, if any. */
  linkedTo(db: Executor, projectId: number, key: string): Promise<SurveyRow | undefined> {
    return db
      .selectFrom('surveys')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('linked_flag_key', '=', key)
      .where('archived', '=', 0)
      .executeTakeFirst();
  },

  /** The users who made these surveys, by id. */
  async creators(db: Executor, ids: number[]) {
    if (!ids.length) return new Map<number, { id: number; name: string; email: string }>();
    const rows = await db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, row]));
  },
};
