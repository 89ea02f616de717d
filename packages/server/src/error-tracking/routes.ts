import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf } from '../http/actor';
import { authorize, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { projectRoutes } from '../http/project-routes';
import { JsonObject, PageQuery, ProjectItemParams, Text, errorResponses, pageOfSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import { DEFAULT_VOLUME_DAYS, MAX_MERGE, MAX_VOLUME_DAYS, STATUSES, type ErrorTrackingService } from './service';
import { ISSUE_ORDERS } from './store';

const Status = Type.Enum([...STATUSES], {
  title: 'IssueStatus',
  description: 'active | resolved (occurring again reopens it as a regression) | suppressed (still recorded, no webhooks)',
});

const IssueSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.String(),
    status: Status,
    first_seen: Type.String({ format: 'date-time' }),
    last_seen: Type.String({ format: 'date-time' }),
    occurrences: Type.Integer(),
    people: Type.Integer({ description: 'distinct ids affected' }),
    regressed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when the issue last occurred again after being resolved' }),
    fingerprints: Type.Array(Type.String(), { description: 'the fingerprints grouped into this issue (several after a merge)' }),
  },
  { title: 'ErrorIssue' },
);

const EventSchema = Type.Object(
  {
    uuid: Type.String(),
    distinct_id: Type.String(),
    timestamp: Type.String({ format: 'date-time' }),
    properties: JsonObject,
  },
  { title: 'ErrorEvent' },
);

const IssueDetailSchema = Type.Object(
  {
    ...IssueSchema.properties,
    latest_event: Type.Union([EventSchema, Type.Null()], { description: 'the newest occurrence, with its stack (`$exception_list`)' }),
  },
  { title: 'ErrorIssueDetail' },
);

const ListQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Status),
  order_by: Type.Optional(Type.Enum([...ISSUE_ORDERS], { description: 'descending; default last_seen' })),
  search: Type.Optional(Text({ maxLength: 200, description: 'in the name or description, ignoring case' })),
});

const VolumeQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_VOLUME_DAYS, description: `days up to today, UTC (default ${DEFAULT_VOLUME_DAYS})` })),
});
const VolumeSchema = Type.Object(
  {
    interval: Type.Literal('day'),
    points: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), occurrences: Type.Integer(), people: Type.Integer() }), {
      description: 'one per day, oldest first, zeros included',
    }),
  },
  { title: 'IssueVolume' },
);

const PersonSchema = Type.Object(
  {
    distinct_id: Type.String(),
    person_id: Type.Union([Type.String(), Type.Null()]),
    occurrences: Type.Integer(),
    last_seen: Type.String({ format: 'date-time' }),
    properties: JsonObject,
  },
  { title: 'AffectedPerson' },
);

const IssueUpdate = Type.Object(
  {
    status: Type.Optional(Status),
    name: Type.Optional(Text({ minLength: 1, maxLength: 255 })),
    description: Type.Optional(Text({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

const MergeBody = Type.Object(
  { ids: Type.Array(Text({ maxLength: 64 }), { minItems: 1, maxItems: MAX_MERGE, description: 'the issues to merge into this one (they are deleted)' }) },
  { additionalProperties: false },
);

/** `/api/projects/:project_id/error_tracking/issues/`: exceptions grouped into issues. */
export const errorTrackingRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { errorTracking: ErrorTrackingService }>> = async (app, { services }) => {
  const tags = ['error tracking'];
  const issues = services.errorTracking;
  const routes = projectRoutes(app, services, { collection: 'error_tracking/issues', object: 'error_tracking', tags });
  routes.list(ListQuery, IssueSchema, (projectId, query, page) =>
    issues.list(projectId, { status: query.status, search: query.search, orderBy: query.order_by ?? 'last_seen', ...page }),
  );
  routes.get(IssueDetailSchema, (projectId, id) => issues.get(projectId, id));
  routes.update(IssueUpdate, IssueSchema, (projectId, id, body, request) => issues.update(projectId, id, body, actorOf(request)));

  const read = authorize(services, 'error_tracking:read');
  const base = '/api/projects/:project_id/error_tracking/issues/:id';
  type Params = Static<typeof ProjectItemParams>;

  app.get<{ Params: Params; Querystring: Static<typeof VolumeQuery> }>(
    `${base}/volume`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Occurrences and people per day',
        params: ProjectItemParams,
        querystring: VolumeQuery,
        response: { 200: VolumeSchema, ...errorResponses },
      },
    },
    async (request) => issues.volume(request.project!.id, request.params.id, request.query.days ?? DEFAULT_VOLUME_DAYS),
  );

  app.get<{ Params: Params; Querystring: Static<typeof PageQuery> }>(
    `${base}/events`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: "The issue's events, newest first",
        params: ProjectItemParams,
        querystring: PageQuery,
        response: { 200: pageOfSchema(EventSchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await issues.events(request.project!.id, request.params.id, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );

  app.get<{ Params: Params; Querystring: Static<typeof PageQuery> }>(
    `${base}/people`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'The people (distinct ids) the issue affected, most occurrences first',
        params: ProjectItemParams,
        querystring: PageQuery,
        response: { 200: pageOfSchema(PersonSchema), ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results } = await issues.people(request.project!.id, request.params.id, page.limit, page.offset);
      return pageOf(request, count, results, page);
    },
  );

  app.post<{ Params: Params; Body: Static<typeof MergeBody> }>(
    `${base}/merge`,
    {
      onRequest: authorize(services, 'error_tracking:write'),
      schema: {
        tags,
        summary: 'Merge other issues into this one: their fingerprints, events and people move here',
        params: ProjectItemParams,
        body: MergeBody,
        response: { 200: IssueSchema, ...errorResponses },
      },
    },
    async (request) => issues.merge(request.project!.id, request.params.id, request.body.ids, actorOf(request)),
  );
};
