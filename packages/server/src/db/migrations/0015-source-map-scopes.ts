import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * The functions of a source map's minified file (`sourcemaps/function-scopes.ts`), read once when the file is uploaded
 * beside its map and stored packed, as binary: which function encloses a stack frame's position, and where its name is
 * written. Null for a map uploaded without its file.
 */
export const sourceMapScopes = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('source_maps')
      .addColumn('scopes', dialect === 'postgres' ? 'bytea' : 'blob')
      .execute();
  },
});
