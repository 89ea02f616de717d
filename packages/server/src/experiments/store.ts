import type { Insertable, Selectable } from 'kysely';
import { countThenPage } from '../db/page';
import type { Executor, ExperimentTable } from '../db/schema';

export type ExperimentRow = Selectable<ExperimentTable>;
export type ExperimentChanges = Partial<
  Pick<ExperimentRow, 'name' | 'description' | 'variants' | 'metrics' | 'start_date' | 'end_date' | 'status' | 'updated_at'>
>;

/** SQL for experiments. Every query is scoped to a project, but those by flag (a flag belongs to one project). */
export const experimentStore = {
  async insert(db: Executor, row: Omit<Insertable<ExperimentTable>, 'id'>): Promise<ExperimentRow> {
    const { id } = await db.insertInto('experiments').values(row).returning('id').executeTakeFirstOrThrow();
    return { ...row, id } as ExperimentRow;
  },

  get(db: Executor, projectId: number, id: number): Promise<ExperimentRow | undefined> {
    return db.selectFrom('experiments').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  },

  /** The experiment of a flag that is not complete (at most one), but `exceptId`. */
  openByFlag(db: Executor, flagId: number, exceptId?: number): Promise<ExperimentRow | undefined> {
    let query = db.selectFrom('experiments').selectAll().where('feature_flag_id', '=', flagId).where('status', '<>', 'complete');
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return query.executeTakeFirst();
  },

  /** A flag's experiments, newest first. */
  byFlag(db: Executor, flagId: number): Promise<ExperimentRow[]> {
    return db.selectFrom('experiments').selectAll().where('feature_flag_id', '=', flagId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  },

  async page(db: Executor, projectId: number, limit: number, offset: number) {
    const query = db.selectFrom('experiments').where('project_id', '=', projectId);
    return countThenPage(query, limit, offset, (page) => page.selectAll().orderBy('created_at').orderBy('id').execute());
  },

  async update(db: Executor, row: ExperimentRow, changes: ExperimentChanges): Promise<ExperimentRow> {
    const values = { ...changes, updated_at: new Date().toISOString() };
    await db.updateTable('experiments').set(values).where('id', '=', row.id).execute();
    return { ...row, ...values };
  },

  async delete(db: Executor, id: number) {
    await db.deleteFrom('experiments').where('id', '=', id).execute();
  },
};
