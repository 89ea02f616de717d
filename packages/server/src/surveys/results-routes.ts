import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { authorize, type AuthLookups } from '../http/auth';
import { ProjectItemParams, Text, errorResponses } from '../http/schemas';
import type { RouteContext } from '../module';
import { MAX_ANSWER_CHARS } from './responses-answers';
import { DEFAULT_ANSWERS_LIMIT, MAX_ANSWERS_LIMIT, MAX_OTHER_CHOICES, type SurveyResultsService } from './results';

const ResultsQuery = Type.Object({
  date_from: Type.Optional(Text({ maxLength: 64, description: 'from this date (`2026-01-31`, UTC), date-time, or time ago (`-7d`, `-12h`), inclusive' })),
  date_to: Type.Optional(Text({ maxLength: 64, description: 'until this date (the whole day counts), date-time (exclusive), or time ago' })),
  property_key: Type.Optional(Text({ maxLength: 400, description: 'only people whose current person property `property_key` is `property_value`' })),
  property_value: Type.Optional(Text({ maxLength: 10_000, description: 'compared as text: `3` matches the number 3 and the text "3"' })),
  variant_flag: Type.Optional(Text({ maxLength: 400, description: 'only events and responses sent with this flag (`$feature/<flag>`) at `variant`' })),
  variant: Type.Optional(Text({ maxLength: 400, description: 'a variant key, or `true` / `false` for a boolean flag' })),
  answers_offset: Type.Optional(Type.String({ description: 'index of the first open answer listed (default 0)' })),
  answers_limit: Type.Optional(
    Type.String({ description: `open answers listed per question (default ${DEFAULT_ANSWERS_LIMIT}, at most ${MAX_ANSWERS_LIMIT})` }),
  ),
  answers_question: Type.Optional(
    Text({ maxLength: 400, description: 'page this question’s answers only (`answers_offset` applies to it; the others list their first page)' }),
  ),
});

const Day = Type.Object(
  {
    day: Type.String({ description: 'UTC day, `YYYY-MM-DD`' }),
    shown: Type.Integer(),
    dismissed: Type.Integer(),
    sent: Type.Integer(),
    abandoned: Type.Integer(),
  },
  { title: 'SurveyResultsDay' },
);
const AnswerValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String())], {
  description: `as stored: a text (cut at ${MAX_ANSWER_CHARS} characters), a number, or a list of choices`,
});
const QuestionResults = Type.Object(
  {
    id: Type.String(),
    index: Type.Integer({ description: 'place in the survey’s questions' }),
    type: Type.String(),
    question: Type.String(),
    responses: Type.Integer({ description: 'responses that answer it' }),
    choices: Type.Optional(
      Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }), {
        description: `single and multiple choice: every choice (zeros too), then answers outside them (an open choice's texts, the ${MAX_OTHER_CHOICES} most frequent) under their text; a multiple choice answer counts once per choice`,
      }),
    ),
    ratings: Type.Optional(
      Type.Array(Type.Object({ value: Type.Number(), count: Type.Integer() }), {
        description: 'rating: every value of the scale (0–10 for 10, else 1 to the scale), zeros too',
      }),
    ),
    nps: Type.Optional(
      Type.Object(
        {
          promoters: Type.Integer({ description: '9–10' }),
          passives: Type.Integer({ description: '7–8' }),
          detractors: Type.Integer({ description: '0–6' }),
          score: Type.Union([Type.Number(), Type.Null()], { description: '% promoters − % detractors, −100 to 100; null without answers' }),
        },
        { title: 'SurveyNps', description: 'rating with scale 10' },
      ),
    ),
    answers: Type.Optional(
      Type.Object(
        {
          results: Type.Array(
            Type.Object({
              value: AnswerValue,
              distinct_id: Type.String(),
              person_id: Type.Union([Type.String(), Type.Null()], { description: 'the person’s id (uuid), null when the distinct id has none' }),
              timestamp: Type.String({ description: 'the response’s last event' }),
              submission_id: Type.String(),
            }),
          ),
          count: Type.Integer(),
          next_offset: Type.Union([Type.Integer(), Type.Null()], { description: 'the `answers_offset` of the next page; null at the end' }),
        },
        {
          title: 'SurveyAnswersPage',
          description: 'open questions, and choice questions with an open choice (answers holding a text of their own): newest first',
        },
      ),
    ),
  },
  { title: 'SurveyQuestionResults' },
);

const ResultsSchema = Type.Object(
  {
    survey_id: Type.String(),
    counts: Type.Object(
      {
        shown: Type.Integer({ description: '`survey shown` events' }),
        dismissed: Type.Integer({ description: '`survey dismissed` events' }),
        sent: Type.Integer({ description: 'completed responses (one per submission, its partial answers merged)' }),
        abandoned: Type.Integer({ description: '`survey abandoned` events' }),
        partial: Type.Integer({ description: 'responses begun and not completed' }),
      },
      { title: 'SurveyCounts' },
    ),
    response_rate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: 'people shown the survey who completed a response, over people shown it; null when nobody was shown it',
    }),
    late_responses: Type.Integer({ description: 'responses stored while the survey did not run (unknown, not launched, ended or stopped): counted above too' }),
    by_day: Type.Array(Day, { description: 'per UTC day: events, and completed responses by their last event' }),
    questions: Type.Array(QuestionResults, { description: 'in the survey’s order; none for a survey that does not exist' }),
  },
  { title: 'SurveyResults' },
);

/** `GET /api/projects/:project_id/surveys/:id/results/`: a survey's counts, reach, days and answers, computed in SQL. */
export const surveyResultsRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { surveyResults: SurveyResultsService }>> = async (app, { services }) => {
  app.get<{ Params: Static<typeof ProjectItemParams>; Querystring: Static<typeof ResultsQuery> }>(
    '/api/projects/:project_id/surveys/:id/results',
    {
      onRequest: authorize(services, 'survey:read'),
      schema: {
        tags: ['surveys'],
        summary:
          "A survey's results: shown, dismissed, sent and abandoned counts, response rate, late responses, per day, and per question the choices, the rating distribution (NPS for 0–10) and the open answers with their person; filtered by time, a person property, a flag variant",
        params: ProjectItemParams,
        querystring: ResultsQuery,
        response: { 200: ResultsSchema, ...errorResponses },
      },
    },
    (request) => services.surveyResults.results(request.project!.id, request.params.id, request.query),
  );
};
