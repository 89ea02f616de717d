import type { Services } from './services';

export interface Bootstrap {
  project_id: number;
  project_token: string;
  personal_api_key: string;
}

/** Makes sure a project exists (the first one, else a new "Default project") and creates a key with scope `*`. */
export async function bootstrap(services: Services, label: string): Promise<Bootstrap & { createdProject: boolean }> {
  const existing = await services.projects.first();
  const project = existing ?? (await services.projects.create('Default project'));
  const { secret } = await services.keys.create({ label, scopes: ['*'], projectIds: null });
  return { project_id: project.id, project_token: project.api_token, personal_api_key: secret, createdProject: !existing };
}
