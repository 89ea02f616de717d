import type { Selectable } from 'kysely';
import { countThenPage } from '../db/page';
import type { EarlyAccessFeatureTable, Executor } from '../db/schema';

export type FeatureRow = Selectable<EarlyAccessFeatureTable>;

/** SQL for early access features. Every query is scoped to a project. */
export const earlyAccessStore = {
  async insert(db: Executor, row: FeatureRow): Promise<FeatureRow> {
    await db.insertInto('early_access_features').values(row).execute();
    return row;
  },

  get(db: Executor, projectId: number, id: string): Promise<FeatureRow | undefined> {
    return db.selectFrom('early_access_features').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  },

  byFlag(db: Executor, flagId: number): Promise<FeatureRow | undefined> {
    return db.selectFrom('early_access_features').selectAll().where('feature_flag_id', '=', flagId).executeTakeFirst();
  },

  async page(db: Executor, projectId: number, limit: number, offset: number) {
    const query = db.selectFrom('early_access_features').where('project_id', '=', projectId);
    return countThenPage(query, limit, offset, (page) => page.selectAll().orderBy('created_at').orderBy('id').execute());
  },

  /** Features of a project in the given stages, with their flag keys, for the public endpoint. */
  inStages(db: Executor, projectId: number, stages: string[]) {
    return db
      .selectFrom('early_access_features as f')
      .leftJoin('feature_flags as flag', 'flag.id', 'f.feature_flag_id')
      .select(['f.id', 'f.name', 'f.description', 'f.stage', 'f.documentation_url', 'f.payload', 'flag.key as flag_key'])
      .where('f.project_id', '=', projectId)
      .where('f.stage', 'in', stages)
      .orderBy('f.created_at')
      .orderBy('f.id')
      .execute();
  },

  async update(db: Executor, id: string, changes: Partial<Pick<FeatureRow, 'name' | 'description' | 'stage' | 'documentation_url' | 'payload'>>) {
    if (Object.keys(changes).length) await db.updateTable('early_access_features').set(changes).where('id', '=', id).execute();
  },

  async delete(db: Executor, id: string) {
    await db.deleteFrom('early_access_features').where('id', '=', id).execute();
  },
};
