import { randomUUID } from 'node:crypto';
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';
import { capture, eventRows, insertSurvey, personOf, question, responseRows, resultsOf, sentEvent, someone, surveyRow } from './survey-responses-helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const answersOf = (row: { answers: string }) => JSON.parse(row.answers) as Record<string, unknown>;

describe('survey events become rows', () => {
  it('stores each survey event, and one response per submission with its answers by question id, from /batch/ and /e/', async () => {
    const survey = await insertSurvey(s, {
      questions: [question('open'), question('rating', { scale: 5 }), question('multiple_choice', { choices: ['a', 'b', 'c'] })],
    });
    const alice = someone('alice');
    await capture(s, [
      { event: 'survey shown', distinct_id: alice, properties: { $survey_id: survey.id, $survey_name: 'x' } },
      sentEvent(survey, alice, ['Love it', 4, ['a', 'c']], { $survey_submission_id: 'sub-1', $survey_completed: true, '$feature/beta': 'test' }),
    ]);
    const bob = someone('bob');
    const single = await s.app.inject({
      method: 'POST',
      url: '/e/',
      payload: { api_key: s.token, ...sentEvent(survey, bob, ['Meh', 2, ['b']]) },
    });
    expect(single.statusCode, single.body).toBe(200);

    const events = await eventRows(s, survey.id);
    expect(events.map((e) => [e.kind, e.distinct_id])).toEqual([
      ['shown', alice],
      ['sent', alice],
      ['sent', bob],
    ]);
    expect(JSON.parse(events[1]!.flags!)).toEqual({ beta: 'test' });
    expect(events[1]!.submission_id).toBe('sub-1');
    expect(events.every((e) => e.person_id !== null)).toBe(true);

    const responses = await responseRows(s, survey.id);
    expect(responses).toHaveLength(2);
    const [q0, q1, q2] = survey.questions.map((q) => q.id);
    expect(answersOf(responses[0]!)).toEqual({ [q0!]: 'Love it', [q1!]: 4, [q2!]: ['a', 'c'] });
    expect(responses[0]).toMatchObject({ submission_id: 'sub-1', distinct_id: alice, completed: 1, late: 0 });
    // Without a submission id, a response is its event's alone.
    expect(responses[1]).toMatchObject({ submission_id: events[2]!.event_uuid, distinct_id: bob, completed: 1, late: 0 });
    expect(answersOf(responses[1]!)).toEqual({ [q0!]: 'Meh', [q1!]: 2, [q2!]: ['b'] });
  });

  it('merges the partial answers of one submission into one response, completed by its last event, whatever their order', async () => {
    const survey = await insertSurvey(s, { enable_partial_responses: 1, questions: [question('open'), question('open'), question('rating', { scale: 10 })] });
    const [q0, q1, q2] = survey.questions.map((q) => q.id);
    const carol = someone('carol');
    const partial = (answers: unknown[], completed: boolean, timestamp: string) => ({
      ...sentEvent(survey, carol, answers, { $survey_submission_id: 'sub-p', $survey_completed: completed }),
      timestamp,
    });
    // The second answer arrives first, then the first (earlier) one, then the last, completing.
    await capture(s, [partial(['first', 'second'], false, '2026-03-01T10:00:02.000Z')]);
    await capture(s, [partial(['first draft'], false, '2026-03-01T10:00:01.000Z')]);
    let [row] = await responseRows(s, survey.id);
    expect(row).toMatchObject({ completed: 0, first_at: '2026-03-01T10:00:01.000Z', last_at: '2026-03-01T10:00:02.000Z' });
    // An earlier event fills what is missing but does not replace a later answer.
    expect(answersOf(row!)).toEqual({ [q0!]: 'first', [q1!]: 'second' });
    expect((await resultsOf(s, survey.id)).counts).toMatchObject({ sent: 0, partial: 1 });

    await capture(s, [partial([undefined, 'second, edited', 9], true, '2026-03-01T10:00:03.000Z')]);
    const rows = await responseRows(s, survey.id);
    expect(rows).toHaveLength(1);
    [row] = rows;
    expect(row).toMatchObject({ completed: 1, last_at: '2026-03-01T10:00:03.000Z' });
    expect(answersOf(row!)).toEqual({ [q0!]: 'first', [q1!]: 'second, edited', [q2!]: 9 });
    expect((await eventRows(s, survey.id)).map((e) => e.submission_id)).toEqual(['sub-p', 'sub-p', 'sub-p']);
    expect((await resultsOf(s, survey.id)).counts).toMatchObject({ sent: 1, partial: 0 });
  });

  it('keeps the answers of a dismissed survey with answers as a partial response, and a bare dismissal as an event only', async () => {
    const survey = await insertSurvey(s, { questions: [question('open'), question('open')] });
    const dave = someone('dave');
    const { properties } = sentEvent(survey, dave, ['half done']);
    await capture(s, [
      { event: 'survey dismissed', distinct_id: dave, properties: { ...properties, $survey_submission_id: 'sub-d', $survey_partially_completed: true } },
      { event: 'survey dismissed', distinct_id: someone(), properties: { $survey_id: survey.id, $survey_partially_completed: false } },
      { event: 'survey abandoned', distinct_id: someone(), properties: { $survey_id: survey.id } },
    ]);
    const rows = await responseRows(s, survey.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ submission_id: 'sub-d', completed: 0 });
    expect(answersOf(rows[0]!)).toEqual({ [survey.questions[0]!.id]: 'half done' });
    expect((await resultsOf(s, survey.id)).counts).toEqual({ shown: 0, dismissed: 2, sent: 0, abandoned: 1, partial: 1 });
  });

  it('maps the legacy index keys and $survey_questions to question ids', async () => {
    const survey = await insertSurvey(s, { questions: [question('open'), question('single_choice', { choices: ['x', 'y'] }), question('open')] });
    const [q0, q1, q2] = survey.questions.map((q) => q.id);
    // An older SDK: answers by index only.
    await capture(s, [
      {
        event: 'survey sent',
        distinct_id: someone(),
        properties: { $survey_id: survey.id, $survey_response: 'zero', $survey_response_1: 'y', $survey_response_2: 'two' },
      },
    ]);
    // Only $survey_questions.
    await capture(s, [
      {
        event: 'survey sent',
        distinct_id: someone(),
        properties: {
          $survey_id: survey.id,
          $survey_questions: [
            { id: q1, question: 'Which?', response: 'x' },
            { id: q2, response: null },
          ],
        },
      },
    ]);
    // An answer by id wins over the same question's by index.
    await capture(s, [
      {
        event: 'survey sent',
        distinct_id: someone(),
        properties: { $survey_id: survey.id, [`$survey_response_${q0}`]: 'by id', $survey_response: 'by index' },
      },
    ]);
    const rows = await responseRows(s, survey.id);
    expect(rows.map(answersOf)).toEqual([{ [q0!]: 'zero', [q1!]: 'y', [q2!]: 'two' }, { [q1!]: 'x' }, { [q0!]: 'by id' }]);
  });
});

