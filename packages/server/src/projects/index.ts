import type { Core, ServerModule } from '../module';
import { projectRoutes } from './routes';
import { ProjectService } from './service';

/** Projects: each with its own token, flags, events and the rest. */
export const projectsModule = {
  name: 'projects',
  services: ({ db }: Pick<Core, 'db'>) => ({ projects: new ProjectService(db.kysely) }),
  routes: projectRoutes,
  activityKinds: { Project: { object: 'project' } },
} satisfies ServerModule;
