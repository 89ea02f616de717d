import type { Project } from './db/schema';
import type { Services } from './services';

/** A project as the command line prints it (`init`, `projects create`, `projects list`). */
export interface ProjectFields {
  project_id: number;
  project_name: string;
  project_token: string;
}

export const projectFields = (project: Project): ProjectFields => ({ project_id: project.id, project_name: project.name, project_token: project.api_token });

export interface Bootstrap extends ProjectFields {
  personal_api_key: string;
}

/** Makes sure a project exists (the first one, else a new "Default project") and creates a key with scope `*`. */
export async function bootstrap(services: Services, label: string): Promise<Bootstrap & { createdProject: boolean }> {
  const existing = await services.projects.first();
  const project = existing ?? (await services.projects.create('Default project'));
  const { secret } = await services.keys.create({ label, scopes: ['*'], projectIds: null });
  return { ...projectFields(project), personal_api_key: secret, createdProject: !existing };
}
