import type { ColumnDataType, CreateTableBuilder } from 'kysely';
import type { Dialect } from '../database';

// Column shapes the migrations share. A migration, once released, must keep making the same tables: change
// these only in ways that leave every table the same.

type Table = CreateTableBuilder<string, string>;

/** `id`: an auto-numbered primary key (`serial` or `bigserial` on PostgreSQL, `integer` on SQLite). */
export const serialId = (dialect: Dialect, type: 'serial' | 'bigserial') => (table: Table) =>
  dialect === 'postgres' ? table.addColumn('id', type, (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

/** `project_id`: the owning project, whose deletion deletes the row. */
export const projectId = (table: Table) => table.addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'));

/** NOT NULL columns of the given types, in order. */
export const required = (columns: Record<string, ColumnDataType>) => (table: Table) =>
  Object.entries(columns).reduce((t, [name, type]) => t.addColumn(name, type, (c) => c.notNull()), table);