describe('person properties set at the door', () => {
  it('sets $survey_responded/<id> for a completed response and $survey_dismissed/<id> for a dismissal when the event did not', async () => {
    const survey = await insertSurvey(s);
    const [erin, frank, gina] = [someone('erin'), someone('frank'), someone('gina')];
    await capture(s, [
      // As a client that sets nothing itself (service-node's capture, an older SDK).
      { event: 'survey sent', distinct_id: erin, properties: { $survey_id: survey.id, $survey_response: 'hi' } },
      { event: 'survey dismissed', distinct_id: frank, properties: { $survey_id: survey.id } },
      // A partial response is no response yet.
      { event: 'survey sent', distinct_id: gina, properties: { $survey_id: survey.id, $survey_response: 'hi', $survey_completed: false } },
    ]);
    expect((await personOf(s, erin))!.properties).toMatchObject({ [`$survey_responded/${survey.id}`]: true });
    expect((await personOf(s, erin))!.properties).not.toHaveProperty(`$survey_dismissed/${survey.id}`);
    expect((await personOf(s, frank))!.properties).toMatchObject({ [`$survey_dismissed/${survey.id}`]: true });
    expect((await personOf(s, gina))!.properties).not.toHaveProperty(`$survey_responded/${survey.id}`);
  });

  it('adds the iteration past the first, and leaves a value the event sets itself', async () => {
    const survey = await insertSurvey(s, { schedule: 'recurring', current_iteration: 2 });
    const [hal, ida, jon] = [someone('hal'), someone('ida'), someone('jon')];
    await capture(s, [
      { event: 'survey sent', distinct_id: hal, properties: { $survey_id: survey.id, $survey_iteration: 2, $survey_response: 'a' } },
      { event: 'survey dismissed', distinct_id: ida, $set: { plan: 'pro' }, properties: { $survey_id: survey.id, $survey_iteration: '3' } },
      {
        event: 'survey sent',
        distinct_id: jon,
        properties: { $survey_id: survey.id, $survey_iteration: 0, $set: { [`$survey_responded/${survey.id}`]: 'own' } },
      },
    ]);
    const hals = (await personOf(s, hal))!.properties;
    expect(hals).toMatchObject({ [`$survey_responded/${survey.id}/2`]: true });
    expect(hals).not.toHaveProperty(`$survey_responded/${survey.id}`);
    expect((await personOf(s, ida))!.properties).toMatchObject({ plan: 'pro', [`$survey_dismissed/${survey.id}/3`]: true });
    expect((await personOf(s, jon))!.properties).toMatchObject({ [`$survey_responded/${survey.id}`]: 'own' });
    const [, , jons] = await eventRows(s, survey.id);
    expect(jons!.iteration).toBe(0);
  });
});

