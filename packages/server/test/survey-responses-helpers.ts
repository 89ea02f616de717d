import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { expect } from 'vitest';
import type { SurveyTable } from '../src/db/schema';
import type { TestService } from './helpers';

/** A question as a survey stores it (with its server-made id). */
export interface TestQuestion {
  id: string;
  type: string;
  question: string;
  [field: string]: unknown;
}

export const question = (type: string, fields: Record<string, unknown> = {}): TestQuestion => ({
  id: randomUUID(),
  type,
  question: `A ${type} question?`,
  ...fields,
});

/**
 * A survey row written straight into the `surveys` table (the definitions' API is another module's), running since an
 * hour ago unless told otherwise, and the change announced as a survey write announces it.
 */
export async function insertSurvey(
  s: TestService,
  fields: Partial<Omit<Insertable<SurveyTable>, 'questions' | 'conditions'>> & { questions?: TestQuestion[]; conditions?: unknown } = {},
) {
  const now = new Date().toISOString();
  const { questions = [question('open')], conditions = null, ...rest } = fields;
  const row: Insertable<SurveyTable> = {
    id: randomUUID(),
    project_id: s.projectId,
    name: `Survey ${randomUUID().slice(0, 8)}`,
    description: '',
    type: 'popover',
    questions: JSON.stringify(questions),
    schedule: 'once',
    appearance: null,
    conditions: conditions === null ? null : JSON.stringify(conditions),
    linked_flag_key: null,
    start_date: new Date(Date.now() - 3_600_000).toISOString(),
    end_date: null,
    responses_limit: null,
    current_iteration: null,
    enable_partial_responses: 0,
    archived: 0,
    created_at: now,
    updated_at: now,
    ...rest,
  };
  await s.services.db.kysely.insertInto('surveys').values(row).execute();
  s.services.changes.flagsChanged(s.projectId);
  return { id: row.id, questions };
}

/** Sends events as one batch, as posthog-js and service-node do, and expects them stored. */
export async function capture(s: TestService, events: Record<string, unknown>[]) {
  const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch: events } });
  expect(res.statusCode, res.body).toBe(200);
}

/** The person a distinct id names (its uuid and properties), read through the API. */
export async function personOf(s: TestService, distinctId: string) {
  const res = await s.app.inject({ url: `/api/projects/${s.projectId}/persons/?distinct_id=${encodeURIComponent(distinctId)}`, headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results[0] as { id: string; properties: Record<string, unknown> } | undefined;
}

/** A survey's results, expecting a 200. */
export async function resultsOf(s: TestService, surveyId: string, query = '') {
  const res = await s.app.inject({ url: `/api/projects/${s.projectId}/surveys/${surveyId}/results/${query}`, headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The survey's stored row. */
export const surveyRow = (s: TestService, id: string) => s.services.db.kysely.selectFrom('surveys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The survey's stored responses, oldest first. */
export const responseRows = (s: TestService, surveyId: string) =>
  s.services.db.kysely.selectFrom('survey_responses').selectAll().where('survey_id', '=', surveyId).orderBy('id').execute();

/** The survey's stored events, in order. */
export const eventRows = (s: TestService, surveyId: string) =>
  s.services.db.kysely.selectFrom('survey_events').selectAll().where('survey_id', '=', surveyId).orderBy('id').execute();

let n = 0;
/** A distinct id no other test used. */
export const someone = (label = 'user') => `${label}-${++n}-${randomUUID().slice(0, 8)}`;

/** A `survey sent` as posthog-js sends it: answers by question id and by index, `$survey_questions`, and its own `$set`. */
export function sentEvent(
  survey: { id: string; questions: TestQuestion[] },
  distinctId: string,
  answers: unknown[],
  extra: Record<string, unknown> = {},
): { event: string; distinct_id: string; properties: Record<string, unknown> } {
  const byId = Object.fromEntries(survey.questions.map((q, i) => [`$survey_response_${q.id}`, answers[i]]).filter(([, v]) => v !== undefined));
  const byIndex = Object.fromEntries(
    survey.questions.map((_, i) => [i === 0 ? '$survey_response' : `$survey_response_${i}`, answers[i]]).filter(([, v]) => v !== undefined),
  );
  return {
    event: 'survey sent',
    distinct_id: distinctId,
    properties: {
      $survey_id: survey.id,
      $survey_name: 'A survey',
      $survey_questions: survey.questions.map((q, i) => ({ id: q.id, question: q.question, response: answers[i] ?? null })),
      ...byId,
      ...byIndex,
      $set: { [`$survey_responded/${survey.id}`]: true },
      ...extra,
    },
  };
}
