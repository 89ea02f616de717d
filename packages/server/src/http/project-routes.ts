import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { authorize, type AuthLookups } from './auth';
import { pageOf, pageParams } from './pagination';
import { ProjectItemParams, ProjectParams, errorResponses, pageOfSchema } from './schemas';

type PageAt = { limit: number; offset: number };

/**
 * The REST routes of one kind of object of a project, at `/api/projects/:project_id/<collection>/` and
 * `…/<collection>/:id/`: GETs need scope `<object>:read`, the rest `<object>:write`; the project comes from the
 * path (`request.project`). Each method registers one route around a handler given the project id (and, for writes,
 * the request: who makes the change).
 */
export function projectRoutes(app: FastifyInstance, lookups: AuthLookups, route: { collection: string; object: string; tags: string[] }) {
  const read = authorize(lookups, `${route.object}:read`);
  const write = authorize(lookups, `${route.object}:write`);
  const base = `/api/projects/:project_id/${route.collection}`;
  const { tags } = route;
  return {
    /** `GET /`: a page of `item`s, with `next`/`previous` links. */
    list<Q extends TSchema>(
      querystring: Q,
      item: TSchema,
      list: (projectId: number, query: Static<Q>, page: PageAt) => Promise<{ count: number; results: unknown[] }>,
    ) {
      app.get<{ Params: Static<typeof ProjectParams>; Querystring: Static<Q> }>(
        base,
        { onRequest: read, schema: { tags, params: ProjectParams, querystring, response: { 200: pageOfSchema(item), ...errorResponses } } },
        async (request) => {
          const page = pageParams(request);
          const { count, results } = await list(request.project!.id, request.query as Static<Q>, page);
          return pageOf(request, count, results, page);
        },
      );
    },

    /** `POST /`: 201 with what `create` made. */
    create<B extends TSchema>(body: B, created: TSchema, create: (projectId: number, body: Static<B>, request: FastifyRequest) => Promise<unknown>) {
      app.post<{ Params: Static<typeof ProjectParams>; Body: Static<B> }>(
        base,
        { onRequest: write, schema: { tags, params: ProjectParams, body, response: { 201: created, ...errorResponses } } },
        async (request, reply) => reply.code(201).send(await create(request.project!.id, request.body as Static<B>, request)),
      );
    },

    /** `GET /:id`. */
    get(item: TSchema, get: (projectId: number, id: string) => Promise<unknown>) {
      app.get<{ Params: Static<typeof ProjectItemParams> }>(
        `${base}/:id`,
        { onRequest: read, schema: { tags, params: ProjectItemParams, response: { 200: item, ...errorResponses } } },
        async (request) => get(request.project!.id, request.params.id),
      );
    },

    /** `PATCH /:id`: 200 with the updated item. */
    update<B extends TSchema>(body: B, item: TSchema, update: (projectId: number, id: string, body: Static<B>, request: FastifyRequest) => Promise<unknown>) {
      app.patch<{ Params: Static<typeof ProjectItemParams>; Body: Static<B> }>(
        `${base}/:id`,
        { onRequest: write, schema: { tags, params: ProjectItemParams, body, response: { 200: item, ...errorResponses } } },
        async (request) => update(request.project!.id, request.params.id, request.body as Static<B>, request),
      );
    },

    /** `DELETE /:id`: 204, no body. */
    delete(remove: (projectId: number, id: string, request: FastifyRequest) => Promise<unknown>) {
      app.delete<{ Params: Static<typeof ProjectItemParams> }>(
        `${base}/:id`,
        {
          onRequest: write,
          schema: { tags, params: ProjectItemParams, response: { 204: Type.Null({ description: 'deleted; empty body' }), ...errorResponses } },
        },
        async (request, reply) => {
          await remove(request.project!.id, request.params.id, request);
          return reply.code(204).send();
        },
      );
    },
  };
}