describe('server-side event conditions', () => {
  const serverSide = (name: string, propertyFilters?: Record<string, unknown>) => ({
    events: { repeatedActivation: false, values: [{ name, server_side: true, ...(propertyFilters ? { propertyFilters } : {}) }, { name: 'page seen' }] },
  });
  /** An event as service-node sends it: distinct id at the top level, no `$set` of its own. */
  const nodeEvent = (event: string, distinctId: string, properties: Record<string, unknown> = {}) => ({
    event,
    distinct_id: distinctId,
    properties: { $lib: 'posthog-node', ...properties },
    uuid: randomUUID(),
  });

  it('sets $survey_triggered/<id> on the person of an event a running survey names server-side, when its property filters match', async () => {
    const event = `plan upgraded ${randomUUID().slice(0, 6)}`;
    const survey = await insertSurvey(s, { conditions: serverSide(event, { plan: { values: ['pro', 'team'], operator: 'exact' } }) });
    const [kim, lee, max, ned] = [someone('kim'), someone('lee'), someone('max'), someone('ned')];
    const kimsEvent = nodeEvent(event, kim, { plan: 'pro' });
    await capture(s, [kimsEvent, nodeEvent(event, lee, { plan: 'free' }), nodeEvent(event, max), nodeEvent('page seen', ned, { plan: 'pro' })]);
    const key = `$survey_triggered/${survey.id}`;
    expect((await personOf(s, kim))!.properties).toMatchObject({ [key]: true });
    for (const other of [lee, max, ned]) expect((await personOf(s, other))?.properties ?? {}).not.toHaveProperty(key);
    // The stored event says what it set, as any `$set` is.
    const stored = await s.app.inject({ url: `/api/projects/${s.projectId}/events/?distinct_id=${kim}`, headers: s.headers });
    expect(stored.json().results[0].properties.$set).toEqual({ [key]: true });
  });

  it('takes the event from a server SDK over HTTP (posthog-node, whose wire service-node shares)', async () => {
    const event = `invoice paid ${randomUUID().slice(0, 6)}`;
    const survey = await insertSurvey(s, { conditions: serverSide(event, { amount: { values: ['100'], operator: 'gt' } }) });
    const host = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new PostHog(s.token, { host, flushAt: 1, flushInterval: 0 });
    const [sam, tess] = [someone('sam'), someone('tess')];
    client.capture({ distinctId: sam, event, properties: { amount: 250 } });
    client.capture({ distinctId: tess, event, properties: { amount: 20 } });
    await client.shutdown();
    expect((await personOf(s, sam))!.properties).toMatchObject({ [`$survey_triggered/${survey.id}`]: true });
    expect((await personOf(s, tess))!.properties).not.toHaveProperty(`$survey_triggered/${survey.id}`);
  });

  it('follows the survey: the iteration suffix, a survey launched or stopped after the first read, other operators', async () => {
    const event = `report exported ${randomUUID().slice(0, 6)}`;
    const first = someone('first');
    // Read once with no survey naming the event: nothing set, and what was read is kept.
    await capture(s, [nodeEvent(event, first)]);
    expect((await personOf(s, first))!.properties).toEqual({});

    const survey = await insertSurvey(s, { current_iteration: 2, conditions: serverSide(event, { format: { values: ['^pdf|csv$'], operator: 'regex' } }) });
    const [olga, pete] = [someone('olga'), someone('pete')];
    await capture(s, [nodeEvent(event, olga, { format: 'pdf' }), nodeEvent(event, pete, { format: 'xlsx' })]);
    expect((await personOf(s, olga))!.properties).toEqual({ [`$survey_triggered/${survey.id}/2`]: true });
    expect((await personOf(s, pete))!.properties).toEqual({});

    await s.services.db.kysely.updateTable('surveys').set({ end_date: new Date().toISOString() }).where('id', '=', survey.id).execute();
    s.services.changes.flagsChanged(s.projectId);
    const quin = someone('quin');
    await capture(s, [nodeEvent(event, quin, { format: 'pdf' })]);
    expect((await personOf(s, quin))!.properties).toEqual({});
  });

  it('leaves draft, archived and group events alone, and a malformed condition never fails capture', async () => {
    const event = `team created ${randomUUID().slice(0, 6)}`;
    await insertSurvey(s, { start_date: null, conditions: serverSide(event) });
    await insertSurvey(s, { archived: 1, conditions: serverSide(event) });
    await insertSurvey(s, {
      conditions: { events: { values: [{ name: event, server_side: true, propertyFilters: { x: { values: 'nope', operator: 'exact' } } }, 7, null] } },
    });
    await insertSurvey(s, {
      conditions: { events: { values: [{ name: event, server_side: true, propertyFilters: { x: { values: ['('], operator: 'regex' } } }] } },
    });
    const rita = someone('rita');
    await capture(s, [nodeEvent(event, rita, { x: 'nope' }), { event, distinct_id: rita, properties: { $group_type: 'company', $group_key: 'acme' } }]);
    expect((await personOf(s, rita))!.properties).toEqual({});
  });
});

