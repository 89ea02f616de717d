import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { ProjectParams, errorResponses } from '../http/schemas';
import type { RouteContext } from '../module';
import { SessionRecordingSettingsSchema, SessionRecordingSettingsUpdate } from './settings';
import type { ReplaySettingsService } from './settings-service';

/** `/api/projects/:project_id/session_recording_settings/`: the project's recording settings (off until turned on). */
export const replaySettingsRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { replaySettings: ReplaySettingsService }>> = async (app, { services }) => {
  const url = '/api/projects/:project_id/session_recording_settings';
  const tags = ['session recordings'];
  app.get<{ Params: Static<typeof ProjectParams> }>(
    url,
    {
      onRequest: authorize(services, 'session_recording:read'),
      schema: {
        tags,
        summary: "The project's session recording settings, its retention and the disk its recordings take",
        params: ProjectParams,
        response: { 200: SessionRecordingSettingsSchema, ...errorResponses },
      },
    },
    async (request) => services.replaySettings.get(request.project!.id),
  );
  app.patch<{ Params: Static<typeof ProjectParams>; Body: Static<typeof SessionRecordingSettingsUpdate> }>(
    url,
    {
      onRequest: authorize(services, 'session_recording:write'),
      schema: {
        tags,
        summary: "Change the project's session recording settings (the remote config follows at once)",
        params: ProjectParams,
        body: SessionRecordingSettingsUpdate,
        response: { 200: SessionRecordingSettingsSchema, ...errorResponses },
      },
    },
    async (request) => services.replaySettings.update(request.project!.id, request.body, actorOf(request)),
  );
};
