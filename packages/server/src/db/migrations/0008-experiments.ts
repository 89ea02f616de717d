import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required, serialId } from './columns';

/**
 * Experiments: an A/B test on a multivariate flag, with its planned variants (JSON text), its metrics (JSON
 * text, the first is the primary), its dates and status. A flag is in at most one experiment that is not complete,
 * enforced by the database so concurrent creates cannot both take it.
 */
export const experiments = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('experiments')
      .$call(serialId(dialect, 'serial'))
      .$call(projectId)
      .$call(required({ name: 'text', description: 'text' }))
      .addColumn('feature_flag_id', 'integer', (c) => c.notNull().references('feature_flags.id'))
      .$call(required({ variants: 'text', metrics: 'text' }))
      .addColumn('start_date', 'text')
      .addColumn('end_date', 'text')
      .$call(required({ status: 'text', created_at: 'text', updated_at: 'text' }))
      .execute();
    // A project's experiments, oldest first.
    await db.schema.createIndex('experiments_project').on('experiments').columns(['project_id', 'created_at', 'id']).execute();
    // One experiment in draft or running per flag.
    await db.schema
      .createIndex('experiments_open_feature_flag_id')
      .on('experiments')
      .column('feature_flag_id')
      .unique()
      .where(sql<boolean>`status <> 'complete'`)
      .execute();
    // Experiments of a flag (the flag guard, complete ones too).
    await db.schema.createIndex('experiments_feature_flag').on('experiments').columns(['feature_flag_id', 'id']).execute();
  },
});
