import { COMMAND_LINE, changesBetween, recordActivity } from '../activity/service';
import type { Actor } from '../http/actor';
import type { Executor, Project } from '../db/schema';
import { NotFoundError, ValidationError } from '../errors';
import { projectStore } from './store';

/** A project's name, trimmed; 400 when blank. */
function projectName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new ValidationError('This field may not be blank.', 'name', 'blank');
  return name;
}

/** Projects, with the project of a token kept once found: SDK endpoints look one up per request. */
export class ProjectService {
  /** Project tokens never change, so a found project is kept. */
  private readonly byTokenCache = new Map<string, Project>();

  constructor(private readonly db: Executor) {}

  /** Creates a project; `actor`: who makes it (for the activity log; the command line unless said). */
  create(name: string, actor: Actor = COMMAND_LINE): Promise<Project> {
    const checked = projectName(name);
    return this.db.transaction().execute(async (trx) => {
      const project = await projectStore.create(trx, checked);
      await recordActivity(trx, actor, {
        projectId: project.id,
        scope: 'Project',
        itemId: project.id,
        activity: 'created',
        name: project.name,
        changes: changesBetween(null, { name: project.name }, ['name']),
      });
      return project;
    });
  }

  /** Renames a project (its token stays); 404 when there is none with this id. */
  async rename(id: number, name: string, actor: Actor): Promise<Project> {
    const checked = projectName(name);
    const project = await this.db.transaction().execute(async (trx) => {
      const before = await projectStore.get(trx, id);
      const renamed = before && (await projectStore.rename(trx, id, checked));
      if (!before || !renamed) return undefined;
      await recordActivity(trx, actor, {
        projectId: id,
        scope: 'Project',
        itemId: id,
        activity: 'updated',
        name: renamed.name,
        changes: changesBetween(before, renamed, ['name']),
      });
      return renamed;
    });
    if (!project) throw new NotFoundError('Project not found.');
    for (const [token, cached] of this.byTokenCache) if (cached.id === id) this.byTokenCache.set(token, project);
    return project;
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
