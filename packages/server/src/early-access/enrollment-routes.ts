import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize, type AuthLookups } from '../http/auth';
import { pageOf, pageParams } from '../http/pagination';
import { ErrorSchema, PageQuery, ProjectItemParams, Text, errorResponses, pageOfSchema } from '../http/schemas';
import type { RouteContext } from '../module';
import type { EnrollmentService } from './enrollments';

const Nullable = (options: { format?: string; description: string }) => Type.Union([Type.String(options), Type.Null()]);

const EnrollmentSchema = Type.Object(
  {
    distinct_id: Nullable({ description: "the person's distinct id; null for a group" }),
    person_id: Nullable({ format: 'uuid', description: "the person's uuid; null for a group" }),
    group_type: Nullable({ description: 'null for a person' }),
    group_key: Nullable({ description: 'null for a person' }),
    enrolled: Type.Boolean({ description: 'opted in (true) or out (false)' }),
    stage: Type.String({ description: "the feature's stage when they opted in or out" }),
    updated_at: Type.String({ format: 'date-time', description: 'when they opted in or out' }),
  },
  { title: 'Enrollment' },
);

const ListSchema = Type.Object(
  {
    ...pageOfSchema(EnrollmentSchema).properties,
    counts: Type.Object(
      { enrolled: Type.Integer(), opted_out: Type.Integer() },
      { description: 'over every enrollment of the feature, whatever the filter and page' },
    ),
  },
  { title: 'EnrollmentPage' },
);

const PerDayQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, default: 30, description: 'how many days back, today included' })),
});
const PerDaySchema = Type.Object(
  {
    days: Type.Array(Type.String({ description: 'a UTC day, YYYY-MM-DD' }), {
      description: 'every day of the range from the day the feature was created (or of its first choice, when earlier), oldest first',
    }),
    opted_in: Type.Array(Type.Integer(), { description: 'people (or groups) opted in now who made that choice that day' }),
    opted_out: Type.Array(Type.Integer(), { description: 'people (or groups) opted out now who made that choice that day' }),
  },
  { title: 'EnrollmentsPerDay', description: "each enrollment's latest choice, by its day: what the feature's counts count, so they add up to them" },
);

const ListQuery = Type.Object({
  ...PageQuery.properties,
  enrolled: Type.Optional(Type.Boolean({ description: 'only those opted in (true) or out (false)' })),
});

/** Distinct ids and group keys are stored up to 200 characters. */
const Name = (description: string) => Text({ minLength: 1, maxLength: 200, description });
const EnrollBody = Type.Object(
  {
    distinct_id: Type.Optional(Name('a person to opt in or out (for a person-based flag)')),
    group_type: Type.Optional(Name("a group's type, one of the project's (for a group-based flag)")),
    group_key: Type.Optional(Name("the group's key")),
    enrolled: Type.Boolean({ description: 'opt in (true) or out (false)' }),
  },
  { additionalProperties: false },
);

/**
 * `/api/projects/:project_id/early_access_feature/:id/enrollments/`: who opted in or out of a feature, and opting
 * someone in or out on their behalf (scopes `early_access_feature:read` / `:write`).
 */
export const enrollmentRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { enrollments: EnrollmentService }>> = async (app, { services }) => {
  const path = '/api/projects/:project_id/early_access_feature/:id/enrollments';
  const tags = ['early access features'];

  app.get<{ Params: Static<typeof ProjectItemParams>; Querystring: Static<typeof ListQuery> }>(
    path,
    {
      onRequest: authorize(services, 'early_access_feature:read'),
      schema: {
        tags,
        summary: 'List the people and groups who opted in or out of an early access feature, newest first',
        params: ProjectItemParams,
        querystring: ListQuery,
        response: { 200: ListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const page = pageParams(request);
      const { count, results, counts } = await services.enrollments.list(
        request.project!.id,
        request.params.id,
        request.query.enrolled,
        page.limit,
        page.offset,
      );
      return { ...pageOf(request, count, results, page), counts };
    },
  );

  app.get<{ Params: Static<typeof ProjectItemParams>; Querystring: Static<typeof PerDayQuery> }>(
    `${path}/per_day`,
    {
      onRequest: authorize(services, 'early_access_feature:read'),
      schema: {
        tags,
        summary: "An early access feature's opt-ins and opt-outs per UTC day (each person's latest choice)",
        params: ProjectItemParams,
        querystring: PerDayQuery,
        response: { 200: PerDaySchema, ...errorResponses },
      },
    },
    async (request) => services.enrollments.perDay(request.project!.id, request.params.id, request.query.days ?? 30),
  );

  app.post<{ Params: Static<typeof ProjectItemParams>; Body: Static<typeof EnrollBody> }>(
    path,
    {
      onRequest: authorize(services, 'early_access_feature:write'),
      schema: {
        tags,
        summary: 'Opt a person or group in or out of an early access feature on their behalf (as their SDK would)',
        params: ProjectItemParams,
        body: EnrollBody,
        response: {
          200: Type.Object(EnrollmentSchema.properties, { description: 'an enrollment changed' }),
          201: Type.Object(EnrollmentSchema.properties, { description: 'a first enrollment' }),
          ...errorResponses,
          409: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { created, enrollment } = await services.enrollments.enroll(request.project!.id, request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(enrollment);
    },
  );
};
