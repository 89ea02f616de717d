import { PassThrough, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { projectRoutes } from '../../http/project-routes';
import { ErrorSchema, PageQuery, ProjectParams, Text, errorResponses } from '../../http/schemas';
import type { Services } from '../../services';

export interface SourceMapRoutesOptions {
  services: Services;
  /** Largest upload body, after gzip is inflated, in bytes (SOURCEMAP_MAX_BYTES). */
  maxBytes: number;
}

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

const notGzip = () => new ApiError(400, 'invalid_request', 'parse_error', 'Body is not valid gzip.');

/**
 * The request body, gunzipped when it says `Content-Encoding: gzip` (the body limit then counts the inflated bytes,
 * and the declared length the compressed ones); 415 for any other encoding.
 */
async function inflated(request: FastifyRequest, payload: Readable): Promise<Readable> {
  const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return payload;
  if (encoding !== 'gzip')
    throw new ApiError(415, 'invalid_request', 'unsupported_media_type', `Content-Encoding "${encoding}" is not supported; send gzip or none.`);
  const out = new PassThrough() as PassThrough & { receivedEncodedLength: number };
  out.receivedEncodedLength = 0;
  const gunzip = zlib.createGunzip();
  payload.on('data', (chunk: Buffer) => (out.receivedEncodedLength += chunk.length));
  payload.on('error', (error) => out.destroy(error));
  gunzip.on('error', () => out.destroy(notGzip()));
  // Fastify listens while it reads the body; an error after it stopped (a 413 already sent) must not go unhandled.
  out.on('error', () => undefined);
  payload.pipe(gunzip).pipe(out);
  return out;
}

/**
 * `/api/projects/:project_id/error_tracking/sourcemaps/` (scopes `error_tracking:read` / `error_tracking:write`): upload
 * a release's source map for a minified file (JSON, gzip accepted, up to SOURCEMAP_MAX_BYTES), list and delete them.
 */
export const sourceMapRoutes: FastifyPluginAsync<SourceMapRoutesOptions> = async (app, { services, maxBytes }) => {
  const tags = ['error tracking'];
  const base = '/api/projects/:project_id/error_tracking/sourcemaps';
  app.post<{ Params: Static<typeof ProjectParams>; Body: Static<typeof SourceMapUpload> }>(
    base,
    {
      onRequest: authorize(services, 'error_tracking:write'),
      preParsing: async (request, _reply, payload) => inflated(request, payload),
      bodyLimit: maxBytes,
      schema: {
        tags,
        summary: 'Upload a source map (replaces the map of the same release and URL)',
        params: ProjectParams,
        body: SourceMapUpload,
        response: { 201: SourceMapSchema, ...errorResponses, 413: ErrorSchema, 415: ErrorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await services.sourceMaps.upload(request.project!.id, request.body)),
  );

  const routes = projectRoutes(app, services, { collection: 'error_tracking/sourcemaps', object: 'error_tracking', tags });
  routes.list(SourceMapsQuery, SourceMapSchema, (projectId, query, page) =>
    services.sourceMaps.list(projectId, { ...page, release: query.release || undefined }),
  );
  routes.delete((projectId, id) => services.sourceMaps.delete(projectId, id));
};