describe('responses_limit', () => {
  it('stops the survey once its completed responses reach the limit; responses after it are late, and announced changes stop its trigger', async () => {
    const event = `trial ended ${randomUUID().slice(0, 6)}`;
    const survey = await insertSurvey(s, {
      responses_limit: 3,
      conditions: { events: { values: [{ name: event, server_side: true }] } },
    });
    await capture(s, [
      sentEvent(survey, someone(), ['one']),
      { ...sentEvent(survey, someone(), ['partial']), properties: { ...sentEvent(survey, 'x', ['p']).properties, $survey_completed: false } },
    ]);
    expect((await surveyRow(s, survey.id)).end_date).toBeNull();
    // The limit is reached inside one batch: the response past it is late.
    await capture(s, [sentEvent(survey, someone(), ['two']), sentEvent(survey, someone(), ['three']), sentEvent(survey, someone(), ['four'])]);
    const ended = await surveyRow(s, survey.id);
    expect(ended.end_date).not.toBeNull();
    expect(ended.end_date! <= new Date().toISOString()).toBe(true);
    await capture(s, [sentEvent(survey, someone(), ['five'])]);
    const rows = await responseRows(s, survey.id);
    expect(rows.map((r) => [answersOf(r)[survey.questions[0]!.id], r.completed, r.late])).toEqual([
      ['one', 1, 0],
      ['p', 0, 0],
      ['two', 1, 0],
      ['three', 1, 0],
      ['four', 1, 1],
      ['five', 1, 1],
    ]);
    expect((await surveyRow(s, survey.id)).end_date).toBe(ended.end_date);
    const results = await resultsOf(s, survey.id);
    expect(results.counts.sent).toBe(5);
    expect(results.late_responses).toBe(2);
    // The stop was announced: the trigger cache dropped the survey.
    const late = someone('late');
    await capture(s, [{ event, distinct_id: late }]);
    expect((await personOf(s, late))!.properties).toEqual({});
  });
});

