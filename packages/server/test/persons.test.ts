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

/** Sends events as one batch, as posthog-js does, and expects them stored. */
async function capture(events: Record<string, unknown>[], token = s.token) {
  const res = await s.app.inject({ method: 'POST', url: '/batch/', payload: { api_key: token, batch: events } });
  expect(res.statusCode, res.body).toBe(200);
}

async function person(distinctId: string) {
  const res = await s.app.inject({ url: `/api/projects/${s.projectId}/persons/?distinct_id=${encodeURIComponent(distinctId)}`, headers: s.headers });
  expect(res.statusCode).toBe(200);
  const { results } = res.json();
  expect(results.length).toBeLessThanOrEqual(1);
  return results[0] as { id: string; distinct_ids: string[]; properties: Record<string, unknown>; is_identified: boolean; created_at: string } | undefined;
}

const personCount = async () =>
  Number(
    (
      await s.services.db.kysely
        .selectFrom('persons')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('persons', () => {
  it('creates a person, unidentified and without properties, on the first event of a distinct id', async () => {
    const id = someone();
    await capture([{ event: '$pageview', distinct_id: id }]);
    expect(await person(id)).toMatchObject({ distinct_ids: [id], properties: {}, is_identified: false });
  });

  it('creates one person for many events of one distinct id', async () => {
    const id = someone();
    const before = await personCount();
    await capture([
      { event: 'a', distinct_id: id },
      { event: 'b', distinct_id: id },
    ]);
    await capture([{ event: 'c', distinct_id: id }]);
    expect(await personCount()).toBe(before + 1);
  });

  it('applies $set from the top level (posthog-node) and from properties (posthog-js), later values winning', async () => {
    const id = someone();
    await capture([
      { event: 'a', distinct_id: id, $set: { plan: 'free', seats: 1 } },
      { event: '$set', distinct_id: id, properties: { $set: { plan: 'pro' } } },
    ]);
    expect((await person(id))!.properties).toEqual({ plan: 'pro', seats: 1 });
  });

  it('applies $set_once only to properties the person does not have yet', async () => {
    const id = someone();
    await capture([{ event: 'a', distinct_id: id, $set_once: { first_seen: 'monday' } }]);
    await capture([{ event: 'b', distinct_id: id, properties: { $set_once: { first_seen: 'tuesday', referrer: 'ads' } } }]);
    expect((await person(id))!.properties).toEqual({ first_seen: 'monday', referrer: 'ads' });
  });

  it('removes properties named by $unset (a list, as posthog-js sends it)', async () => {
    const id = someone();
    await capture([{ event: 'a', distinct_id: id, $set: { a: 1, b: 2, c: 3 } }]);
    await capture([{ event: '$set', distinct_id: id, properties: { $unset: ['a', 'c', 'missing'] } }]);
    expect((await person(id))!.properties).toEqual({ b: 2 });
  });

  it('applies the events of one batch in order', async () => {
    const id = someone();
    await capture([
      { event: 'a', distinct_id: id, $set: { step: 1 } },
      { event: 'b', distinct_id: id, $unset: ['step'] },
      { event: 'c', distinct_id: id, $set_once: { step: 3 } },
      { event: 'd', distinct_id: id, $set: { last: true } },
    ]);
    expect((await person(id))!.properties).toEqual({ step: 3, last: true });
  });
});

describe('$identify', () => {
  it('links the anonymous id to the new identified id when only the anonymous one has a person', async () => {
    const anon = someone('anon');
    const user = someone('ada');
    await capture([{ event: '$pageview', distinct_id: anon, properties: { $set: { browser: 'Firefox' } } }]);
    await capture([{ event: '$identify', distinct_id: user, properties: { distinct_id: user, $anon_distinct_id: anon }, $set: { email: 'ada@example.com' } }]);
    const merged = await person(user);
    expect(merged).toMatchObject({ distinct_ids: [anon, user].sort(), properties: { browser: 'Firefox', email: 'ada@example.com' }, is_identified: true });
    expect((await person(anon))!.id).toBe(merged!.id);
  });

  it('makes one identified person with both ids when neither had one', async () => {
    const anon = someone('anon');
    const user = someone('bob');
    const before = await personCount();
    await capture([{ event: '$identify', distinct_id: user, properties: { $anon_distinct_id: anon } }]);
    expect(await personCount()).toBe(before + 1);
    expect(await person(anon)).toMatchObject({ distinct_ids: [anon, user].sort(), is_identified: true });
  });

  it('merges two persons: properties of the identified one win, distinct ids move, the anonymous person goes, earliest created_at stays', async () => {
    const anon = someone('anon');
    const user = someone('cy');
    await capture([{ event: 'a', distinct_id: anon, timestamp: '2026-01-01T00:00:00.000Z', $set: { plan: 'free', browser: 'Safari' } }]);
    await capture([{ event: 'b', distinct_id: user, timestamp: '2026-02-01T00:00:00.000Z', $set: { plan: 'team', email: 'cy@example.com' } }]);
    const before = await personCount();
    await capture([{ event: '$identify', distinct_id: user, properties: { $anon_distinct_id: anon } }]);
    expect(await personCount()).toBe(before - 1);
    expect(await person(user)).toMatchObject({
      distinct_ids: [anon, user].sort(),
      properties: { plan: 'team', browser: 'Safari', email: 'cy@example.com' },
      is_identified: true,
      created_at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('merges within one batch, applying the $set of later events to the merged person', async () => {
    const anon = someone('anon');
    const user = someone('di');
    await capture([
      { event: '$pageview', distinct_id: anon, $set: { seen: 1 } },
      { event: 'login', distinct_id: user, $set: { email: 'di@example.com' } },
      { event: '$identify', distinct_id: user, properties: { $anon_distinct_id: anon } },
      { event: '$pageview', distinct_id: anon, $set: { seen: 2 } },
    ]);
    expect(await person(anon)).toMatchObject({ distinct_ids: [anon, user].sort(), properties: { seen: 2, email: 'di@example.com' }, is_identified: true });
  });

  it('never merges an anonymous id whose person is already identified into another identified person', async () => {
    const first = someone('eve');
    const second = someone('fay');
    await capture([{ event: '$identify', distinct_id: first }]);
    await capture([{ event: '$identify', distinct_id: second }]);
    await capture([{ event: '$identify', distinct_id: second, properties: { $anon_distinct_id: first } }]);
    expect((await person(first))!.distinct_ids).toEqual([first]);
    expect((await person(second))!.distinct_ids).toEqual([second]);
  });

  it('does not merge on ids that name nobody, like "null" or "undefined"', async () => {
    const user = someone('gus');
    await capture([{ event: '$identify', distinct_id: user, properties: { $anon_distinct_id: 'null' } }]);
    expect((await person(user))!.distinct_ids).toEqual([user]);
  });
});

describe('$create_alias', () => {
  it('merges the alias into the person of distinct_id, whose properties win', async () => {
    const user = someone('hal');
    const alias = someone('hal-alias');
    await capture([{ event: 'x', distinct_id: alias, $set: { a: 'alias', only_alias: true } }]);
    await capture([{ event: 'y', distinct_id: user, $set: { a: 'user' } }]);
    await capture([{ event: '$create_alias', distinct_id: user, properties: { alias, distinct_id: user } }]);
    expect(await person(alias)).toMatchObject({ distinct_ids: [alias, user].sort(), properties: { a: 'user', only_alias: true }, is_identified: true });
  });

  it('adds a new alias to an existing person', async () => {
    const user = someone('ivy');
    const alias = someone('ivy-alias');
    await capture([{ event: 'x', distinct_id: user }]);
    await capture([{ event: '$create_alias', distinct_id: user, properties: { alias } }]);
    expect((await person(alias))!.distinct_ids).toEqual([alias, user].sort());
  });
});

describe('groups', () => {
  it('maps group types to indexes 0-4 in order of first use, stores group properties, and ignores a sixth type', async () => {
    const other = await s.services.projects.create('Groups project');
    const id = someone();
    const identify = (type: string, key: string, set: Record<string, unknown>) => ({
      event: '$groupidentify',
      distinct_id: id,
      properties: { $group_type: type, $group_key: key, $group_set: set },
    });
    await capture([identify('company', 'acme', { name: 'Acme', size: 10 }), identify('team', 'red', { colour: 'red' })], other.api_token);
    await capture(
      [identify('company', 'acme', { size: 12 }), { event: 'x', distinct_id: id, properties: { $groups: { project: 'p1', region: 'eu' } } }],
      other.api_token,
    );
    await capture([identify('workspace', 'w1', {}), identify('sixth', 's1', { lost: true })], other.api_token);

    expect(await personReads.groupTypeMapping(s.services.db.kysely, other.id)).toEqual({
      '0': 'company',
      '1': 'team',
      '2': 'project',
      '3': 'region',
      '4': 'workspace',
    });
    expect(await personReads.groupProperties(s.services.db.kysely, other.id, { company: 'acme', team: 'red', sixth: 's1' })).toEqual({
      company: { name: 'Acme', size: 12 },
      team: { colour: 'red' },
    });
    // the event naming a sixth type is stored all the same
    const stored = await s.services.db.kysely.selectFrom('events').select('event').where('project_id', '=', other.id).where('distinct_id', '=', id).execute();
    expect(stored).toHaveLength(6);
  });

  it('makes no person for a $groupidentify event (posthog-node sends "$<type>_<key>" as its distinct id)', async () => {
    await capture([
      {
        event: '$groupidentify',
        distinct_id: '$company_initech',
        properties: { $group_type: 'company', $group_key: 'initech', $group_set: { name: 'Initech' } },
      },
    ]);
    expect(await person('$company_initech')).toBeUndefined();
    expect(await personReads.groupProperties(s.services.db.kysely, s.projectId, { company: 'initech' })).toEqual({ company: { name: 'Initech' } });
  });

  it('keeps group types per project', async () => {
    const a = await s.services.projects.create('Group types A');
    const b = await s.services.projects.create('Group types B');
    const id = someone();
    const identify = (type: string) => ({ event: '$groupidentify', distinct_id: id, properties: { $group_type: type, $group_key: 'k' } });
    await capture([identify('org'), identify('team')], a.api_token);
    await capture([identify('team')], b.api_token);
    expect(await personReads.groupTypeMapping(s.services.db.kysely, a.id)).toEqual({ '0': 'org', '1': 'team' });
    expect(await personReads.groupTypeMapping(s.services.db.kysely, b.id)).toEqual({ '0': 'team' });
  });
});

describe('early access enrollment', () => {
  it('stores $feature_enrollment/<key> on the person from a $feature_enrollment_update event, readable through personReads.properties', async () => {
    const id = someone();
    const enroll = (enrolled: boolean) => ({
      event: '$feature_enrollment_update',
      distinct_id: id,
      properties: { $feature_flag: 'new-editor', $feature_enrollment: enrolled, $set: { '$feature_enrollment/new-editor': enrolled } },
    });
    await capture([enroll(true)]);
    expect(await personReads.properties(s.services.db.kysely, s.projectId, id)).toEqual({ '$feature_enrollment/new-editor': true });
    await capture([enroll(false)]);
    expect(await personReads.properties(s.services.db.kysely, s.projectId, id)).toEqual({ '$feature_enrollment/new-editor': false });
  });

  it('derives the property from $feature_flag and $feature_enrollment when an older SDK sends no $set', async () => {
    const id = someone();
    await capture([{ event: '$feature_enrollment_update', distinct_id: id, properties: { $feature_flag: 'old-sdk', $feature_enrollment: true } }]);
    expect(await personReads.properties(s.services.db.kysely, s.projectId, id)).toEqual({ '$feature_enrollment/old-sdk': true });
  });

  it('turns a beta feature on in /flags for the person who opted in through capture', async () => {
    const created = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: s.headers,
      payload: { name: 'Loop check', stage: 'beta' },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json().feature_flag.key as string;
    const id = someone();
    const enabled = async () =>
      (await s.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: s.token, distinct_id: id } })).json().flags[key].enabled;
    expect(await enabled()).toBe(false);
    await capture([
      {
        event: '$feature_enrollment_update',
        distinct_id: id,
        properties: { $feature_flag: key, $feature_enrollment: true, $set: { [`$feature_enrollment/${key}`]: true } },
      },
    ]);
    expect(await enabled()).toBe(true);
  });
});

describe('GET /api/projects/:project_id/persons/', () => {
  it('lists persons newest first with the paged envelope', async () => {
    const other = await s.services.projects.create('Listed persons');
    const ids = [someone('p'), someone('p'), someone('p')];
    for (const id of ids) await capture([{ event: 'x', distinct_id: id }], other.api_token);
    const res = await s.app.inject({ url: `/api/projects/${other.id}/persons/?limit=2`, headers: s.headers });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.count).toBe(3);
    expect(page.next).toContain('offset=2');
    expect(page.results.map((p: { distinct_ids: string[] }) => p.distinct_ids[0])).toEqual([ids[2], ids[1]]);
    expect(Object.keys(page.results[0]).sort()).toEqual(['created_at', 'distinct_ids', 'id', 'is_identified', 'properties']);
    expect(page.results[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an empty page for a distinct id nobody has', async () => {
    const res = await s.app.inject({ url: `/api/projects/${s.projectId}/persons/?distinct_id=nobody-${randomUUID()}`, headers: s.headers });
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('requires person:read', async () => {
    const key = await s.keyWith(['event:read']);
    const res = await s.app.inject({ url: `/api/projects/${s.projectId}/persons/`, headers: s.auth(key) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied', detail: "API key missing required scope 'person:read'" });
    expect((await s.app.inject({ url: `/api/projects/${s.projectId}/persons/`, headers: s.auth(await s.keyWith(['person:read'])) })).statusCode).toBe(200);
  });
});

describe('GET /api/projects/:project_id/persons/?search=', () => {
  let url: string;
  const ids = { ada: someone('Ada'), bob: someone('bob'), cy: someone('cy'), dee: someone('dee'), nul: someone('nul') };
  const found = async (search: string) => {
    const res = await s.app.inject({ url: `${url}?search=${encodeURIComponent(search)}`, headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { count: number; results: { distinct_ids: string[] }[] };
    expect(page.count).toBe(page.results.length);
    return page.results.map((p) => p.distinct_ids[0]).sort();
  };

  beforeAll(async () => {
    const project = await s.services.projects.create('Searched persons');
    url = `/api/projects/${project.id}/persons/`;
    await capture(
      [
        { event: 'x', distinct_id: ids.ada, $set: { email: 'Ada@Example.com', plan: 'Pro' } },
        { event: 'x', distinct_id: ids.bob, $set: { company: { name: 'Acme 100% "Real"' }, seats: 12.5, admin: true } },
        { event: 'x', distinct_id: ids.cy, $set: { email_verified: false, tags: ['under_score', 'back\\slash'] } },
        { event: 'x', distinct_id: ids.dee },
        { event: 'x', distinct_id: ids.nul, $set: { note: 'a\u0000b', lone: '\ud800' } },
      ],
      project.api_token,
    );
  });

  it('finds persons by part of a distinct id, ignoring case', async () => {
    expect(await found(ids.dee.toUpperCase())).toEqual([ids.dee]);
    expect(await found('ada-')).toEqual([ids.ada]);
  });

  it('finds persons by part of any property value at any depth, ignoring case, numbers and booleans as text', async () => {
    expect(await found('example.COM')).toEqual([ids.ada]);
    expect(await found('acme')).toEqual([ids.bob]);
    expect(await found('12.5')).toEqual([ids.bob]);
    expect(await found('true')).toEqual([ids.bob]);
    expect(await found('FALSE')).toEqual([ids.cy]);
  });

  it('matches values, not property names', async () => {
    expect(await found('email')).toEqual([]);
    expect(await found('seats')).toEqual([]);
  });

  it('takes %, _, \\ and " literally', async () => {
    expect(await found('100%')).toEqual([ids.bob]);
    expect(await found('"Real"')).toEqual([ids.bob]);
    expect(await found('%')).toEqual([ids.bob]);
    expect(await found('under_score')).toEqual([ids.cy]);
    expect(await found('n_e')).toEqual([]);
    expect(await found('back\\slash')).toEqual([ids.cy]);
  });

  it('searches persons whose properties hold NUL or lone surrogates without failing, and pages the matches', async () => {
    expect(await found('nul-')).toEqual([ids.nul]);
    expect(await found('zzz-nothing')).toEqual([]);
    const res = await s.app.inject({ url: `${url}?search=-&limit=2`, headers: s.headers });
    expect(res.json()).toMatchObject({ count: 5 });
    expect(res.json().results).toHaveLength(2);
    expect(res.json().next).toContain('search=-');
  });

  it('answers 400 for a search with NUL or over 1,000 characters', async () => {
    for (const [search, code] of [
      ['%00', 'null_characters_not_allowed'],
      ['a'.repeat(1001), 'max_length'],
    ]) {
      const res = await s.app.inject({ url: `${url}?search=${search}`, headers: s.headers });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', code, attr: 'search' });
    }
  });
});

describe('GET /api/projects/:project_id/person_property_names/', () => {
  const names = async (projectId: number, query = '') => {
    const res = await s.app.inject({ url: `/api/projects/${projectId}/person_property_names/${query}`, headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results as string[];
  };

  it("lists the names of the project's person properties once each, sorted, those containing `search` (ignoring case)", async () => {
    const project = await s.services.projects.create('Property names');
    await capture(
      [
        { event: '$identify', distinct_id: someone(), $set: { email: 'ada@example.com', Plan: 'pro', nested: { inner: 1 } } },
        { event: '$identify', distinct_id: someone(), $set: { email: 'bob@example.com', 'plan tier': 'gold', nothing: null } },
        { event: '$pageview', distinct_id: someone() },
      ],
      project.api_token,
    );
    expect(await names(project.id)).toEqual(['Plan', 'email', 'nested', 'nothing', 'plan tier']);
    expect(await names(project.id, '?search=PLAN')).toEqual(['Plan', 'plan tier']);
    expect(await names(project.id, '?search=nothing-like-it')).toEqual([]);
    // Another project's names are its own.
    expect(await names(s.projectId)).not.toContain('plan tier');
    expect(await names((await s.services.projects.create('No persons')).id)).toEqual([]);
  });

  it('needs person:read, and answers 404 for a project that does not exist', async () => {
    const url = `/api/projects/${s.projectId}/person_property_names/`;
    expect((await s.app.inject({ url, headers: s.auth(await s.keyWith(['event:read'])) })).statusCode).toBe(403);
    expect((await s.app.inject({ url, headers: s.auth(await s.keyWith(['person:read'])) })).statusCode).toBe(200);
    expect((await s.app.inject({ url: '/api/projects/999999/person_property_names/', headers: s.headers })).statusCode).toBe(404);
  });
});

describe('GET /api/projects/:project_id/group_types/', () => {
  it("lists the project's group types by index, with their names", async () => {
    const project = await s.services.projects.create('Group type names');
    const identify = (type: string) => ({ event: '$groupidentify', distinct_id: someone(), properties: { $group_type: type, $group_key: 'k' } });
    await capture([identify('company'), identify('team')], project.api_token);
    const res = await s.app.inject({ url: `/api/projects/${project.id}/group_types/`, headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      results: [
        { group_type_index: 0, group_type: 'company' },
        { group_type_index: 1, group_type: 'team' },
      ],
    });
    const none = await s.app.inject({ url: `/api/projects/${(await s.services.projects.create('No groups')).id}/group_types/`, headers: s.headers });
    expect(none.json()).toEqual({ results: [] });
  });

  it('needs person:read', async () => {
    const url = `/api/projects/${s.projectId}/group_types/`;
    expect((await s.app.inject({ url, headers: s.auth(await s.keyWith(['feature_flag:read'])) })).statusCode).toBe(403);
    expect((await s.app.inject({ url, headers: s.auth(await s.keyWith(['person:read'])) })).statusCode).toBe(200);
  });
});
