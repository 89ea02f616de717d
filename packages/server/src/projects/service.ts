import type { Executor } from '../db/schema';
import { projectStore, type Project } from './store';

/** Projects, with the project of a token kept once found: SDK endpoints look one up per request. */
export class ProjectService {
  /** Project tokens never change, so a found project is kept. */
  private readonly byTokenCache = new Map<string, Project>();

  constructor(private readonly db: Executor) {}

  create(name: string): Promise<Project> {
    return projectStore.create(this.db, name);
  }

  get(id: number): Promise<Project | undefined> {
    return projectStore.get(this.db, id);
  }

  /** The project of a token; undefined for a token no project has (one with NUL never does: PostgreSQL text cannot hold it). */
  async byToken(token: string): Promise<Project | undefined> {
    if (token.includes('\u0000')) return undefined;
    const cached = this.byTokenCache.get(token);
    if (cached) return cached;
    const project = await projectStore.byToken(this.db, token);
    if (project) this.byTokenCache.set(token, project);
    return project;
  }

  /** Every project, oldest first. */
  all(): Promise<Project[]> {
    return projectStore.all(this.db);
  }

  first(): Promise<Project | undefined> {
    return projectStore.first(this.db);
  }

  /** A page of projects, limited to `ids` when the key is limited to some projects. */
  page(ids: number[] | null, limit: number, offset: number) {
    return projectStore.page(this.db, ids, limit, offset);
  }
}
