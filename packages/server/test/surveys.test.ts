import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWith } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// Survey definitions: CRUD in the shape posthog-js reads, launch and stop, the status, the activity log, and every
// kind of bad input answered 400 naming the field.

let s: TestService;
let base: string;
beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/surveys`;
});
afterAll(() => s.close());

type Headers = Record<string, string>;
type Body = Record<string, unknown>;
const create = (body: Body, headers: Headers = s.headers) => s.app.inject({ method: 'POST', url: `${base}/`, headers, payload: body });
const patch = (id: string, body: Body, headers: Headers = s.headers) => s.app.inject({ method: 'PATCH', url: `${base}/${id}/`, headers, payload: body });
const get = (id: string, headers: Headers = s.headers) => s.app.inject({ url: `${base}/${id}/`, headers });
const action = (id: string, name: 'launch' | 'stop', headers: Headers = s.headers) => s.app.inject({ method: 'POST', url: `${base}/${id}/${name}/`, headers });

const OPEN = { type: 'open', question: 'What should we build next?' };
const NPS = {
  type: 'rating',
  question: 'How likely are you to recommend us?',
  display: 'number',
  scale: 10,
  lowerBoundLabel: 'Unlikely',
  upperBoundLabel: 'Very likely',
};
const CHOICE = { type: 'single_choice', question: 'Which plan?', choices: ['Free', 'Pro', 'Other'], hasOpenChoice: true };

let n = 0;
async function created(body: Body = {}) {
  const res = await create({ name: `Survey ${++n}`, questions: [OPEN], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('CRUD', () => {
  it('creates a draft survey with every field, server-made question ids and its two flags; reads, updates and archives it', async () => {
    const res = await create({
      name: 'Beta feedback',
      description: 'What beta users think',
      type: 'popover',
      questions: [OPEN, NPS, CHOICE, { type: 'link', question: 'Read the docs', link: 'https://docs.example.com/' }],
      appearance: { backgroundColor: '#ffffff', position: 'right' },
      conditions: {
        url: '/app',
        urlMatchType: 'icontains',
        seenSurveyWaitPeriodInDays: 14,
        events: { repeatedActivation: false, values: [{ name: 'checkout' }] },
      },
      responses_limit: 100,
      enable_partial_responses: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const survey = res.json();
    expect(Object.keys(survey).sort()).toEqual(
      [
        'id',
        'name',
        'description',
        'type',
        'questions',
        'appearance',
        'conditions',
        'linked_flag_key',
        'targeting_flag_key',
        'internal_targeting_flag_key',
        'targeting_flag_filters',
        'targeting_flag',
        'internal_targeting_flag',
        'linked_early_access_feature_id',
        'start_date',
        'end_date',
        'responses_limit',
        'schedule',
        'iteration_count',
        'iteration_frequency_days',
        'current_iteration',
        'current_iteration_start_date',
        'enable_partial_responses',
        'archived',
        'status',
        'created_at',
        'updated_at',
        'created_by',
      ].sort(),
    );
    expect(survey).toMatchObject({
      name: 'Beta feedback',
      type: 'popover',
      status: 'draft',
      schedule: 'once',
      start_date: null,
      end_date: null,
      responses_limit: 100,
      enable_partial_responses: true,
      archived: false,
      targeting_flag_filters: null,
      current_iteration: null,
      appearance: { backgroundColor: '#ffffff', position: 'right' },
    });
    expect(survey.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(survey.targeting_flag_key).toMatch(/^survey-targeting-[0-9a-f]{10}$/);
    expect(survey.internal_targeting_flag_key).toBe(`${survey.targeting_flag_key}-custom`);
    expect(survey.questions).toHaveLength(4);
    for (const q of survey.questions) expect(q.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(survey.questions.map((q: { id: string }) => q.id)).size).toBe(4);
    expect(survey.questions[0]).toEqual({ ...OPEN, id: survey.questions[0].id, description: '', descriptionContentType: 'text', optional: false });
    expect(survey.questions[1]).toMatchObject({ ...NPS, id: survey.questions[1].id });
    expect(survey.questions[2]).toMatchObject({ ...CHOICE, shuffleOptions: false });

    expect((await get(survey.id)).json()).toEqual(survey);

    // Ids sent back are kept; a question without one gets a new one.
    const kept = survey.questions.slice(0, 2);
    const edited = await patch(survey.id, { name: 'Beta feedback 2', questions: [...kept, { type: 'open', question: 'Anything else?' }] });
    expect(edited.statusCode, edited.body).toBe(200);
    const questions = edited.json().questions;
    expect(questions.slice(0, 2).map((q: { id: string }) => q.id)).toEqual(kept.map((q: { id: string }) => q.id));
    expect(questions[2].id).not.toBe(survey.questions[2].id);
    expect(edited.json().name).toBe('Beta feedback 2');

    const removed = await s.app.inject({ method: 'DELETE', url: `${base}/${survey.id}/`, headers: s.headers });
    expect(removed.statusCode).toBe(204);
    const archived = (await get(survey.id)).json();
    expect(archived.archived).toBe(true);
    expect(archived.targeting_flag.active).toBe(false);
    const list = (await s.app.inject({ url: `${base}/`, headers: s.headers })).json();
    expect(list.results.map((r: { id: string }) => r.id)).not.toContain(survey.id);
    const archivedList = (await s.app.inject({ url: `${base}/?archived=true`, headers: s.headers })).json();
    expect(archivedList.results.map((r: { id: string }) => r.id)).toEqual([survey.id]);
    // Restored: back in the list, a draft again, whose flags stay off until it is launched.
    const restored = await patch(survey.id, { archived: false });
    expect(restored.json()).toMatchObject({ archived: false, status: 'draft', targeting_flag: { active: false }, internal_targeting_flag: { active: false } });
    const launched = await s.app.inject({ method: 'POST', url: `${base}/${survey.id}/launch/`, headers: s.headers });
    expect(launched.json()).toMatchObject({ status: 'running', targeting_flag: { active: true }, internal_targeting_flag: { active: true } });
  });

  it('lists surveys newest first, pages them, finds them by name and by status', async () => {
    const marker = `Findme ${Date.now()}`;
    const a = await created({ name: `${marker} A` });
    const b = await created({ name: `${marker} B` });
    const c = await created({ name: `${marker} C` });
    expect((await action(b.id, 'launch')).statusCode).toBe(200);
    expect((await action(c.id, 'launch')).statusCode).toBe(200);
    expect((await action(c.id, 'stop')).statusCode).toBe(200);
    const search = encodeURIComponent(marker.toLowerCase());
    const page = (await s.app.inject({ url: `${base}/?search=${search}&limit=2`, headers: s.headers })).json();
    expect(page.count).toBe(3);
    expect(page.results.map((r: { id: string }) => r.id)).toEqual([c.id, b.id]);
    expect(page.next).toContain('offset=2');
    const ids = async (status: string) =>
      (await s.app.inject({ url: `${base}/?search=${search}&status=${status}`, headers: s.headers })).json().results.map((r: { id: string }) => r.id);
    expect(await ids('draft')).toEqual([a.id]);
    expect(await ids('running')).toEqual([b.id]);
    expect(await ids('stopped')).toEqual([c.id]);
    expect((await s.app.inject({ url: `${base}/?status=finished`, headers: s.headers })).json()).toMatchObject({ attr: 'status', code: 'invalid_choice' });
  });

  it('launches (start now), stops (end now), resumes; refuses what the status does not allow with 409', async () => {
    const survey = await created();
    const stopDraft = await action(survey.id, 'stop');
    expect(stopDraft.statusCode).toBe(409);
    expect(stopDraft.json()).toMatchObject({ code: 'conflict', attr: 'status', detail: 'Only a running survey can be stopped; this one is draft.' });
    const before = Date.now();
    const launched = (await action(survey.id, 'launch')).json();
    expect(launched.status).toBe('running');
    expect(Date.parse(launched.start_date)).toBeGreaterThanOrEqual(before - 1);
    expect((await action(survey.id, 'launch')).statusCode).toBe(409);
    const stopped = (await action(survey.id, 'stop')).json();
    expect(stopped.status).toBe('stopped');
    expect(stopped.end_date).not.toBeNull();
    const resumed = (await action(survey.id, 'launch')).json();
    expect(resumed).toMatchObject({ status: 'running', end_date: null, start_date: launched.start_date });
    expect((await s.app.inject({ method: 'DELETE', url: `${base}/${survey.id}/`, headers: s.headers })).statusCode).toBe(204);
    expect((await action(survey.id, 'launch')).json()).toMatchObject({ code: 'conflict', attr: 'archived' });
  });

  it('is a draft with a start to come and stopped once its end has passed', async () => {
    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect((await created({ start_date: later })).status).toBe('draft');
    const past = new Date(Date.now() - 86_400_000).toISOString();
    expect((await created({ start_date: past })).status).toBe('running');
    expect((await created({ start_date: past, end_date: new Date(Date.now() - 1000).toISOString() })).status).toBe('stopped');
  });

  it('answers 404 for a survey of another project, an unknown id or one that is no uuid', async () => {
    const survey = await created();
    const other = await s.services.projects.create('Other');
    for (const url of [`/api/projects/${other.id}/surveys/${survey.id}/`, `${base}/00000000-0000-4000-8000-000000000000/`, `${base}/nope/`]) {
      const res = await s.app.inject({ url, headers: s.headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    }
  });

  it('links a flag and an early access feature, which must exist in the project', async () => {
    const flag = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: { key: 'beta-linked' },
    });
    const feature = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: s.headers,
      payload: { name: 'Linked beta', stage: 'beta' },
    });
    expect([flag.statusCode, feature.statusCode]).toEqual([201, 201]);
    const survey = await created({ linked_flag_key: 'beta-linked', linked_early_access_feature_id: feature.json().id });
    expect(survey).toMatchObject({ linked_flag_key: 'beta-linked', linked_early_access_feature_id: feature.json().id });
    // Unlinked with null, as the web app does.
    const unlinked = await s.app.inject({
      method: 'PATCH',
      url: `/api/projects/${s.projectId}/surveys/${survey.id}/`,
      headers: s.headers,
      payload: { linked_flag_key: null, linked_early_access_feature_id: null },
    });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(unlinked.json()).toMatchObject({ linked_flag_key: null, linked_early_access_feature_id: null });
    expect((await create({ name: 'x', questions: [OPEN], linked_flag_key: 'nope' })).json()).toMatchObject({
      attr: 'linked_flag_key',
      code: 'does_not_exist',
    });
    expect((await create({ name: 'x', questions: [OPEN], linked_flag_key: survey.targeting_flag_key })).json()).toMatchObject({ attr: 'linked_flag_key' });
    expect((await create({ name: 'x', questions: [OPEN], linked_early_access_feature_id: '00000000-0000-4000-8000-000000000000' })).json()).toMatchObject({
      attr: 'linked_early_access_feature_id',
      code: 'does_not_exist',
    });
  });
});

describe('scopes and the activity log', () => {
  it('reads with survey:read, writes with survey:write; a viewer reads, a member writes', async () => {
    const reader = s.auth(await s.keyWith(['survey:read']));
    const survey = await created();
    expect((await get(survey.id, reader)).statusCode).toBe(200);
    expect((await create({ name: 'x', questions: [OPEN] }, reader)).statusCode).toBe(403);
    expect((await action(survey.id, 'launch', reader)).statusCode).toBe(403);
    const flagsOnly = s.auth(await s.keyWith(['feature_flag:write']));
    expect((await get(survey.id, flagsOnly)).statusCode).toBe(403);
    const writer = s.auth(await s.keyWith(['survey:write']));
    expect((await create({ name: 'by key', questions: [OPEN] }, writer)).statusCode).toBe(201);
    const viewer = await userWith(s, 'viewer');
    expect((await get(survey.id, viewer.read)).statusCode).toBe(200);
    expect((await create({ name: 'x', questions: [OPEN] }, viewer.write)).statusCode).toBe(403);
    const member = await userWith(s, 'member');
    const made = await create({ name: 'by member', questions: [OPEN] }, member.write);
    expect(made.statusCode).toBe(201);
    expect(made.json().created_by).toMatchObject({ id: member.id });
  });

  it('records creation, changes (targeting too), launch and archiving as Survey entries', async () => {
    const survey = await created({ name: 'Logged' });
    await patch(survey.id, {
      description: 'now described',
      targeting_flag_filters: { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }], rollout_percentage: 50 }] },
    });
    await action(survey.id, 'launch');
    await s.app.inject({ method: 'DELETE', url: `${base}/${survey.id}/`, headers: s.headers });
    const log = await s.app.inject({ url: `/api/projects/${s.projectId}/activity_log/?scope=Survey&item_id=${survey.id}`, headers: s.headers });
    expect(log.statusCode, log.body).toBe(200);
    const entries = log.json().results as { activity: string; detail: { name: string; changes: { field: string }[] } }[];
    expect(entries.map((e) => e.activity)).toEqual(['deleted', 'updated', 'updated', 'created']);
    expect(entries[2]!.detail.changes.map((c) => c.field)).toEqual(['description', 'targeting_flag_filters']);
    expect(entries[1]!.detail.changes.map((c) => c.field)).toEqual(['start_date']);
    expect(entries[0]!.detail.name).toBe('Logged');
  });
});

describe('bad input', () => {
  const bad = async (body: Body, attr: string, detail?: RegExp, code?: string) => {
    const res = await create({ name: 'Bad', questions: [OPEN], ...body });
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json();
    expect(Object.keys(error).sort()).toEqual(['attr', 'code', 'detail', 'type']);
    expect(error.attr, res.body).toBe(attr);
    if (detail) expect(error.detail).toMatch(detail);
    if (code) expect(error.code).toBe(code);
  };

  it('refuses a question without text, or with blanks only', async () => {
    await bad({ questions: [{ type: 'open' }] }, 'questions__0__question', /required/, 'required');
    await bad({ questions: [OPEN, { type: 'open', question: '' }] }, 'questions__1__question', /blank/, 'blank');
    await bad({ questions: [{ type: 'open', question: '   ' }] }, 'questions__0__question', /needs its text/, 'blank');
    await bad({ questions: [] }, 'questions');
    await bad({ questions: undefined }, 'questions', /required/);
  });

  it('refuses an unknown survey or question type', async () => {
    await bad({ type: 'modal' }, 'type', /"modal" is not a valid choice/, 'invalid_choice');
    await bad({ questions: [{ type: 'essay', question: 'Why?' }] }, 'questions__0__type', /"essay" is not a valid choice/, 'invalid_choice');
  });

  it('refuses choices on a rating question, and the fields of one type on another', async () => {
    await bad({ questions: [{ ...NPS, choices: ['a'] }] }, 'questions__0__choices', /rating question has no choices/);
    await bad({ questions: [{ ...OPEN, scale: 5 }] }, 'questions__0__scale', /open question has no scale/);
    await bad({ questions: [{ ...CHOICE, link: 'https://x.test/' }] }, 'questions__0__link');
  });

  it('refuses a scale not in 2, 3, 5, 7, 10, and one the display cannot draw', async () => {
    await bad({ questions: [{ ...NPS, scale: 4 }] }, 'questions__0__scale', /one of 2, 3, 5, 7, 10; 4 is not/, 'invalid_choice');
    await bad({ questions: [{ ...NPS, scale: 11 }] }, 'questions__0__scale', /one of 2, 3, 5, 7, 10/);
    await bad({ questions: [{ ...NPS, display: 'emoji', scale: 10 }] }, 'questions__0__scale', /emoji has a scale of 2, 3, 5/);
    await bad({ questions: [{ ...NPS, display: 'number', scale: 3 }] }, 'questions__0__scale', /numbers has a scale of 5, 7, 10/);
    for (const [display, scale] of [
      ['emoji', 2],
      ['emoji', 3],
      ['emoji', 5],
      ['number', 5],
      ['number', 7],
      ['number', 10],
    ] as const) {
      await created({ questions: [{ ...NPS, display, scale }] });
    }
  });

  it('refuses a choice question without choices, blank or repeated choices', async () => {
    await bad({ questions: [{ type: 'multiple_choice', question: 'Which?' }] }, 'questions__0__choices', /at least one choice/, 'required');
    await bad({ questions: [{ ...CHOICE, choices: [] }] }, 'questions__0__choices', /at least one choice/);
    await bad({ questions: [{ ...CHOICE, choices: ['a', ' '] }] }, 'questions__0__choices__1', /needs its text/);
    await bad({ questions: [{ ...CHOICE, choices: ['a', 'a'] }] }, 'questions__0__choices__1', /unique/);
  });

  it('refuses branching to a missing question, backwards, or by an answer the question cannot have', async () => {
    const specific = (index: unknown) => ({ ...OPEN, branching: { type: 'specific_question', index } });
    await bad({ questions: [specific(5), OPEN] }, 'questions__0__branching__index', /index from 0 to 1/, 'invalid_choice');
    await bad({ questions: [specific(-1), OPEN] }, 'questions__0__branching__index', /index from 0 to 1/);
    await bad({ questions: [OPEN, specific(0)] }, 'questions__1__branching__index', /forward/);
    await bad({ questions: [{ ...OPEN, branching: { type: 'specific_question' } }, OPEN] }, 'questions__0__branching__index', /names its index/);
    await bad({ questions: [{ ...OPEN, branching: { type: 'jump' } }] }, 'questions__0__branching__type', /not a valid choice/);
    const byAnswer = (q: Body, responseValues: Body) => ({ ...q, branching: { type: 'response_based', responseValues } });
    await bad({ questions: [byAnswer(CHOICE, { 3: 1 }), OPEN] }, 'questions__0__branching__responseValues__3', /choices are 0, 1, 2/, 'invalid_choice');
    await bad({ questions: [byAnswer(CHOICE, { 0: 4 }), OPEN] }, 'questions__0__branching__responseValues__0', /index from 0 to 1/);
    await bad({ questions: [byAnswer(NPS, { positive: 1 }), OPEN] }, 'questions__0__branching__responseValues__positive', /detractors, passives, promoters/);
    await bad({ questions: [byAnswer(OPEN, { 0: 1 }), OPEN] }, 'questions__0__branching__type', /single choice and rating/);
    await bad({ questions: [byAnswer(CHOICE, {}), OPEN] }, 'questions__0__branching__responseValues', /where each answer goes/);
    const ok = await created({
      questions: [
        byAnswer(CHOICE, { 0: 2, 1: 'end' }),
        byAnswer({ ...NPS, display: 'emoji', scale: 5 }, { negative: 2, positive: 'end' }),
        { ...OPEN, branching: { type: 'end' } },
      ],
    });
    expect(ok.questions[0].branching).toEqual({ type: 'response_based', responseValues: { 0: 2, 1: 'end' } });
  });

  it('refuses repeated or odd question ids, a bad link, a regex that does not compile', async () => {
    await bad(
      {
        questions: [
          { ...OPEN, id: 'q1' },
          { ...OPEN, id: 'q1' },
        ],
      },
      'questions__1__id',
      /unique/,
      'unique',
    );
    await bad({ questions: [{ ...OPEN, id: 'a b' }] }, 'questions__0__id', /letters, digits/);
    await bad({ questions: [{ type: 'link', question: 'Go', link: 'javascript:alert(1)' }] }, 'questions__0__link', /http, https or mailto/);
    await bad({ questions: [{ type: 'link', question: 'Go', link: 'not a url' }] }, 'questions__0__link', /valid URL/);
    await bad({ conditions: { url: '(', urlMatchType: 'regex' } }, 'conditions__url', /regular expression/);
    await bad({ conditions: { urlMatchType: 'starts_with' } }, 'conditions__urlMatchType', /"starts_with" is not a valid choice/, 'invalid_choice');
    await bad({ conditions: { deviceTypes: ['Mobile'], deviceTypesMatchType: 'nope' } }, 'conditions__deviceTypesMatchType', /not a valid choice/);
    await bad(
      { conditions: { events: { values: [{ name: 'paid', propertyFilters: { plan: { values: ['pro'], operator: 'startswith' } } }] } } },
      'conditions__events__values__0__propertyFilters__plan__operator',
      /not a valid choice/,
    );
    await bad({ conditions: { events: { values: [{ name: ' ' }] } } }, 'conditions__events__values__0__name', /needs its name/);
  });

  it('refuses targeting the flag rules refuse, or not on person properties', async () => {
    await bad(
      { targeting_flag_filters: { groups: [{ properties: [{ key: 'plan', operator: 'nope', value: 'x' }] }] } },
      'targeting_flag_filters__groups',
      /unknown operator/,
    );
    await bad({ targeting_flag_filters: { groups: [{ rollout_percentage: 101 }] } }, 'targeting_flag_filters__groups__0__rollout_percentage');
    await bad(
      { targeting_flag_filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', operator: 'in', value: 1 }] }] } },
      'targeting_flag_filters__groups__0__properties__0__type',
      /type is "person"/,
    );
  });

  it('refuses a schedule without its iterations, iterations without a recurring schedule, dates out of order', async () => {
    await bad({ schedule: 'recurring', iteration_frequency_days: 7 }, 'iteration_count', /how many times/, 'required');
    await bad({ schedule: 'recurring', iteration_count: 3 }, 'iteration_frequency_days', /how many days/, 'required');
    await bad({ schedule: 'once', iteration_count: 3 }, 'iteration_count', /Only a recurring survey/);
    await bad({ schedule: 'weekly' }, 'schedule', /not a valid choice/);
    await bad({ iteration_count: 501, schedule: 'recurring', iteration_frequency_days: 1 }, 'iteration_count', /less than or equal to 500/);
    await bad({ start_date: '2026-02-01T00:00:00Z', end_date: '2026-01-01T00:00:00Z' }, 'end_date', /before the start/);
    await bad({ start_date: 'yesterday' }, 'start_date');
    await bad({ responses_limit: -5 }, 'responses_limit', /greater than or equal to 1/);
  });

  it('caps lengths and sizes: name, question, choices, appearance', async () => {
    await bad({ name: 'x'.repeat(401) }, 'name', /no more than 400 characters/, 'max_length');
    await bad({ questions: [{ type: 'open', question: 'x'.repeat(2001) }] }, 'questions__0__question', /no more than 2000 characters/);
    await bad({ questions: Array.from({ length: 51 }, () => OPEN) }, 'questions');
    await bad({ questions: [{ ...CHOICE, choices: Array.from({ length: 51 }, (_, i) => `c${i}`) }] }, 'questions__0__choices');
    await bad({ appearance: { css: 'x'.repeat(40_000) } }, 'appearance', /32768 bytes/);
    await bad({ name: 'a\u0000b' }, 'name', /Null characters/, 'null_characters_not_allowed');
  });

  it('answers PATCH errors the same way, and leaves the survey as it was', async () => {
    const survey = await created();
    const res = await patch(survey.id, { name: 'Changed', questions: [{ ...NPS, scale: 6 }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().attr).toBe('questions__0__scale');
    expect((await get(survey.id)).json()).toEqual(survey);
  });
});
