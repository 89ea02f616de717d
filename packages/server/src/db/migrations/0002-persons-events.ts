import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/** Persons (distinct ids → person → properties), groups, group type indexes, and events. */
export function personsAndEvents(dialect: Dialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('persons')
        .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('uuid', 'text', (c) => c.notNull().unique())
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('is_identified', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('person_distinct_ids')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('distinct_id', 'text', (c) => c.notNull())
        .addColumn('person_id', 'bigint', (c) => c.notNull().references('persons.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('person_distinct_ids_pk', ['project_id', 'distinct_id'])
        .execute();
      await db.schema.createIndex('person_distinct_ids_person').on('person_distinct_ids').column('person_id').execute();
      await db.schema
        .createTable('group_type_mappings')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('group_type', 'text', (c) => c.notNull())
        .addColumn('group_type_index', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('group_type_mappings_pk', ['project_id', 'group_type'])
        .addUniqueConstraint('group_type_mappings_index', ['project_id', 'group_type_index'])
        .execute();
      await db.schema
        .createTable('groups')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('group_type_index', 'integer', (c) => c.notNull())
        .addColumn('group_key', 'text', (c) => c.notNull())
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('groups_pk', ['project_id', 'group_type_index', 'group_key'])
        .execute();
      await db.schema
        .createTable('events')
        .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('uuid', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('distinct_id', 'text', (c) => c.notNull())
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('timestamp', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        // A uuid is stored once per project: retries and duplicates are dropped.
        .addUniqueConstraint('events_uuid', ['project_id', 'uuid'])
        .execute();
      await db.schema.createIndex('events_project_time').on('events').columns(['project_id', 'timestamp']).execute();
      await db.schema.createIndex('events_project_distinct_id').on('events').columns(['project_id', 'distinct_id', 'timestamp']).execute();
    },
  };
}
