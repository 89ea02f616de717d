import type { Kysely } from 'kysely';
import { projectId, required } from './columns';

/**
 * Exception lists stored once (issue 15): an `$exception` event's list (its stack traces, most of its size, and the
 * same for every occurrence of an error) is kept once per project and distinct list, by its hash, and the event names
 * it in `exception_list`; its properties are the rest. Events stored before keep their lists inside their properties
 * (`exception_list` null): both read back alike (`events/store.ts`).
 */
export const exceptionLists = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('exception_lists')
      .$call(projectId)
      .$call(required({ hash: 'text', list: 'text', created_at: 'text' }))
      .addPrimaryKeyConstraint('exception_lists_pk', ['project_id', 'hash'])
      .execute();
    await db.schema.alterTable('events').addColumn('exception_list', 'text').execute();
  },
};
