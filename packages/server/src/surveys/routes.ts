import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { projectRoutes } from '../http/project-routes';
import { ProjectItemParams, errorResponses } from '../http/schemas';
import type { RouteContext } from '../module';
import { SurveyCreate, SurveyListQuery, SurveySchema, SurveyUpdate } from './schemas';
import type { SurveyService } from './service';

/**
 * `/api/projects/:project_id/surveys/`: surveys (list, create, retrieve, update, archive with DELETE), launched and
 * stopped by their own routes. Each keeps two flags, shown on it.
 */
export const surveyRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { surveys: SurveyService }>> = async (app, { services }) => {
  const tags = ['surveys'];
  const routes = projectRoutes(app, services, { collection: 'surveys', object: 'survey', tags });
  routes.list(SurveyListQuery, SurveySchema, (projectId, { search, status, archived }, page) =>
    services.surveys.list(projectId, { search: search || undefined, status, archived }, page.limit, page.offset),
  );
  routes.create(SurveyCreate, SurveySchema, (projectId, body, request) => services.surveys.create(projectId, body, actorOf(request)));
  routes.get(SurveySchema, (projectId, id) => services.surveys.get(projectId, id));
  routes.update(SurveyUpdate, SurveySchema, (projectId, id, body, request) => services.surveys.update(projectId, id, body, actorOf(request)));
  routes.delete((projectId, id, request) => services.surveys.archive(projectId, id, actorOf(request)));

  const action = (name: 'launch' | 'stop', summary: string) =>
    app.post<{ Params: Static<typeof ProjectItemParams> }>(
      `/api/projects/:project_id/surveys/:id/${name}`,
      {
        onRequest: authorize(services, 'survey:write'),
        schema: { tags, summary, params: ProjectItemParams, response: { 200: SurveySchema, 409: errorResponses[400], ...errorResponses } },
      },
      async (request) => services.surveys[name](request.project!.id, request.params.id, actorOf(request)),
    );
  action('launch', 'Launch a survey (it starts now) or resume a stopped one');
  action('stop', 'Stop a running survey (it ends now)');
};
