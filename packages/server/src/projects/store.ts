import { randomBytes } from 'node:crypto';
import { countThenPage } from '../db/page';
import type { Executor, Project } from '../db/schema';

/** SQL for projects. */
export const projectStore = {
  async create(db: Executor, name: string): Promise<Project> {
    const values = { name, api_token: `phc_${randomBytes(24).toString('base64url')}`, created_at: new Date().toISOString() };
    const { id } = await db.insertInto('projects').values(values).returning('id').executeTakeFirstOrThrow();
    return { id, ...values };
  },

  /** Renames a project; undefined when there is none with this id. */
  rename(db: Executor, id: number, name: string): Promise<Project | undefined> {
    return db.updateTable('projects').set({ name }).where('id', '=', id).returningAll().executeTakeFirst();
  },

  get(db: Executor, id: number): Promise<Project | undefined> {
    return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  },

  byToken(db: Executor, token: string): Promise<Project | undefined> {
    return db.selectFrom('projects').selectAll().where('api_token', '=', token).executeTakeFirst();
  },

  /** Every project, oldest first. */
  all(db: Executor): Promise<Project[]> {
    return db.selectFrom('projects').selectAll().orderBy('id').execute();
  },

  first(db: Executor): Promise<Project | undefined> {
    return db.selectFrom('projects').selectAll().orderBy('id').limit(1).executeTakeFirst();
  },

  /** A page of projects, limited to `ids` when the key is limited to some projects. */
  page(db: Executor, ids: number[] | null, limit: number, offset: number) {
    let query = db.selectFrom('projects');
    if (ids) query = query.where('id', 'in', ids.length ? ids : [-1]);
    return countThenPage(query, limit, offset, (page) => page.selectAll().orderBy('id').execute());
  },
};
