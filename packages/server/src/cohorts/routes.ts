import type { IncomingMessage } from 'node:http';
import { errorCodes, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { readBody } from '../http/content-encoding';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { projectRoutes } from '../http/project-routes';
import { ErrorSchema, PageQuery, ProjectItemParams, ProjectParams, errorResponses, intId, pageOfSchema } from '../http/schemas';
import { parseJsonBytes } from '../http/sliced-json';
import { deepJsonError } from '../json';
import type { RouteContext } from '../module';
import { distinctIdsOfCsv } from './csv';
import { CohortCreate, CohortMemberSchema, CohortMembersChange, CohortPatch, CohortSchema, CsvQuery } from './schemas';
import type { CohortService } from './service';

/**
 * The largest body of the routes that take distinct ids (a million ids of up to ~90 characters as JSON); larger than
 * the REST API's limit on these routes only.
 */
export const COHORT_BODY_LIMIT_BYTES = 96 * 1024 * 1024;

/** JSON read under the route's limit and parsed in slices (a million ids would hold the event loop in one JSON.parse). */
async function parseJson(request: FastifyRequest, payload: IncomingMessage): Promise<unknown> {
  const bytes = await readBody(payload, request.headers, request.routeOptions.bodyLimit);
  if (!bytes.toString('utf8', 0, 1024).trim()) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  let value: unknown;
  try {
    value = await parseJsonBytes(bytes);
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  const deep = deepJsonError(value);
  if (deep) throw deep;
  return value;
}

/** A text/csv body: a static cohort named by `?name=` (create) or the ids to add or remove (members). */
async function parseCsv(request: FastifyRequest, payload: IncomingMessage): Promise<unknown> {
  const text = (await readBody(payload, request.headers, request.routeOptions.bodyLimit)).toString('utf8');
  const ids = await distinctIdsOfCsv(text);
  const name = (request.query as { name?: unknown }).name;
  return request.method === 'POST' && !request.url.includes('/members')
    ? { name: typeof name === 'string' && name ? name : 'Uploaded cohort', is_static: true, distinct_ids: ids }
    : { distinct_ids: ids };
}

const withTooLarge = { ...errorResponses, 409: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema };

/**
 * `/api/projects/:project_id/cohorts/` (scopes `cohort:read` / `cohort:write`): static and dynamic cohorts (list,
 * create, get, patch, soft delete), a static cohort's ids added and removed (`…/:id/members/`, JSON or text/csv), and
 * a cohort's members (`…/:id/persons/`).
 */
export const cohortRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { cohorts: CohortService }>> = async (app, { services }) => {
  const tags = ['cohorts'];
  const cohorts = services.cohorts;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', parseJson);
  app.addContentTypeParser('text/csv', parseCsv);
  const notFound = (id: string) => intId(id) ?? -1;

  const routes = projectRoutes(app, services, { collection: 'cohorts', object: 'cohort', tags });
  routes.list(PageQuery, CohortSchema, (projectId, _, page) => cohorts.list(projectId, page.limit, page.offset));
  routes.get(CohortSchema, (projectId, id) => cohorts.get(projectId, notFound(id)));
  routes.update(CohortPatch, CohortSchema, (projectId, id, body, request) => cohorts.update(projectId, notFound(id), body, actorOf(request)));
  routes.delete((projectId, id, request) => cohorts.delete(projectId, notFound(id), actorOf(request)));

  const base = '/api/projects/:project_id/cohorts';
  app.post<{ Params: Static<typeof ProjectParams>; Querystring: Static<typeof CsvQuery>; Body: Static<typeof CohortCreate> }>(
    base,
    {
      onRequest: authorize(services, 'cohort:write'),
      bodyLimit: COHORT_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: 'Create a cohort: static (distinct ids in JSON, or a text/csv body) or dynamic (filters)',
        params: ProjectParams,
        querystring: CsvQuery,
        body: CohortCreate,
        response: { 201: CohortSchema, ...withTooLarge },
      },
    },
    async (request, reply) => reply.code(201).send(await cohorts.create(request.project!.id, request.body, actorOf(request))),
  );

  for (const [method, add] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    app[method]<{ Params: Static<typeof ProjectItemParams>; Body: Static<typeof CohortMembersChange> }>(
      `${base}/:id/members`,
      {
        onRequest: authorize(services, 'cohort:write'),
        bodyLimit: COHORT_BODY_LIMIT_BYTES,
        schema: {
          tags,
          summary: add ? 'Add distinct ids to a static cohort (JSON or text/csv)' : 'Remove distinct ids from a static cohort (JSON or text/csv)',
          params: ProjectItemParams,
          body: CohortMembersChange,
          response: { 200: CohortSchema, ...withTooLarge },
        },
      },
      async (request) => cohorts.changeMembers(request.project!.id, notFound(request.params.id), request.body.distinct_ids, add, actorOf(request)),
    );
  }

  app.get<{ Params: Static<typeof ProjectItemParams>; Querystring: Static<typeof PageQuery> }>(
    `${base}/:id/persons`,
    {
      onRequest: authorize(services, 'cohort:read'),
      schema: {
        tags,
        summary: "A page of a cohort's members",
        params: ProjectItemParams,
        querystring: PageQuery,
        response: { 200: pageOfSchema(CohortMemberSchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await cohorts.members(request.project!.id, notFound(request.params.id), page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );
};
