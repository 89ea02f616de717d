import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required, serialId } from './columns';

export const initial = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('projects')
      .$call(serialId(dialect, 'serial'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('api_token', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('secure_value', 'text', (c) => c.notNull().unique())
      .addColumn('mask_value', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('project_ids', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createTable('feature_flags')
      .$call(serialId(dialect, 'serial'))
      .$call(projectId)
      .$call(
        required({
          key: 'text',
          name: 'text',
          filters: 'text',
          active: 'integer',
          deleted: 'integer',
          ensure_experience_continuity: 'integer',
          version: 'integer',
          created_at: 'text',
          updated_at: 'text',
        }),
      )
      .execute();
    // A key is unique among a project's live flags; soft-deleted flags free their key.
    await db.schema
      .createIndex('feature_flags_live_key')
      .on('feature_flags')
      .columns(['project_id', 'key'])
      .unique()
      .where(sql<boolean>`deleted = 0`)
      .execute();
    await db.schema
      .createTable('early_access_features')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call(projectId)
      // One feature per flag, enforced by the database so concurrent creates cannot both link it.
      .addColumn('feature_flag_id', 'integer', (c) => c.unique().references('feature_flags.id'))
      .$call(required({ name: 'text', description: 'text', stage: 'text', documentation_url: 'text', created_at: 'text' }))
      .execute();
    await db.schema.createIndex('early_access_features_project').on('early_access_features').columns(['project_id', 'created_at', 'id']).execute();
  },
});
