import type { IncomingMessage } from 'node:http';
import { errorCodes, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf } from '../../http/actor';
import { ValidationError } from '../../errors';
import { authorize, type AuthLookups } from '../../http/auth';
import { readBody } from '../../http/content-encoding';
import { projectRoutes } from '../../http/project-routes';
import { ErrorSchema, PageQuery, ProjectParams, Text, errorResponses } from '../../http/schemas';
import { DEFAULT_SOURCEMAP_MAX_BYTES } from '../../config';
import type { RouteContext } from '../../module';
import { parseBodyInWorker } from './pool';
import type { ErrorTrackingService } from '../service';
import type { SourceMapService } from './service';

const SourceMapSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  release: Type.String(),
  url: Type.String({ description: 'the minified file’s URL, or `~/path` for that path on any origin' }),
  created_at: Type.String({ format: 'date-time' }),
  size: Type.Integer({ description: 'bytes stored (the map, and the minified file when it was sent)' }),
});

const SourceMapUpload = Type.Object(
  {
    release: Text({ minLength: 1, maxLength: 200, description: 'the release the minified file belongs to (an event’s `$release`)' }),
    url: Text({
      minLength: 1,
      maxLength: 2048,
      description: 'the minified file’s URL as stack frames name it, or `~/path` (e.g. `~/assets/index-3f9a1c.js`) for that path on any origin',
    }),
    map: Type.String({ description: 'the source map (v3), as JSON text' }),
    source: Type.Optional(Text({ description: 'the minified file' })),
  },
  { additionalProperties: false },
);

const SourceMapsQuery = Type.Object({
  ...PageQuery.properties,
  release: Type.Optional(Text({ maxLength: 200, description: 'only the maps of this release' })),
});

/**
 * JSON bodies read as every REST body is (`readBody`: content codings undone under the route's limit), then parsed in
 * the source map worker (pool.ts) as the REST API's parser parses them: an upload's body is a map of up to
 * SOURCEMAP_MAX_BYTES in one string, whose parse would hold the event loop.
 */
async function parseInWorker(request: FastifyRequest, payload: IncomingMessage): Promise<unknown> {
  const parsed = await parseBodyInWorker(await readBody(payload, request.headers, request.routeOptions.bodyLimit));
  if ('value' in parsed) return parsed.value;
  const { error } = parsed;
  if (error === 'empty') throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  if (error === 'invalid') throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  throw new ValidationError(error.detail, error.attr, error.code);
}

/**
 * `/api/projects/:project_id/error_tracking/sourcemaps/` (scopes `error_tracking:read` / `error_tracking:write`): upload
 * a release's source map for a minified file (JSON, compressed or not, up to SOURCEMAP_MAX_BYTES), list and delete them.
 */
export const sourceMapRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { sourceMaps: SourceMapService; errorTracking: ErrorTrackingService }>> = async (
  app,
  { services, config },
) => {
  // Largest upload body, as sent and once its content codings are undone.
  const maxBytes = config.sourcemapMaxBytes ?? DEFAULT_SOURCEMAP_MAX_BYTES;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', parseInWorker);
  const tags = ['error tracking'];
  const base = '/api/projects/:project_id/error_tracking/sourcemaps';
  app.post<{ Params: Static<typeof ProjectParams>; Body: Static<typeof SourceMapUpload> }>(
    base,
    {
      onRequest: authorize(services, 'error_tracking:write'),
      bodyLimit: maxBytes,
      schema: {
        tags,
        summary: 'Upload a source map (replaces the map of the same release and URL)',
        params: ProjectParams,
        body: SourceMapUpload,
        response: { 201: SourceMapSchema, ...errorResponses, 413: ErrorSchema, 415: ErrorSchema, 503: ErrorSchema },
      },
    },
    async (request, reply) => {
      const projectId = request.project!.id;
      const map = await services.sourceMaps.upload(projectId, request.body);
      // Off the request's path: the release's issues grouped by minified frames before are regrouped (regroup.ts).
      services.errorTracking.regroup(projectId, map.release, actorOf(request)).catch((error: unknown) => {
        request.log.warn({ err: error }, `Regrouping the issues of release ${map.release} after its source maps arrived failed.`);
      });
      return reply.code(201).send(map);
    },
  );

  const routes = projectRoutes(app, services, { collection: 'error_tracking/sourcemaps', object: 'error_tracking', tags });
  routes.list(SourceMapsQuery, SourceMapSchema, (projectId, query, page) =>
    services.sourceMaps.list(projectId, { ...page, release: query.release || undefined }),
  );
  routes.delete((projectId, id) => services.sourceMaps.delete(projectId, id));
};
