import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';
import { capture, insertSurvey, personOf, question, resultsOf, sentEvent, someone } from './survey-responses-helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const shown = (surveyId: string, distinctId: string, extra: Record<string, unknown> = {}) => ({
  event: 'survey shown',
  distinct_id: distinctId,
  properties: { $survey_id: surveyId, ...extra },
});
const at = (event: Record<string, unknown>, timestamp: string) => ({ ...event, timestamp });

describe('survey results', () => {
  it('counts events, completed and partial responses, the people reached, per day', async () => {
    const survey = await insertSurvey(s, { questions: [question('open')] });
    const people = [someone(), someone(), someone(), someone()];
    await capture(s, [
      ...people.map((p) => at(shown(survey.id, p), '2026-02-01T09:00:00.000Z')),
      // Shown twice to the same person: one person reached.
      at(shown(survey.id, people[0]!), '2026-02-03T09:00:00.000Z'),
      at(sentEvent(survey, people[0]!, ['yes']), '2026-02-01T09:01:00.000Z'),
      at(sentEvent(survey, people[1]!, ['yes']), '2026-02-03T10:00:00.000Z'),
      at(
        { ...sentEvent(survey, people[2]!, ['so far']), properties: { ...sentEvent(survey, 'x', ['so far']).properties, $survey_completed: false } },
        '2026-02-03T10:00:00.000Z',
      ),
      at({ event: 'survey dismissed', distinct_id: people[3]!, properties: { $survey_id: survey.id } }, '2026-02-03T11:00:00.000Z'),
      at({ event: 'survey abandoned', distinct_id: people[2]!, properties: { $survey_id: survey.id } }, '2026-02-03T11:00:00.000Z'),
      // Someone who answered without being shown (an `api` survey drawn by the app) is no one reached.
      at(sentEvent(survey, someone(), ['unseen']), '2026-02-03T12:00:00.000Z'),
    ]);
    const results = await resultsOf(s, survey.id);
    expect(results.counts).toEqual({ shown: 5, dismissed: 1, sent: 3, abandoned: 1, partial: 1 });
    expect(results.response_rate).toBe(0.5);
    expect(results.late_responses).toBe(0);
    expect(results.by_day).toEqual([
      { day: '2026-02-01', shown: 4, dismissed: 0, sent: 1, abandoned: 0 },
      { day: '2026-02-02', shown: 0, dismissed: 0, sent: 0, abandoned: 0 },
      { day: '2026-02-03', shown: 1, dismissed: 1, sent: 2, abandoned: 1 },
    ]);
    expect(results.questions[0]).toMatchObject({ id: survey.questions[0]!.id, index: 0, type: 'open', responses: 4 });

    const empty = await insertSurvey(s);
    expect(await resultsOf(s, empty.id)).toMatchObject({
      counts: { shown: 0, dismissed: 0, sent: 0, abandoned: 0, partial: 0 },
      response_rate: null,
      by_day: [],
      questions: [{ responses: 0, answers: { results: [], count: 0, next_offset: null } }],
    });
  });

  it('counts each choice (zeros too), multiple choice items one by one, and open choice texts under their text', async () => {
    const survey = await insertSurvey(s, {
      questions: [
        question('single_choice', { choices: ['Red', 'Green', 'Blue'] }),
        question('multiple_choice', { choices: ['A', 'B', 'C', 'Other'], hasOpenChoice: true }),
      ],
    });
    const answers: unknown[][] = [
      ['Red', ['A', 'B']],
      ['Red', ['B', 'my own']],
      ['Blue', ['my own']],
      ['Red', ['another one', 'A']],
    ];
    const people = answers.map(() => someone());
    await capture(
      s,
      answers.map((a, i) => at(sentEvent(survey, people[i]!, a), `2026-02-0${i + 1}T10:00:00.000Z`)),
    );
    const [single, multiple] = (await resultsOf(s, survey.id)).questions;
    expect(single).toMatchObject({ type: 'single_choice', responses: 4 });
    expect(single.choices).toEqual([
      { value: 'Red', count: 3 },
      { value: 'Green', count: 0 },
      { value: 'Blue', count: 1 },
    ]);
    expect(single).not.toHaveProperty('answers');
    expect(multiple.responses).toBe(4);
    expect(multiple.choices).toEqual([
      { value: 'A', count: 2 },
      { value: 'B', count: 2 },
      { value: 'C', count: 0 },
      { value: 'Other', count: 0 },
      { value: 'my own', count: 2 },
      { value: 'another one', count: 1 },
    ]);
    // The answers holding a text of their own, newest first, with their person.
    expect(multiple.answers.count).toBe(3);
    expect(multiple.answers.results.map((a: { value: unknown; distinct_id: string }) => [a.value, a.distinct_id])).toEqual([
      [['another one', 'A'], people[3]],
      [['my own'], people[2]],
      [['B', 'my own'], people[1]],
    ]);
  });

  it('gives the whole rating scale, and NPS on 0–10', async () => {
    const survey = await insertSurvey(s, { questions: [question('rating', { scale: 5, display: 'emoji' }), question('rating', { scale: 10 })] });
    const ratings = [
      [5, 10],
      [5, 9],
      [4, 8],
      [1, 7],
      [undefined, 6],
      [undefined, 0],
      [undefined, 10],
    ];
    await capture(
      s,
      ratings.map((r) => sentEvent(survey, someone(), r)),
    );
    const [five, ten] = (await resultsOf(s, survey.id)).questions;
    expect(five.ratings).toEqual([
      { value: 1, count: 1 },
      { value: 2, count: 0 },
      { value: 3, count: 0 },
      { value: 4, count: 1 },
      { value: 5, count: 2 },
    ]);
    expect(five).not.toHaveProperty('nps');
    expect(five.responses).toBe(4);
    expect(ten.ratings.map((r: { value: number }) => r.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ten.ratings.filter((r: { count: number }) => r.count)).toEqual([
      { value: 0, count: 1 },
      { value: 6, count: 1 },
      { value: 7, count: 1 },
      { value: 8, count: 1 },
      { value: 9, count: 1 },
      { value: 10, count: 2 },
    ]);
    // 3 promoters, 2 passives, 2 detractors of 7: (3 − 2) / 7 = 14.3 %.
    expect(ten.nps).toEqual({ promoters: 3, passives: 2, detractors: 2, score: 14.3 });
  });

  it('pages open answers newest first with the person, one question at a time when asked', async () => {
    const survey = await insertSurvey(s, { questions: [question('open'), question('open')] });
    const person = someone('pager');
    await capture(s, [{ event: '$identify', distinct_id: person, properties: { $set: { email: 'p@example.com' } } }]);
    await capture(
      s,
      Array.from({ length: 25 }, (_, i) => at(sentEvent(survey, person, [`answer ${i}`, `second ${i}`]), new Date(Date.UTC(2026, 1, 1, 0, i)).toISOString())),
    );
    const uuid = (await personOf(s, person))!.id;
    let results = await resultsOf(s, survey.id, '?answers_limit=10');
    let page = results.questions[0].answers;
    expect(page.count).toBe(25);
    expect(page.next_offset).toBe(10);
    expect(page.results).toHaveLength(10);
    expect(page.results[0]).toMatchObject({ value: 'answer 24', distinct_id: person, person_id: uuid, timestamp: '2026-02-01T00:24:00.000Z' });
    expect(typeof page.results[0].submission_id).toBe('string');
    results = await resultsOf(s, survey.id, `?answers_limit=10&answers_offset=20&answers_question=${survey.questions[0]!.id}`);
    page = results.questions[0].answers;
    expect(page.results.map((a: { value: string }) => a.value)).toEqual(['answer 4', 'answer 3', 'answer 2', 'answer 1', 'answer 0']);
    expect(page.next_offset).toBeNull();
    // The other question lists its first page.
    expect(results.questions[1].answers.results[0].value).toBe('second 24');
    expect(results.questions[1].answers.next_offset).toBe(10);
    // Without a question named, the offset pages every question.
    results = await resultsOf(s, survey.id, '?answers_limit=10&answers_offset=10');
    expect(results.questions.map((q: { answers: { results: { value: string }[] } }) => q.answers.results[0]!.value)).toEqual(['answer 14', 'second 14']);
    expect((await resultsOf(s, survey.id, '?answers_offset=1000')).questions[0].answers).toEqual({ results: [], count: 25, next_offset: null });
  });

  it('filters by time, by a current person property, and by a flag variant', async () => {
    const survey = await insertSurvey(s, { questions: [question('single_choice', { choices: ['yes', 'no'] })] });
    const [pro, free, unknown] = [someone('pro'), someone('free'), someone('nobody')];
    await capture(s, [
      { event: '$identify', distinct_id: pro, properties: { $set: { plan: 'pro', seats: 3 } } },
      { event: '$identify', distinct_id: free, properties: { $set: { plan: 'free' } } },
    ]);
    await capture(s, [
      at(shown(survey.id, pro, { '$feature/new-ui': 'test' }), '2026-01-10T08:00:00.000Z'),
      at(sentEvent(survey, pro, ['yes'], { '$feature/new-ui': 'test' }), '2026-01-10T08:01:00.000Z'),
      at(shown(survey.id, free, { '$feature/new-ui': 'control' }), '2026-01-12T08:00:00.000Z'),
      at(sentEvent(survey, free, ['no'], { '$feature/new-ui': 'control', '$feature/beta': true }), '2026-01-12T08:01:00.000Z'),
      at(sentEvent(survey, unknown, ['no']), '2026-01-15T08:01:00.000Z'),
    ]);
    const choices = async (query: string) => {
      const results = await resultsOf(s, survey.id, query);
      return [results.counts.shown, results.counts.sent, results.questions[0].choices.map((c: { count: number }) => c.count)];
    };
    expect(await choices('')).toEqual([2, 3, [1, 2]]);
    expect(await choices('?date_from=2026-01-11')).toEqual([1, 2, [0, 2]]);
    expect(await choices('?date_to=2026-01-12')).toEqual([2, 2, [1, 1]]);
    expect(await choices('?date_from=2026-01-10T08:00:30Z&date_to=2026-01-12T08:00:30Z')).toEqual([1, 1, [1, 0]]);
    expect(await choices('?property_key=plan&property_value=pro')).toEqual([1, 1, [1, 0]]);
    // Compared as text: the number 3 is "3".
    expect(await choices('?property_key=seats&property_value=3')).toEqual([1, 1, [1, 0]]);
    // The person's current properties count: a change applies to their earlier responses.
    await capture(s, [{ event: 'x', distinct_id: free, properties: { $set: { plan: 'pro' } } }]);
    expect(await choices('?property_key=plan&property_value=pro')).toEqual([2, 2, [1, 1]]);
    expect(await choices('?variant_flag=new-ui&variant=control')).toEqual([1, 1, [0, 1]]);
    expect(await choices('?variant_flag=beta&variant=true')).toEqual([0, 1, [0, 1]]);
    expect(await choices('?variant_flag=new-ui&variant=nope')).toEqual([0, 0, [0, 0]]);
    const filtered = await resultsOf(s, survey.id, '?variant_flag=new-ui&variant=test');
    expect(filtered.response_rate).toBe(1);
    expect(filtered.by_day).toEqual([{ day: '2026-01-10', shown: 1, dismissed: 0, sent: 1, abandoned: 0 }]);
  });

  it('answers 404 for a survey nothing names, 400 naming the parameter for a bad query, 403 without survey:read', async () => {
    const survey = await insertSurvey(s);
    const get = (id: string, query = '', headers: Record<string, string> = s.headers) =>
      s.app.inject({ url: `/api/projects/${s.projectId}/surveys/${id}/results/${query}`, headers });
    expect((await get(randomUUID())).statusCode).toBe(404);
    expect((await get('x%00y')).json()).toMatchObject({ type: 'invalid_request', code: 'not_found' });
    for (const [query, attr] of [
      ['?date_from=yesterday', 'date_from'],
      ['?date_to=2026-02-30', 'date_to'],
      ['?date_from=2026-02-02&date_to=2026-02-01', 'date_from'],
      ['?property_key=plan', 'property_value'],
      ['?variant=test', 'variant_flag'],
      ['?answers_limit=0', 'answers_limit'],
      ['?answers_limit=101', 'answers_limit'],
      ['?answers_offset=-1', 'answers_offset'],
    ] as const) {
      const res = await get(survey.id, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ type: 'validation_error', attr });
    }
    expect((await get(survey.id, '?date_from=-7d&date_to=-1h')).statusCode).toBe(200);
    const reader = await s.keyWith(['survey:read']);
    expect((await get(survey.id, '', s.auth(reader))).statusCode).toBe(200);
    const other = await s.keyWith(['feature_flag:read']);
    expect((await get(survey.id, '', s.auth(other))).statusCode).toBe(403);
    expect((await get(survey.id, '', {})).statusCode).toBe(401);
  });
});