describe('bad input', () => {
  it('stores responses to an unknown survey and to an ended one as late, and shows them in results', async () => {
    const unknown = randomUUID();
    await capture(s, [
      { event: 'survey shown', distinct_id: someone(), properties: { $survey_id: unknown } },
      { event: 'survey sent', distinct_id: someone(), properties: { $survey_id: unknown, $survey_response: 'hello?', '$survey_response_some-id': 'x' } },
    ]);
    const [row] = await responseRows(s, unknown);
    expect(row).toMatchObject({ late: 1, completed: 1 });
    expect(answersOf(row!)).toEqual({ 'index:0': 'hello?', 'some-id': 'x' });
    const results = await resultsOf(s, unknown);
    expect(results).toMatchObject({ survey_id: unknown, counts: { shown: 1, sent: 1 }, late_responses: 1, questions: [] });

    const ended = await insertSurvey(s, { end_date: new Date(Date.now() - 60_000).toISOString() });
    const draft = await insertSurvey(s, { start_date: null });
    await capture(s, [sentEvent(ended, someone(), ['too late']), sentEvent(draft, someone(), ['too early'])]);
    expect((await responseRows(s, ended.id)).map((r) => r.late)).toEqual([1]);
    expect((await responseRows(s, draft.id)).map((r) => r.late)).toEqual([1]);
    expect((await resultsOf(s, ended.id)).late_responses).toBe(1);
  });

  it('cuts a 10,000-character answer at 5,000 characters', async () => {
    const survey = await insertSurvey(s, { questions: [question('open'), question('multiple_choice', { choices: ['a'] })] });
    const long = `${'é'.repeat(9_999)}!`;
    await capture(s, [sentEvent(survey, someone(), [long, ['a', 'b'.repeat(10_000)]])]);
    const [row] = await responseRows(s, survey.id);
    const answers = answersOf(row!);
    expect(answers[survey.questions[0]!.id]).toBe('é'.repeat(5_000));
    expect(answers[survey.questions[1]!.id]).toEqual(['a', 'b'.repeat(5_000)]);
    const results = await resultsOf(s, survey.id);
    expect(results.questions[0].answers.results[0].value).toHaveLength(5_000);
  });

  it('never fails on garbage in survey properties: numbers, objects and lists where texts are expected', async () => {
    const survey = await insertSurvey(s, {
      questions: [
        question('open'),
        question('rating', { scale: 5 }),
        question('single_choice', { choices: ['a'] }),
        question('multiple_choice', { choices: ['a'] }),
      ],
    });
    const [q0, q1, q2, q3] = survey.questions.map((q) => q.id);
    const garbage = [
      { $survey_id: { nested: true } },
      { $survey_id: ['list'] },
      { $survey_id: '' },
      { $survey_id: survey.id, $survey_submission_id: { x: 1 }, $survey_iteration: 'many', $survey_completed: 'maybe', $survey_questions: 'not a list' },
      { $survey_id: survey.id, [`$survey_response_${q0}`]: { object: 1 }, [`$survey_response_${q1}`]: 'five', [`$survey_response_${q2}`]: ['a', 'b'] },
      { $survey_id: survey.id, [`$survey_response_${q0}`]: 42, [`$survey_response_${q1}`]: '4', [`$survey_response_${q3}`]: 'a' },
      { $survey_id: survey.id, [`$survey_response_${q3}`]: [{ x: 1 }, null, 3, ['deep']], $survey_questions: [null, 1, { id: 7 }, { id: q0, response: [1] }] },
      { $survey_id: 12345, $survey_response: Number.MAX_VALUE, '$feature/x': { y: 1 }, '$feature/y': 3, $survey_submission_id: 99 },
      { $survey_id: survey.id, $survey_response: 'x\u0000y\ud800', [`$survey_response_${'k'.repeat(500)}`]: 'long key' },
    ];
    for (const kind of ['survey sent', 'survey dismissed', 'survey shown', 'survey abandoned']) {
      await capture(
        s,
        garbage.map((properties) => ({ event: kind, distinct_id: someone(), properties })),
      );
    }
    const rows = await responseRows(s, survey.id);
    const answers = rows.map(answersOf);
    expect(answers).toContainEqual({ [q1!]: 'five', [q2!]: 'a' });
    expect(answers).toContainEqual({ [q0!]: '42', [q1!]: 4, [q3!]: ['a'] });
    expect(answers).toContainEqual({ [q3!]: ['3'], [q0!]: '1' });
    expect(answers).toContainEqual({ [q0!]: 'x\ufffdy\ufffd', ['k'.repeat(200)]: 'long key' });
    const numbered = await responseRows(s, '12345');
    expect(numbered.map((r) => [r.submission_id, r.flags])).toContainEqual(['99', null]);
    // Sent, dismissed and abandoned events with answers make responses; shown ones do not.
    const results = await resultsOf(s, survey.id);
    expect(results.questions[1].ratings).toContainEqual({ value: 4, count: 3 });
    for (const id of ['12345', survey.id]) expect((await resultsOf(s, id)).counts.shown).toBeGreaterThan(0);
  });
});
