import type { Kysely } from 'kysely';
import { projectId, required } from './columns';

/**
 * Exception stacks stored once: the stack traces of an `$exception` event's list (most of its size, and the
 * same for every occurrence of an error, whatever its message says) are kept once per project and distinct stacks, by
 * their hash, and the event names them in `exception_stacks`; its properties keep the rest of each exception. Events
 * stored before keep their stacks inside their properties (`exception_stacks` null): both read back alike
 * (`events/store.ts`).
 */
export const exceptionStacks = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('exception_stacks')
      .$call(projectId)
      .$call(required({ hash: 'text', stacks: 'text', created_at: 'text' }))
      .addPrimaryKeyConstraint('exception_stacks_pk', ['project_id', 'hash'])
      .execute();
    await db.schema.alterTable('events').addColumn('exception_stacks', 'text').execute();
  },
};
