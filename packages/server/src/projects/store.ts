import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, ProjectTable } from '../db/schema';

export type Project = Selectable<ProjectTable>;

export class ProjectStore {
  /** Project tokens never change, so a found project is kept; SDK endpoints look one up per request. */
  private readonly byTokenCache = new Map<string, Project>();

  constructor(private readonly db: Kysely<Database>) {}

  async create(name: string): Promise<Project> {
    const values = { name, api_token: `phc_${randomBytes(24).toString('base64url')}`, created_at: new Date().toISOString() };
    const { id } = await this.db.insertInto('projects').values(values).returning('id').executeTakeFirstOrThrow();
    return { id, ...values };
  }

  get(id: number): Promise<Project | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async byToken(token: string): Promise<Project | undefined> {
    const cached = this.byTokenCache.get(token);
    if (cached) return cached;
    const project = await this.db.selectFrom('projects').selectAll().where('api_token', '=', token).executeTakeFirst();
    if (project) this.byTokenCache.set(token, project);
    return project;
  }

  first(): Promise<Project | undefined> {
    return this.db.selectFrom('projects').selectAll().orderBy('id').limit(1).executeTakeFirst();
  }

  /** A page of projects, limited to `ids` when the key is limited to some projects. */
  async page(ids: number[] | null, limit: number, offset: number): Promise<{ count: number; rows: Project[] }> {
    let query = this.db.selectFrom('projects');
    if (ids) query = query.where('id', 'in', ids.length ? ids : [-1]);
    const { count } = await query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    const rows = await query.selectAll().orderBy('id').limit(limit).offset(offset).execute();
    return { count: Number(count), rows };
  }
}
