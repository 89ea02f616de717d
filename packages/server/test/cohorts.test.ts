// Cohorts: the API (static, dynamic, behavioral; limits, cycles, CSV, members, soft delete), and their evaluation in
// /flags and /flags/definitions, on SQLite and on PostgreSQL (TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown, headers: Record<string, string> = {}) =>
  s.app.inject({
    method,
    url: `/api/projects/${s.projectId}/${path}`,
    headers: { ...s.headers, ...headers },
    ...(payload === undefined ? {} : { payload: payload as string }),
  });

async function createCohort(payload: Record<string, unknown>) {
  const res = await api('POST', 'cohorts/', payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; count: number; name: string };
}
async function createFlag(key: string, properties: unknown[]) {
  const res = await api('POST', 'feature_flags/', { key, filters: { groups: [{ properties, rollout_percentage: 100 }] } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}
async function storePerson(distinctId: string, properties: Record<string, unknown>) {
  const now = new Date().toISOString();
  const { id } = await s.services.db.kysely
    .insertInto('persons')
    .values({ project_id: s.projectId, uuid: crypto.randomUUID(), properties: JSON.stringify(properties), is_identified: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await s.services.db.kysely.insertInto('person_distinct_ids').values({ project_id: s.projectId, distinct_id: distinctId, person_id: id }).execute();
}
const flagsOf = async (distinctId: string, personProperties: Record<string, unknown> = {}) => {
  const res = await s.app.inject({
    method: 'POST',
    url: '/flags/?v=2',
    payload: { token: s.token, distinct_id: distinctId, person_properties: personProperties },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().flags as Record<string, { enabled: boolean }>;
};
const property = (values: unknown[], type: 'AND' | 'OR' = 'AND') => ({ properties: { type: 'OR', values: [{ type, values }] } });
const inCohort = (id: number, operator: 'in' | 'not_in' = 'in') => ({ key: 'id', type: 'cohort', value: id, operator });

describe('static cohorts', () => {
  it('stores distinct ids from JSON, counts them once each, and targets them in /flags', async () => {
    const cohort = await createCohort({ name: 'Beta list', is_static: true, distinct_ids: ['a', 'b', 'b', 'c'] });
    expect(cohort.count).toBe(3);
    await createFlag('static-beta', [inCohort(cohort.id)]);
    await createFlag('static-not', [inCohort(cohort.id, 'not_in')]);
    expect((await flagsOf('a'))['static-beta']!.enabled).toBe(true);
    expect((await flagsOf('z'))['static-beta']!.enabled).toBe(false);
    expect((await flagsOf('z'))['static-not']!.enabled).toBe(true);
    // Membership cannot be claimed through the request's person properties.
    expect((await flagsOf('z', { [`$cohort_member/${cohort.id}`]: true }))['static-beta']!.enabled).toBe(false);

    const added = await api('POST', `cohorts/${cohort.id}/members/`, { distinct_ids: ['z'] });
    expect(added.json().count).toBe(4);
    expect((await flagsOf('z'))['static-beta']!.enabled).toBe(true);
    const removed = await api('DELETE', `cohorts/${cohort.id}/members/`, { distinct_ids: ['a', 'z'] });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().count).toBe(2);
    expect((await flagsOf('a'))['static-beta']!.enabled).toBe(false);

    const persons = (await api('GET', `cohorts/${cohort.id}/persons/?limit=1&offset=1`)).json();
    expect(persons).toMatchObject({ count: 2, results: [{ distinct_id: 'c', person_id: null }] });
  });

  it('reads a text/csv upload: a distinct_id column, or one id per line; members too', async () => {
    const res = await api('POST', 'cohorts/?name=From%20CSV', 'email,distinct_id\nx@example.com,"csv-1"\n\ny@example.com,csv-2\n', {
      'content-type': 'text/csv',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'From CSV', is_static: true, count: 2 });
    const more = await api('POST', `cohorts/${res.json().id}/members/`, 'csv-3\r\ncsv-4\r\n', { 'content-type': 'text/csv' });
    expect(more.json().count).toBe(4);
    const ids = (await api('GET', `cohorts/${res.json().id}/persons/`)).json().results.map((r: { distinct_id: string }) => r.distinct_id);
    expect(ids).toEqual(['csv-1', 'csv-2', 'csv-3', 'csv-4']);
  });

  it('takes 1,000,000 ids and refuses 1,000,001 with 413 naming the limit', async () => {
    const ids = Array.from({ length: 1_000_001 }, (_, i) => `u${i}`);
    const over = await api('POST', 'cohorts/', { name: 'Too many', is_static: true, distinct_ids: ids });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ attr: 'distinct_ids' });
    expect(over.json().detail).toContain('1,000,000');
    ids.pop();
    const full = await createCohort({ name: 'A million', is_static: true, distinct_ids: ids });
    expect(full.count).toBe(1_000_000);
    const oneMore = await api('POST', `cohorts/${full.id}/members/`, { distinct_ids: ['one-more'] });
    expect(oneMore.statusCode).toBe(413);
  }, 120_000);

  it('refuses bad ids and filters on a static cohort', async () => {
    expect((await api('POST', 'cohorts/', { name: 'x', is_static: true, distinct_ids: ['ok', ''] })).json()).toMatchObject({ attr: 'distinct_ids__1' });
    expect((await api('POST', 'cohorts/', { name: 'x', is_static: true, distinct_ids: ['a'], filters: property([{ key: 'a', value: 1 }]) })).statusCode).toBe(
      400,
    );
    expect((await api('POST', 'cohorts/', { name: 'x', distinct_ids: ['a'], filters: property([{ key: 'a', value: 1 }]) })).statusCode).toBe(400);
  });
});

describe('dynamic cohorts', () => {
  it('evaluates person property cohorts (and cohorts in cohorts) in /flags, with counts and members', async () => {
    await storePerson('pro-1', { plan: 'pro', country: 'DE' });
    await storePerson('pro-2', { plan: 'pro', country: 'FR' });
    await storePerson('free-1', { plan: 'free', country: 'DE' });
    const pro = await createCohort({ name: 'Pro', filters: property([{ key: 'plan', type: 'person', value: ['pro'], operator: 'exact' }]) });
    const proOutsideFrance = await createCohort({
      name: 'Pro outside France',
      filters: property([inCohort(pro.id), { key: 'country', type: 'person', value: 'FR', operator: 'exact', negation: true }]),
    });
    expect(pro.count).toBe(2);
    expect(proOutsideFrance.count).toBe(1);
    await createFlag('pro-flag', [inCohort(proOutsideFrance.id)]);
    expect((await flagsOf('pro-1'))['pro-flag']!.enabled).toBe(true);
    expect((await flagsOf('pro-2'))['pro-flag']!.enabled).toBe(false);
    expect((await flagsOf('free-1'))['pro-flag']!.enabled).toBe(false);
    expect((await flagsOf('free-1', { plan: 'pro' }))['pro-flag']!.enabled).toBe(true);
    expect(
      (await api('GET', `cohorts/${pro.id}/persons/`))
        .json()
        .results.map((r: { distinct_id: string }) => r.distinct_id)
        .sort(),
    ).toEqual(['pro-1', 'pro-2']);

    const defs = (await s.app.inject({ url: `/flags/definitions?token=${s.token}&send_cohorts`, headers: s.headers })).json();
    expect(defs.cohorts[String(pro.id)]).toEqual(property([{ key: 'plan', type: 'person', value: ['pro'], operator: 'exact' }]).properties);
    expect(Object.keys(defs.cohorts)).toContain(String(proOutsideFrance.id));
  });

  it('refuses cycles, references to deleted or unknown cohorts, and bad filters (400)', async () => {
    const a = await createCohort({ name: 'A', filters: property([{ key: 'x', value: 1 }]) });
    const b = await createCohort({ name: 'B', filters: property([inCohort(a.id)]) });
    const cycle = await api('PATCH', `cohorts/${a.id}/`, { filters: property([inCohort(b.id)]) });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json()).toMatchObject({ code: 'cohort_cycle', attr: 'filters' });
    expect((await api('PATCH', `cohorts/${a.id}/`, { filters: property([inCohort(a.id)]) })).json().code).toBe('cohort_cycle');
    expect((await api('POST', 'cohorts/', { name: 'C', filters: property([inCohort(999_999)]) })).json().code).toBe('invalid_cohort');
    const gone = await createCohort({ name: 'Gone', filters: property([{ key: 'x', value: 2 }]) });
    expect((await api('DELETE', `cohorts/${gone.id}/`)).statusCode).toBe(204);
    expect((await api('POST', 'cohorts/', { name: 'D', filters: property([inCohort(gone.id)]) })).json().code).toBe('invalid_cohort');
    for (const filters of [
      {},
      { properties: { type: 'XOR', values: [] } },
      property([{ key: 'x', operator: 'nope' }]),
      property([{ type: 'behavioral', key: 'e' }]),
    ]) {
      expect((await api('POST', 'cohorts/', { name: 'bad', filters })).statusCode).toBe(400);
    }
  });

  it('refuses to delete a cohort a flag or a cohort uses (409 naming them), and soft-deletes otherwise', async () => {
    const used = await createCohort({ name: 'Used', filters: property([{ key: 'x', value: 3 }]) });
    await createFlag('uses-cohort', [inCohort(used.id)]);
    const user = await createCohort({ name: 'User of Used', filters: property([inCohort(used.id)]) });
    const refused = await api('DELETE', `cohorts/${used.id}/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('flag "uses-cohort"');
    expect(refused.json().detail).toContain('cohort "User of Used"');
    expect((await api('DELETE', `cohorts/${user.id}/`)).statusCode).toBe(204);
    expect((await api('GET', `cohorts/${user.id}/`)).json().deleted).toBe(true);
    expect((await api('GET', 'cohorts/?limit=1000')).json().results.map((c: { id: number }) => c.id)).not.toContain(user.id);
  });

  it('accepts cohort leaves in flags only for live cohorts of the project', async () => {
    const res = await api('POST', 'feature_flags/', {
      key: 'unknown-cohort',
      filters: { groups: [{ properties: [inCohort(987_654)], rollout_percentage: 100 }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_cohort', attr: 'filters' });
  });

  it('records activity and needs the cohort scopes', async () => {
    const cohort = await createCohort({ name: 'Logged', filters: property([{ key: 'x', value: 4 }]) });
    await api('PATCH', `cohorts/${cohort.id}/`, { name: 'Logged again' });
    const log = (await api('GET', `activity_log/?scope=Cohort&item_id=${cohort.id}`)).json();
    expect(log.results.map((e: { activity: string }) => e.activity).sort()).toEqual(['created', 'updated']);
    const reader = await s.keyWith(['cohort:read']);
    expect((await s.app.inject({ url: `/api/projects/${s.projectId}/cohorts/`, headers: s.auth(reader) })).statusCode).toBe(200);
    const write = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/cohorts/`,
      headers: s.auth(reader),
      payload: { name: 'x', is_static: true },
    });
    expect(write.statusCode).toBe(403);
    const flagsOnly = await s.keyWith(['feature_flag:write']);
    expect((await s.app.inject({ url: `/api/projects/${s.projectId}/cohorts/`, headers: s.auth(flagsOnly) })).statusCode).toBe(403);
  });
});

describe('behavioral cohorts', () => {
  const capture = async (events: { event: string; distinct_id: string; properties?: Record<string, unknown>; timestamp?: string }[]) => {
    const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: s.token, batch: events } });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('lets a person in once the qualifying event is acknowledged, counting only the window', async () => {
    const cohort = await createCohort({
      name: 'Bought twice this week',
      filters: property([
        {
          type: 'behavioral',
          value: 'performed_event',
          key: 'purchase',
          event_type: 'events',
          operator: 'gte',
          operator_value: 2,
          time_value: 7,
          time_interval: 'day',
        },
      ]),
    });
    await createFlag('loyal', [inCohort(cohort.id)]);
    const defs = (await s.app.inject({ url: `/flags/definitions?token=${s.token}&send_cohorts`, headers: s.headers })).json();
    expect(defs.cohorts[String(cohort.id)]).toBeUndefined();

    const old = new Date(Date.now() - 10 * 86_400_000).toISOString();
    await capture([
      { event: 'purchase', distinct_id: 'buyer', timestamp: old },
      { event: 'purchase', distinct_id: 'buyer' },
      { event: 'pageview', distinct_id: 'buyer' },
    ]);
    expect((await flagsOf('buyer')).loyal!.enabled).toBe(false);
    await capture([{ event: 'purchase', distinct_id: 'buyer' }]);
    expect((await flagsOf('buyer')).loyal!.enabled).toBe(true);
    expect((await flagsOf('someone-else')).loyal!.enabled).toBe(false);
    expect((await api('GET', `cohorts/${cohort.id}/`)).json().count).toBe(1);
  });

  it('makes a cohort of the people who got a variant of a flag ($feature_flag_called with event filters)', async () => {
    const cohort = await createCohort({
      name: 'Saw the test variant',
      filters: property([
        {
          type: 'behavioral',
          value: 'performed_event',
          key: '$feature_flag_called',
          operator: 'gte',
          operator_value: 1,
          time_value: 30,
          time_interval: 'day',
          event_filters: [
            { key: '$feature_flag', value: 'checkout', operator: 'exact', type: 'event' },
            { key: '$feature_flag_response', value: 'test', operator: 'exact', type: 'event' },
          ],
        },
      ]),
    });
    await createFlag('followup', [inCohort(cohort.id)]);
    await capture([
      { event: '$feature_flag_called', distinct_id: 'saw-control', properties: { $feature_flag: 'checkout', $feature_flag_response: 'control' } },
      { event: '$feature_flag_called', distinct_id: 'saw-test', properties: { $feature_flag: 'checkout', $feature_flag_response: 'test' } },
    ]);
    expect((await flagsOf('saw-test')).followup!.enabled).toBe(true);
    expect((await flagsOf('saw-control')).followup!.enabled).toBe(false);

    // The same cohort through the convenience form.
    const short = await createCohort({ name: 'Saw control', flag_variant: { flag_key: 'checkout', variant: 'control' } });
    expect(short.count).toBe(1);
    expect((await api('GET', `cohorts/${short.id}/persons/`)).json().results.map((r: { distinct_id: string }) => r.distinct_id)).toEqual(['saw-control']);
  });

  it('drops counts past their window in the expiry job', async () => {
    const [job] = (await import('../src/cohorts')).cohortsModule.jobs({ services: s.services, log: s.app.log } as never);
    const before = await s.services.db.kysely.selectFrom('cohort_event_counts').select('day').execute();
    expect(before.length).toBeGreaterThan(0);
    await job!.expire(Date.now() + 40 * 86_400_000);
    expect(await s.services.db.kysely.selectFrom('cohort_event_counts').select('day').execute()).toEqual([]);
  });
});
