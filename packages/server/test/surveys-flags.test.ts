import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// The two flags of a survey, as posthog-js checks them in /flags: made with it, kept in step with it, hidden from the
// flags list and refused by the flags API; answered by /flags (alone with only_evaluate_survey_feature_flags=true); the
// internal one false once the person responded or dismissed (per iteration), the targeting one waiting for a
// server-side event when the survey names one.

let s: TestService;
let base: string;
beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/surveys`;
});
afterAll(() => s.close());

type Body = Record<string, unknown>;
const OPEN = { type: 'open', question: 'Anything to tell us?' };
let n = 0;
async function survey(body: Body = {}, launch = true) {
  const res = await s.app.inject({ method: 'POST', url: `${base}/`, headers: s.headers, payload: { name: `Flags ${++n}`, questions: [OPEN], ...body } });
  expect(res.statusCode, res.body).toBe(201);
  if (!launch) return res.json();
  const launched = await s.app.inject({ method: 'POST', url: `${base}/${res.json().id}/launch/`, headers: s.headers });
  expect(launched.statusCode, launched.body).toBe(200);
  return launched.json();
}
/** What /flags answers a distinct id: each flag key's `enabled`. */
async function flags(distinctId: string, query = '', body: Body = {}): Promise<Record<string, boolean>> {
  const res = await s.app.inject({ method: 'POST', url: `/flags/?v=2${query}`, payload: { token: s.token, distinct_id: distinctId, ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(Object.entries(res.json().flags as Record<string, { enabled: boolean }>).map(([key, flag]) => [key, flag.enabled]));
}
/** The two flags of a survey for a distinct id: [targeting, internal]. */
async function both(sv: { targeting_flag_key: string; internal_targeting_flag_key: string }, distinctId: string) {
  const answer = await flags(distinctId);
  return [answer[sv.targeting_flag_key], answer[sv.internal_targeting_flag_key]];
}
/** Sets person properties as a captured event's `$set` does (a survey event's, say). */
async function set(distinctId: string, properties: Body, event = 'survey sent') {
  const res = await s.app.inject({
    method: 'POST',
    url: '/batch/',
    payload: { api_key: s.token, batch: [{ event, distinct_id: distinctId, properties: { $set: properties } }] },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('the flags a survey makes', () => {
  it('are hidden from the flags list, shown on the survey and on their own page, and left out of local evaluation', async () => {
    await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload: { key: 'own-flag' } });
    const sv = await survey();
    const list = (await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/?limit=1000`, headers: s.headers })).json();
    const keys = list.results.map((f: { key: string }) => f.key);
    expect(keys).toContain('own-flag');
    expect(keys).not.toContain(sv.targeting_flag_key);
    expect(keys).not.toContain(sv.internal_targeting_flag_key);
    expect(list.count).toBe(keys.length);
    expect(sv.targeting_flag).toMatchObject({ key: sv.targeting_flag_key, active: true });
    const page = (await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/${sv.targeting_flag.id}/`, headers: s.headers })).json();
    expect(page.used_by).toEqual([{ type: 'survey', id: sv.id, name: sv.name, status: 'running' }]);
    const definitions = (await s.app.inject({ url: `/flags/definitions?token=${s.token}`, headers: s.headers })).json();
    const defined = definitions.flags.map((f: { key: string }) => f.key);
    expect(defined).toContain('own-flag');
    expect(defined.filter((key: string) => key.startsWith('survey-targeting-'))).toEqual([]);
  });

  it('are refused by the flags API (409 naming the survey), and cannot be linked to an early access feature', async () => {
    const sv = await survey({ name: 'Owner of flags' });
    for (const body of [{ filters: { groups: [] } }, { deleted: true }, { key: 'renamed' }, { active: false }, { name: 'x' }]) {
      const res = await s.app.inject({
        method: 'PATCH',
        url: `/api/projects/${s.projectId}/feature_flags/${sv.internal_targeting_flag.id}/`,
        headers: s.headers,
        payload: body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'conflict' });
      expect(res.json().detail).toContain(`belongs to the survey "Owner of flags" (${sv.id})`);
    }
    const feature = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: s.headers,
      payload: { name: 'Takes a survey flag', stage: 'beta', feature_flag_id: sv.targeting_flag.id },
    });
    expect(feature.statusCode).toBe(400);
    expect(feature.json()).toMatchObject({ attr: 'feature_flag_id' });
    // A flag a survey links to keeps its key and stays while the survey is not archived.
    const linked = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: { key: 'linked-by-survey' },
    });
    const linking = await survey({ name: 'Linking', linked_flag_key: 'linked-by-survey' });
    const flagUrl = `/api/projects/${s.projectId}/feature_flags/${linked.json().id}/`;
    for (const [body, attr] of [
      [{ key: 'renamed-linked' }, 'key'],
      [{ deleted: true }, 'deleted'],
    ] as const) {
      const res = await s.app.inject({ method: 'PATCH', url: flagUrl, headers: s.headers, payload: body });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ attr, detail: expect.stringContaining('the survey "Linking" is linked to') });
    }
    expect((await s.app.inject({ method: 'PATCH', url: flagUrl, headers: s.headers, payload: { name: 'still editable' } })).statusCode).toBe(200);
    await s.app.inject({ method: 'DELETE', url: `${base}/${linking.id}/`, headers: s.headers });
    expect((await s.app.inject({ method: 'PATCH', url: flagUrl, headers: s.headers, payload: { deleted: true } })).statusCode).toBe(200);
    // A new flag cannot take their keys either.
    const taken = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: { key: sv.targeting_flag_key },
    });
    expect(taken.json()).toMatchObject({ attr: 'key', code: 'unique' });
  });
});

describe('/flags', () => {
  it('answers both flags true, then the internal one false once the person responded (set by a captured event)', async () => {
    const sv = await survey();
    expect(await both(sv, 'responder')).toEqual([true, true]);
    await set('responder', { [`$survey_responded/${sv.id}`]: true });
    expect(await both(sv, 'responder')).toEqual([true, false]);
    expect(await both(sv, 'someone-else')).toEqual([true, true]);
    await set('dismisser', { [`$survey_dismissed/${sv.id}`]: true }, 'survey dismissed');
    expect(await both(sv, 'dismisser')).toEqual([true, false]);
  });

  it('answers the targeting flag by person properties and rollout, kept in step with the survey', async () => {
    const sv = await survey({
      targeting_flag_filters: { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }], rollout_percentage: 100 }] },
    });
    expect(sv.targeting_flag_filters).toEqual({
      groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }], rollout_percentage: 100 }],
    });
    await set('pro-user', { plan: 'pro' });
    await set('free-user', { plan: 'free' });
    expect(await both(sv, 'pro-user')).toEqual([true, true]);
    expect(await both(sv, 'free-user')).toEqual([false, true]);
    const everyone = await s.app.inject({ method: 'PATCH', url: `${base}/${sv.id}/`, headers: s.headers, payload: { targeting_flag_filters: null } });
    expect(everyone.json().targeting_flag_filters).toBeNull();
    expect(await both(sv, 'free-user')).toEqual([true, true]);
    await s.app.inject({
      method: 'PATCH',
      url: `${base}/${sv.id}/`,
      headers: s.headers,
      payload: { targeting_flag_filters: { groups: [{ rollout_percentage: 0 }] } },
    });
    expect(await both(sv, 'free-user')).toEqual([false, true]);
  });

  it('with only_evaluate_survey_feature_flags=true answers the survey flags alone', async () => {
    const sv = await survey();
    await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: { key: 'not-a-survey-flag', filters: { groups: [{ rollout_percentage: 100 }] } },
    });
    const all = await flags('only-surveys');
    expect(all['not-a-survey-flag']).toBe(true);
    const only = await flags('only-surveys', '&only_evaluate_survey_feature_flags=true');
    expect(only[sv.targeting_flag_key]).toBe(true);
    expect(only[sv.internal_targeting_flag_key]).toBe(true);
    expect(Object.keys(only).every((key) => key.startsWith('survey-targeting-'))).toBe(true);
    expect(only).not.toHaveProperty('not-a-survey-flag');
    // With flag keys asked for, the survey flags among them.
    const asked = await flags('only-surveys', '&only_evaluate_survey_feature_flags=true', {
      flag_keys_to_evaluate: ['not-a-survey-flag', sv.targeting_flag_key],
    });
    expect(Object.keys(asked)).toEqual([sv.targeting_flag_key]);
  });

  it('waits for the server-side event: the targeting flag is true once $survey_triggered/<id> is set', async () => {
    const sv = await survey({ conditions: { events: { values: [{ name: 'order shipped', server_side: true }, { name: 'clicked' }] } } });
    expect(await both(sv, 'buyer')).toEqual([false, true]);
    await set('buyer', { [`$survey_triggered/${sv.id}`]: true }, 'order shipped');
    expect(await both(sv, 'buyer')).toEqual([true, true]);
    // Without the server-side event the condition goes.
    await s.app.inject({
      method: 'PATCH',
      url: `${base}/${sv.id}/`,
      headers: s.headers,
      payload: { conditions: { events: { values: [{ name: 'clicked' }] } } },
    });
    expect(await both(sv, 'someone')).toEqual([true, true]);
  });

  it('with schedule always never excludes who responded', async () => {
    const sv = await survey({ schedule: 'always' });
    await set('again', { [`$survey_responded/${sv.id}`]: true });
    expect(await both(sv, 'again')).toEqual([true, true]);
  });

  it('turns both flags off while the survey is archived', async () => {
    const sv = await survey();
    await s.app.inject({ method: 'DELETE', url: `${base}/${sv.id}/`, headers: s.headers });
    expect(await both(sv, 'anyone')).toEqual([false, false]);
  });
});

describe('a survey flags on and off', () => {
  const HOUR = 3_600_000;

  it('are on only while the survey runs: off for a draft and a stopped survey, so that a client loads nothing for them', async () => {
    const draft = await survey({}, false);
    expect(draft.status).toBe('draft');
    expect([draft.targeting_flag.active, draft.internal_targeting_flag.active]).toEqual([false, false]);
    expect(await both(draft, 'someone')).toEqual([false, false]);
    const launched = await s.app.inject({ method: 'POST', url: `${base}/${draft.id}/launch/`, headers: s.headers });
    expect(launched.json()).toMatchObject({ status: 'running', targeting_flag: { active: true }, internal_targeting_flag: { active: true } });
    expect(await both(draft, 'someone')).toEqual([true, true]);
    const stopped = await s.app.inject({ method: 'POST', url: `${base}/${draft.id}/stop/`, headers: s.headers });
    expect(stopped.json()).toMatchObject({ status: 'stopped', targeting_flag: { active: false }, internal_targeting_flag: { active: false } });
    expect(await both(draft, 'someone')).toEqual([false, false]);
  });

  it('are turned on when its start date comes and off when its end date passes, by the schedule job', async () => {
    const now = Date.now();
    const sv = await survey({ start_date: new Date(now + HOUR).toISOString(), end_date: new Date(now + 2 * HOUR).toISOString() }, false);
    expect(sv.status).toBe('draft');
    expect(await both(sv, 'later')).toEqual([false, false]);
    await s.services.surveys.advanceSchedules(now + HOUR + 1000);
    expect(await both(sv, 'later')).toEqual([true, true]);
    await s.services.surveys.advanceSchedules(now + 2 * HOUR + 1000);
    expect(await both(sv, 'later')).toEqual([false, false]);
  });
});

describe('recurring surveys', () => {
  const DAY = 86_400_000;

  it('are in the iteration their start and frequency give; the internal flag excludes who responded in this iteration only', async () => {
    const start = new Date(Date.now() - 8 * DAY).toISOString();
    const sv = await survey({ schedule: 'recurring', iteration_count: 3, iteration_frequency_days: 7, start_date: start }, false);
    expect(sv).toMatchObject({ status: 'running', current_iteration: 2, current_iteration_start_date: new Date(Date.parse(start) + 7 * DAY).toISOString() });
    await set('last-time', { [`$survey_responded/${sv.id}/1`]: true });
    await set('this-time', { [`$survey_responded/${sv.id}/2`]: true });
    expect(await both(sv, 'last-time')).toEqual([true, true]);
    expect(await both(sv, 'this-time')).toEqual([true, false]);
  });

  it('move on to the next iteration with time (the schedule job), and stop after the last', async () => {
    const sv = await survey({ schedule: 'recurring', iteration_count: 2, iteration_frequency_days: 7 });
    expect(sv.current_iteration).toBe(1);
    await set('answered-first', { [`$survey_responded/${sv.id}/1`]: true });
    expect(await both(sv, 'answered-first')).toEqual([true, false]);
    const start = Date.parse(sv.start_date);
    expect(await s.services.surveys.advanceSchedules(start + 7 * DAY + 1000)).toBeGreaterThanOrEqual(1);
    const second = (await s.app.inject({ url: `${base}/${sv.id}/`, headers: s.headers })).json();
    expect(second).toMatchObject({ current_iteration: 2, current_iteration_start_date: new Date(start + 7 * DAY).toISOString(), end_date: null });
    expect(await both(sv, 'answered-first')).toEqual([true, true]);
    // Nothing more to do until the next change.
    expect(await s.services.surveys.advanceSchedules(start + 7 * DAY + 2000)).toBe(0);
    await s.services.surveys.advanceSchedules(start + 14 * DAY + 1000);
    const over = (await s.app.inject({ url: `${base}/${sv.id}/`, headers: s.headers })).json();
    expect(over.end_date).toBe(new Date(start + 14 * DAY).toISOString());
  });

  it('are stopped once their last iteration is over, and launch again only with more iterations', async () => {
    const start = new Date(Date.now() - 15 * DAY).toISOString();
    const sv = await survey({ schedule: 'recurring', iteration_count: 2, iteration_frequency_days: 7, start_date: start }, false);
    expect(sv).toMatchObject({ status: 'stopped', current_iteration: 2, end_date: new Date(Date.parse(start) + 14 * DAY).toISOString() });
    const again = await s.app.inject({ method: 'POST', url: `${base}/${sv.id}/launch/`, headers: s.headers });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'conflict', attr: 'iteration_count' });
    const more = await s.app.inject({ method: 'PATCH', url: `${base}/${sv.id}/`, headers: s.headers, payload: { iteration_count: 4, end_date: null } });
    expect(more.json()).toMatchObject({ status: 'running', current_iteration: 3, end_date: null });
  });

  it('lose their iterations when the schedule changes to once', async () => {
    const sv = await survey({ schedule: 'recurring', iteration_count: 2, iteration_frequency_days: 30 });
    const once = (await s.app.inject({ method: 'PATCH', url: `${base}/${sv.id}/`, headers: s.headers, payload: { schedule: 'once' } })).json();
    expect(once).toMatchObject({ schedule: 'once', iteration_count: null, iteration_frequency_days: null, current_iteration: null });
    expect(once.internal_targeting_flag.filters.groups[0].properties.map((p: { key: string }) => p.key)).toEqual([
      `$survey_dismissed/${sv.id}`,
      `$survey_responded/${sv.id}`,
    ]);
  });
});
