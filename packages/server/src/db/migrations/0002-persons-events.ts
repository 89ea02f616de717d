import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { projectId, required, serialId } from './columns';

/** Persons (distinct ids → person → properties), groups, group type indexes, and events. */
export const personsAndEvents = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('persons')
      .$call(serialId(dialect, 'bigserial'))
      .$call(projectId)
      .addColumn('uuid', 'text', (c) => c.notNull().unique())
      .$call(required({ properties: 'text', is_identified: 'integer', created_at: 'text', updated_at: 'text' }))
      .execute();
    await db.schema
      .createTable('person_distinct_ids')
      .$call(projectId)
      .addColumn('distinct_id', 'text', (c) => c.notNull())
      .addColumn('person_id', 'bigint', (c) => c.notNull().references('persons.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('person_distinct_ids_pk', ['project_id', 'distinct_id'])
      .execute();
    await db.schema.createIndex('person_distinct_ids_person').on('person_distinct_ids').column('person_id').execute();
    await db.schema
      .createTable('group_type_mappings')
      .$call(projectId)
      .$call(required({ group_type: 'text', group_type_index: 'integer' }))
      .addPrimaryKeyConstraint('group_type_mappings_pk', ['project_id', 'group_type'])
      .addUniqueConstraint('group_type_mappings_index', ['project_id', 'group_type_index'])
      .execute();
    await db.schema
      .createTable('groups')
      .$call(projectId)
      .$call(required({ group_type_index: 'integer', group_key: 'text', properties: 'text', created_at: 'text', updated_at: 'text' }))
      .addPrimaryKeyConstraint('groups_pk', ['project_id', 'group_type_index', 'group_key'])
      .execute();
    await db.schema
      .createTable('events')
      .$call(serialId(dialect, 'bigserial'))
      .$call(projectId)
      .$call(required({ uuid: 'text', event: 'text', distinct_id: 'text', properties: 'text', timestamp: 'text', created_at: 'text' }))
      // A uuid is stored once per project: retries and duplicates are dropped.
      .addUniqueConstraint('events_uuid', ['project_id', 'uuid'])
      .execute();
    await db.schema.createIndex('events_project_time').on('events').columns(['project_id', 'timestamp']).execute();
    await db.schema.createIndex('events_project_distinct_id').on('events').columns(['project_id', 'distinct_id', 'timestamp']).execute();
  },
});
