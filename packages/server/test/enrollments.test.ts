import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personReads } from '../src/persons/store';
import { startService, type TestService } from './helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

let n = 0;
const someone = (label = 'user') => `${label}-${++n}-${randomUUID().slice(0, 8)}`;

interface Feature {
  id: string;
  feature_flag: { id: number; key: string };
}

async function createFeature(stage: string, body: Record<string, unknown> = {}, projectId = s.projectId): Promise<Feature> {
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/early_access_feature/`,
    headers: s.headers,
    payload: { name: `Feature ${++n} ${randomUUID().slice(0, 8)}`, stage, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const enrollmentsUrl = (feature: { id: string }, query = '', projectId = s.projectId) =>
  `/api/projects/${projectId}/early_access_feature/${feature.id}/enrollments/${query}`;

async function list(feature: Feature, query = '') {
  const res = await s.app.inject({ url: enrollmentsUrl(feature, query), headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const enroll = (feature: { id: string }, payload: Record<string, unknown>, headers = s.headers, projectId = s.projectId) =>
  s.app.inject({ method: 'POST', url: enrollmentsUrl(feature, '', projectId), headers, payload });

/** Sends events as one batch, as posthog-js does, and expects them stored. */
async function capture(events: Record<string, unknown>[]) {
  const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch: events } });
  expect(res.statusCode, res.body).toBe(200);
}

/** A `$feature_enrollment_update` as posthog-js sends it (`$set` inside properties), at a given time. */
const sdkEnrollment = (distinctId: string, flagKey: string, enrolled: boolean, timestamp: string) => ({
  event: '$feature_enrollment_update',
  distinct_id: distinctId,
  timestamp,
  properties: { $feature_flag: flagKey, $feature_enrollment: enrolled, $set: { [`$feature_enrollment/${flagKey}`]: enrolled } },
});

async function person(distinctId: string) {
  const res = await s.app.inject({ url: `/api/projects/${s.projectId}/persons/?distinct_id=${encodeURIComponent(distinctId)}`, headers: s.headers });
  expect(res.statusCode).toBe(200);
  return res.json().results[0] as { id: string; properties: Record<string, unknown> } | undefined;
}

const flagOf = async (flagKey: string, body: Record<string, unknown>) => {
  const res = await s.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: s.token, ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().flags[flagKey] as { enabled: boolean };
};

describe('enrollments from SDK events', () => {
  it('lists one row per person with their latest state, newest first, the person uuid and the stage, and counts over all', async () => {
    const feature = await createFeature('beta');
    const key = feature.feature_flag.key;
    const [alice, bob, carol] = [someone('alice'), someone('bob'), someone('carol')];
    await capture([sdkEnrollment(alice, key, true, '2024-03-01T10:00:00.000Z'), sdkEnrollment(bob, key, true, '2024-03-01T11:00:00.000Z')]);
    await capture([sdkEnrollment(alice, key, false, '2024-03-01T12:00:00.000Z')]);
    // Another flag's enrollment and an ordinary event are no enrollment in this feature.
    await capture([sdkEnrollment(carol, 'no-such-feature', true, '2024-03-01T13:00:00.000Z'), { event: 'x', distinct_id: carol }]);

    let page = await list(feature);
    expect(page.counts).toEqual({ enrolled: 1, opted_out: 1 });
    expect(page.count).toBe(2);
    expect(page.results).toEqual([
      {
        distinct_id: alice,
        person_id: (await person(alice))!.id,
        group_type: null,
        group_key: null,
        enrolled: false,
        stage: 'beta',
        updated_at: '2024-03-01T12:00:00.000Z',
      },
      {
        distinct_id: bob,
        person_id: (await person(bob))!.id,
        group_type: null,
        group_key: null,
        enrolled: true,
        stage: 'beta',
        updated_at: '2024-03-01T11:00:00.000Z',
      },
    ]);

    // Opting in again keeps one row for alice, now opted in; the stage recorded is the feature's at that moment.
    await s.app.inject({
      method: 'PATCH',
      url: `/api/projects/${s.projectId}/early_access_feature/${feature.id}/`,
      headers: s.headers,
      payload: { stage: 'general-availability' },
    });
    await capture([sdkEnrollment(alice, key, true, '2024-03-01T14:00:00.000Z')]);
    page = await list(feature);
    expect(page.counts).toEqual({ enrolled: 2, opted_out: 0 });
    expect(page.results.map((r: { distinct_id: string; enrolled: boolean; stage: string }) => [r.distinct_id, r.enrolled, r.stage])).toEqual([
      [alice, true, 'general-availability'],
      [bob, true, 'beta'],
    ]);
  });

  it('keeps the last of several enrollment events of one person in one batch, and records an event stored twice once', async () => {
    const feature = await createFeature('alpha');
    const key = feature.feature_flag.key;
    const id = someone();
    const uuid = randomUUID();
    await capture([sdkEnrollment(id, key, true, '2024-04-01T10:00:00.000Z'), { ...sdkEnrollment(id, key, false, '2024-04-01T10:00:01.000Z'), uuid }]);
    // A retried batch: the stored event is not applied again.
    await capture([{ ...sdkEnrollment(id, key, true, '2024-04-01T10:00:02.000Z'), uuid }]);
    const page = await list(feature);
    expect(page.results).toHaveLength(1);
    expect(page.results[0]).toMatchObject({ distinct_id: id, enrolled: false, updated_at: '2024-04-01T10:00:01.000Z' });
  });

  it('filters by enrolled= and pages newest first with next/previous, counts staying over all', async () => {
    const feature = await createFeature('beta');
    const key = feature.feature_flag.key;
    const people = Array.from({ length: 5 }, (_, i) => ({ id: someone(`p${i}`), enrolled: i % 2 === 0, at: `2024-05-01T10:00:0${i}.000Z` }));
    await capture(people.map((p) => sdkEnrollment(p.id, key, p.enrolled, p.at)));

    const out = await list(feature, '?enrolled=false');
    expect(out.count).toBe(2);
    expect(out.counts).toEqual({ enrolled: 3, opted_out: 2 });
    expect(out.results.map((r: { distinct_id: string }) => r.distinct_id)).toEqual([people[3]!.id, people[1]!.id]);
    const enrolled = await list(feature, '?enrolled=true');
    expect(enrolled.results.map((r: { distinct_id: string }) => r.distinct_id)).toEqual([people[4]!.id, people[2]!.id, people[0]!.id]);

    const first = await list(feature, '?limit=2');
    expect(first.count).toBe(5);
    expect(first.results.map((r: { distinct_id: string }) => r.distinct_id)).toEqual([people[4]!.id, people[3]!.id]);
    expect(first.previous).toBeNull();
    const next = new URL(first.next);
    expect(next.searchParams.get('limit')).toBe('2');
    expect(next.searchParams.get('offset')).toBe('2');
    const second = await list(feature, next.search);
    expect(second.results.map((r: { distinct_id: string }) => r.distinct_id)).toEqual([people[2]!.id, people[1]!.id]);
    const third = await list(feature, new URL(second.next).search);
    expect(third.results.map((r: { distinct_id: string }) => r.distinct_id)).toEqual([people[0]!.id]);
    expect(third.next).toBeNull();
    expect(third.counts).toEqual({ enrolled: 3, opted_out: 2 });

    const filteredPage = await list(feature, '?enrolled=true&limit=1&offset=1');
    expect(filteredPage.results.map((r: { distinct_id: string }) => r.distinct_id)).toEqual([people[2]!.id]);
    expect(new URL(filteredPage.next).searchParams.get('enrolled')).toBe('true');
  });

  it('answers 400 naming enrolled for a value that is not true or false', async () => {
    const feature = await createFeature('beta');
    const res = await s.app.inject({ url: enrollmentsUrl(feature, '?enrolled=maybe'), headers: s.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'enrolled' });
  });
});

describe('POST enrollments (on their behalf)', () => {
  it('opts a person into a beta feature: 201 with the row, /flags turns the flag on, an event is stored as from an SDK; then out: 200, off', async () => {
    const feature = await createFeature('beta');
    const key = feature.feature_flag.key;
    const id = someone();
    expect((await flagOf(key, { distinct_id: id })).enabled).toBe(false);

    const res = await enroll(feature, { distinct_id: id, enrolled: true });
    expect(res.statusCode, res.body).toBe(201);
    const row = res.json();
    expect(row).toMatchObject({ distinct_id: id, group_type: null, group_key: null, enrolled: true, stage: 'beta' });
    expect(row.person_id).toBe((await person(id))!.id);
    expect(Date.now() - Date.parse(row.updated_at)).toBeLessThan(60_000);
    expect((await flagOf(key, { distinct_id: id })).enabled).toBe(true);

    const stored = await s.services.db.kysely
      .selectFrom('events')
      .select(['event', 'properties'])
      .where('project_id', '=', s.projectId)
      .where('distinct_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.event).toBe('$feature_enrollment_update');
    expect(JSON.parse(stored.properties)).toMatchObject({
      $feature_flag: key,
      $feature_enrollment: true,
      $set: { [`$feature_enrollment/${key}`]: true },
      $feature_enrollment_stage: 'beta',
      $lib: 'service-api',
    });

    const out = await enroll(feature, { distinct_id: id, enrolled: false });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ distinct_id: id, enrolled: false });
    expect((await flagOf(key, { distinct_id: id })).enabled).toBe(false);
    expect((await list(feature)).counts).toEqual({ enrolled: 0, opted_out: 1 });
  });

  it('registers an opt-in to a concept feature (the person property is set) while its flag stays off', async () => {
    const feature = await createFeature('concept');
    const key = feature.feature_flag.key;
    const id = someone();
    const res = await enroll(feature, { distinct_id: id, enrolled: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ distinct_id: id, enrolled: true, stage: 'concept' });
    expect((await person(id))!.properties[`$feature_enrollment/${key}`]).toBe(true);
    expect((await flagOf(key, { distinct_id: id })).enabled).toBe(false);
  });

  it.each(['draft', 'archived'])('refuses a %s feature with 409 conflict on stage', async (stage) => {
    const feature = await createFeature(stage);
    const res = await enroll(feature, { distinct_id: someone(), enrolled: true });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ type: 'invalid_request', code: 'conflict', detail: expect.stringContaining(stage), attr: 'stage' });
  });

  it('answers 400 without a distinct id or group, or with both', async () => {
    const feature = await createFeature('beta');
    const none = await enroll(feature, { enrolled: true });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ type: 'validation_error', code: 'required', attr: 'distinct_id' });
    const both = await enroll(feature, { distinct_id: 'x', group_type: 'company', group_key: 'acme', enrolled: true });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ attr: 'distinct_id' });
    const noKey = await enroll(feature, { group_type: 'company', enrolled: true });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toMatchObject({ code: 'required', attr: 'group_key' });
    const noEnrolled = await enroll(feature, { distinct_id: 'x' });
    expect(noEnrolled.statusCode).toBe(400);
    expect(noEnrolled.json()).toMatchObject({ type: 'validation_error', attr: 'enrolled' });
  });

  it('answers 400 on group_type for a group enrollment in a person-based flag', async () => {
    await capture([{ event: '$groupidentify', distinct_id: 'x', properties: { $group_type: 'company', $group_key: 'acme' } }]);
    const feature = await createFeature('beta');
    const res = await enroll(feature, { group_type: 'company', group_key: 'acme', enrolled: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'group_type' });
  });

  it('needs early_access_feature:write to enroll and :read to list (403), and the feature in the path’s project (404)', async () => {
    const feature = await createFeature('beta');
    const reader = s.auth(await s.keyWith(['early_access_feature:read']));
    const denied = await enroll(feature, { distinct_id: someone(), enrolled: true }, reader);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'permission_denied' });
    expect((await s.app.inject({ url: enrollmentsUrl(feature), headers: reader })).statusCode).toBe(200);
    const flagsOnly = s.auth(await s.keyWith(['feature_flag:write']));
    expect((await s.app.inject({ url: enrollmentsUrl(feature), headers: flagsOnly })).statusCode).toBe(403);

    const other = await s.services.projects.create('Other project');
    const elsewhere = await enroll(feature, { distinct_id: someone(), enrolled: true }, s.headers, other.id);
    expect(elsewhere.statusCode).toBe(404);
    expect((await s.app.inject({ url: enrollmentsUrl(feature, '', other.id), headers: s.headers })).statusCode).toBe(404);
    expect((await enroll({ id: randomUUID() }, { distinct_id: 'x', enrolled: true })).statusCode).toBe(404);
    expect((await enroll({ id: 'not-a-uuid' }, { distinct_id: 'x', enrolled: true })).statusCode).toBe(404);
  });
});

describe('group enrollment', () => {
  let feature: Feature;
  let flagKey: string;
  beforeAll(async () => {
    // The project's group types: company (0), team (1).
    await capture([
      { event: '$groupidentify', distinct_id: '$company_acme', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } } },
      { event: '$groupidentify', distinct_id: '$team_red', properties: { $group_type: 'team', $group_key: 'red' } },
    ]);
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: {
        key: `company-beta-${randomUUID().slice(0, 8)}`,
        filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 0 }] },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    flagKey = res.json().key;
    feature = await createFeature('beta', { feature_flag_id: res.json().id });
  });

  const groupProperties = async (key: string) => (await personReads.groupProperties(s.services.db.kysely, s.projectId, { company: key })).company;

  it('opts a group in through POST: the group property is set (no person made), the row has no person, /flags turns the flag on for it', async () => {
    expect((await flagOf(flagKey, { distinct_id: 'someone', groups: { company: 'acme' } })).enabled).toBe(false);
    const res = await enroll(feature, { group_type: 'company', group_key: 'acme', enrolled: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ distinct_id: null, person_id: null, group_type: 'company', group_key: 'acme', enrolled: true, stage: 'beta' });
    expect(await groupProperties('acme')).toEqual({ name: 'Acme', [`$feature_enrollment/${flagKey}`]: true });
    expect(await person('$company_acme')).toBeUndefined();
    expect((await flagOf(flagKey, { distinct_id: 'someone', groups: { company: 'acme' } })).enabled).toBe(true);
    expect((await flagOf(flagKey, { distinct_id: 'someone', groups: { company: 'other' } })).enabled).toBe(false);
  });

  it("records an SDK's group enrollment event ($group_type, $group_key), creating a new group and setting no person property", async () => {
    const user = someone();
    await capture([
      {
        event: '$feature_enrollment_update',
        distinct_id: user,
        timestamp: '2024-06-01T10:00:00.000Z',
        properties: { $feature_flag: flagKey, $feature_enrollment: true, $group_type: 'company', $group_key: 'initech' },
      },
    ]);
    expect(await groupProperties('initech')).toEqual({ [`$feature_enrollment/${flagKey}`]: true });
    expect(await person(user)).toBeUndefined();
    const rows = (await list(feature)).results as { group_key: string; distinct_id: string | null; updated_at: string }[];
    expect(rows.find((r) => r.group_key === 'initech')).toEqual({
      distinct_id: null,
      person_id: null,
      group_type: 'company',
      group_key: 'initech',
      enrolled: true,
      stage: 'beta',
      updated_at: '2024-06-01T10:00:00.000Z',
    });
  });

  it('answers 400 for a person enrollment (distinct_id), an unknown group type, or another group type than the flag’s (group_type)', async () => {
    const asPerson = await enroll(feature, { distinct_id: someone(), enrolled: true });
    expect(asPerson.statusCode).toBe(400);
    expect(asPerson.json()).toMatchObject({ type: 'validation_error', attr: 'distinct_id' });
    const unknown = await enroll(feature, { group_type: 'planet', group_key: 'mars', enrolled: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ type: 'validation_error', attr: 'group_type' });
    const otherType = await enroll(feature, { group_type: 'team', group_key: 'red', enrolled: true });
    expect(otherType.statusCode).toBe(400);
    expect(otherType.json()).toMatchObject({ type: 'validation_error', attr: 'group_type' });
  });
});

describe('opt-ins and opt-outs per day', () => {
  const perDay = async (feature: { id: string }, query = '') => {
    const res = await s.app.inject({ url: `${enrollmentsUrl(feature)}per_day/${query}`, headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { days: string[]; opted_in: number[]; opted_out: number[] };
  };
  const today = () => new Date().toISOString().slice(0, 10);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  it("counts the feature's own choices only: not those of a deleted feature on the same flag, nor another flag's", async () => {
    const earlier = await createFeature('beta');
    const key = earlier.feature_flag.key;
    const now = new Date().toISOString();
    await capture([sdkEnrollment(someone(), key, true, now), sdkEnrollment(someone(), key, true, now), sdkEnrollment(someone(), key, false, now)]);
    expect((await list(earlier)).counts).toEqual({ enrolled: 2, opted_out: 1 });
    const url = `/api/projects/${s.projectId}/early_access_feature/${earlier.id}/`;
    expect((await s.app.inject({ method: 'DELETE', url, headers: s.headers })).statusCode).toBe(204);

    // A new feature on the same flag: one opt-in on someone's behalf, one opt-out from an SDK, one choice on another flag.
    const feature = await createFeature('beta', { feature_flag_id: earlier.feature_flag.id });
    expect((await enroll(feature, { distinct_id: someone('alice'), enrolled: true })).statusCode).toBe(201);
    await capture([
      sdkEnrollment(someone('bob'), key, false, new Date().toISOString()),
      sdkEnrollment(someone('carol'), 'another-flag', true, new Date().toISOString()),
    ]);
    expect((await list(feature)).counts).toEqual({ enrolled: 1, opted_out: 1 });
    // Created today, chosen today: one day.
    expect(await perDay(feature)).toEqual({ days: [today()], opted_in: [1], opted_out: [1] });
  });

  it("adds up to the feature's counts: each person once, on the day of their latest choice; every day of the range listed", async () => {
    const feature = await createFeature('beta');
    const key = feature.feature_flag.key;
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const [ada, bob, cy] = [someone('ada'), someone('bob'), someone('cy')];
    // Ada opted in four days ago, then out two days ago; Bob in two days ago; Cy in today. (An SDK's events may be older
    // than the feature: they still count, from the day of the first one.)
    await capture([
      sdkEnrollment(ada, key, true, daysAgo(4)),
      sdkEnrollment(ada, key, false, daysAgo(2)),
      sdkEnrollment(bob, key, true, daysAgo(2)),
      sdkEnrollment(cy, key, true, new Date().toISOString()),
    ]);
    const { counts } = await list(feature);
    expect(counts).toEqual({ enrolled: 2, opted_out: 1 });
    const week = await perDay(feature);
    // From the first choice still standing (two days ago) to today.
    expect(week.days).toEqual([daysAgo(2), daysAgo(1), new Date().toISOString()].map((t) => t.slice(0, 10)));
    expect(week).toMatchObject({ opted_in: [1, 0, 1], opted_out: [1, 0, 0] });
    expect([sum(week.opted_in), sum(week.opted_out)]).toEqual([counts.enrolled, counts.opted_out]);
    expect(await perDay(feature, '?days=1')).toEqual({ days: [today()], opted_in: [1], opted_out: [0] });
    for (const days of ['0', '367', 'x']) {
      const res = await s.app.inject({ url: `${enrollmentsUrl(feature)}per_day/?days=${days}`, headers: s.headers });
      expect(res.statusCode, days).toBe(400);
      expect(res.json().attr).toBe('days');
    }
    const other = await s.services.projects.create(`Other ${someone()}`);
    expect((await s.app.inject({ url: enrollmentsUrl(feature, 'per_day/', other.id), headers: s.headers })).statusCode).toBe(404);
  });
});
