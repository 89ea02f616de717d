import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
let base: string;
beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/feature_flags/`;
});
afterAll(() => s.close());

let n = 0;
const key = (prefix = 'flag') => `${prefix}-${++n}`;
const create = (payload: Record<string, unknown>) => s.app.inject({ method: 'POST', url: base, headers: s.headers, payload });
const patch = (id: number, payload: Record<string, unknown>) => s.app.inject({ method: 'PATCH', url: `${base}${id}/`, headers: s.headers, payload });
const get = (id: number) => s.app.inject({ url: `${base}${id}`, headers: s.headers });

describe('feature flags', () => {
  it('creates a flag with defaults and stores filters as given', async () => {
    const filters = {
      groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }], rollout_percentage: 50 }],
      payloads: { true: '{"x":1}' },
    };
    const res = await create({ key: key(), name: 'A flag', filters });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'A flag',
      filters,
      active: true,
      deleted: false,
      ensure_experience_continuity: false,
      version: 1,
      team_id: s.projectId,
    });
    // One flag read also says what uses it: nothing yet.
    expect((await get(res.json().id)).json()).toEqual({ ...res.json(), used_by: [] });
  });

  it('names what uses a flag when one is read: its early access feature, its experiments newest first', async () => {
    const boolean = (await create({ key: key('beta') })).json();
    const feature = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: s.headers,
      payload: { name: 'New editor', stage: 'beta', feature_flag_id: boolean.id },
    });
    expect(feature.statusCode, feature.body).toBe(201);
    expect((await get(boolean.id)).json().used_by).toEqual([{ type: 'early_access_feature', id: feature.json().id, name: 'New editor', status: 'beta' }]);

    const variants = [
      { key: 'control', rollout_percentage: 50 },
      { key: 'test', rollout_percentage: 50 },
    ];
    const multivariate = (
      await create({ key: key('split'), filters: { groups: [{ properties: [], rollout_percentage: 100 }], multivariate: { variants } } })
    ).json();
    const experiments = `/api/projects/${s.projectId}/experiments/`;
    const experiment = (body: Record<string, unknown>) => s.app.inject({ method: 'POST', url: experiments, headers: s.headers, payload: body });
    const first = await experiment({
      name: 'First try',
      feature_flag_key: multivariate.key,
      metrics: [{ kind: 'conversion', event: 'buy' }],
      status: 'running',
    });
    expect(first.statusCode, first.body).toBe(201);
    await s.app.inject({ method: 'PATCH', url: `${experiments}${first.json().id}/`, headers: s.headers, payload: { status: 'complete' } });
    const second = await experiment({ name: 'Second try', feature_flag_key: multivariate.key });
    expect(second.statusCode, second.body).toBe(201);
    expect((await get(multivariate.id)).json().used_by).toEqual([
      { type: 'experiment', id: second.json().id, name: 'Second try', status: 'draft' },
      { type: 'experiment', id: first.json().id, name: 'First try', status: 'complete' },
    ]);
  });

  it('defaults filters to no groups', async () => {
    expect((await create({ key: key() })).json().filters).toEqual({ groups: [] });
  });

  it.each(['foo?bar=baz', 'foo/bar', 'foo\\bar', 'foo.bar', 'foo bar'])('rejects the key %j', async (bad) => {
    const res = await create({ key: bad });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'validation_error',
      code: 'invalid_key',
      detail: 'Only letters, numbers, hyphens (-) & underscores (_) are allowed.',
      attr: 'key',
    });
  });

  it('rejects a missing key, a key over 400 characters and a duplicate key', async () => {
    expect((await create({ name: 'x' })).json()).toMatchObject({ code: 'required', attr: 'key' });
    expect((await create({ key: 'k'.repeat(401) })).json()).toMatchObject({
      code: 'max_length',
      attr: 'key',
      detail: 'Ensure this field has no more than 400 characters.',
    });
    expect((await create({ key: 'k'.repeat(400) })).statusCode).toBe(201);
    const k = key();
    await create({ key: k });
    expect((await create({ key: k })).json()).toEqual({
      type: 'validation_error',
      code: 'unique',
      detail: 'There is already a feature flag with this key.',
      attr: 'key',
    });
  });

  it('rejects filters that are not an object', async () => {
    const res = await create({ key: key(), filters: [1] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_input', attr: 'filters' });
  });

  it.each([
    [{ groups: 'all' }, 'filters__groups'],
    [{ groups: [{ properties: [], rollout_percentage: 150 }] }, 'filters__groups'],
    [{ groups: [{ properties: [{ key: 'a', type: 'person', operator: 'sounds_like', value: 'x' }] }] }, 'filters__groups'],
    [{ groups: [{ properties: [{ key: 'a', type: 'event', value: 'x' }] }] }, 'filters'],
    [
      {
        groups: [],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 60 },
            { key: 'b', rollout_percentage: 30 },
          ],
        },
      },
      'filters',
    ],
    [
      {
        groups: [],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'a', rollout_percentage: 50 },
          ],
        },
      },
      'filters__multivariate',
    ],
    [{ groups: [{ properties: [], variant: 'missing' }], multivariate: { variants: [{ key: 'a', rollout_percentage: 100 }] } }, 'filters'],
    [{ groups: [], payloads: { 'not-true': '1' } }, 'filters'],
    [{ groups: [], aggregation_group_type_index: 7 }, 'filters__aggregation_group_type_index'],
  ])('rejects the filters %j with 400 naming %s, on create and on update', async (filters, attr) => {
    const created = await create({ key: key(), filters });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json()).toMatchObject({ type: 'validation_error', code: 'invalid_input', attr });
    const flag = (await create({ key: key() })).json();
    const updated = await patch(flag.id, { filters });
    expect(updated.statusCode).toBe(400);
    expect(updated.json()).toMatchObject({ attr });
    expect((await get(flag.id)).json().filters).toEqual({ groups: [] });
  });

  it('updates fields and bumps the version', async () => {
    const flag = (await create({ key: key() })).json();
    const res = await patch(flag.id, {
      name: 'renamed',
      active: false,
      ensure_experience_continuity: true,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'renamed',
      active: false,
      ensure_experience_continuity: true,
      version: 2,
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
  });

  it('soft deletes through PATCH deleted, hides the flag from the list and frees its key', async () => {
    const k = key();
    const flag = (await create({ key: k })).json();
    expect((await patch(flag.id, { deleted: true })).json().deleted).toBe(true);
    const page = (await s.app.inject({ url: `${base}?limit=1000`, headers: s.headers })).json();
    expect(page.results.map((f: { id: number }) => f.id)).not.toContain(flag.id);
    expect((await get(flag.id)).json().deleted).toBe(true);
    expect((await create({ key: k })).statusCode).toBe(201);
    expect((await patch(flag.id, { deleted: false })).json()).toMatchObject({ code: 'unique', attr: 'key' });
  });

  it('lists newest first, filters by search and active', async () => {
    const a = (await create({ key: 'searchable-alpha', name: 'First' })).json();
    const b = (await create({ key: 'other-beta', name: 'Searchable second', active: false })).json();
    const found = (await s.app.inject({ url: `${base}?search=SEARCHABLE`, headers: s.headers })).json();
    expect(found.results.map((f: { id: number }) => f.id)).toEqual([b.id, a.id]);
    const active = (await s.app.inject({ url: `${base}?search=searchable&active=false`, headers: s.headers })).json();
    expect(active.results.map((f: { id: number }) => f.id)).toEqual([b.id]);
  });

  it("answers 404 for unknown, non-integer and other projects' flags", async () => {
    for (const id of ['999999', 'abc', '1.5']) expect((await s.app.inject({ url: `${base}${id}/`, headers: s.headers })).statusCode).toBe(404);
    const other = await s.services.projects.create('other');
    const foreign = (
      await s.app.inject({ method: 'POST', url: `/api/projects/${other.id}/feature_flags/`, headers: s.headers, payload: { key: key() } })
    ).json();
    expect((await get(foreign.id)).statusCode).toBe(404);
    expect((await patch(foreign.id, { name: 'x' })).statusCode).toBe(404);
  });
});

describe('flags linked to early access features', () => {
  async function linked(stage = 'beta') {
    const feature = (
      await s.app.inject({
        method: 'POST',
        url: `/api/projects/${s.projectId}/early_access_feature/`,
        headers: s.headers,
        payload: { name: `Linked ${++n}`, stage },
      })
    ).json();
    return feature.feature_flag as { id: number; key: string };
  }

  it('refuses a soft delete while a feature is linked', async () => {
    const flag = await linked();
    const res = await patch(flag.id, { deleted: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: 'Cannot delete a feature flag that is in use with early access features. Please delete the early access feature before deleting the flag.',
      attr: null,
    });
    expect((await get(flag.id)).json().deleted).toBe(false);
  });

  it('refuses turning a linked flag group-based', async () => {
    const flag = await linked();
    const res = await patch(flag.id, { filters: { aggregation_group_type_index: 0, groups: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Cannot change this flag to a group-based when linked to an Early Access Feature.');
  });

  it('points enrollment at the new key when a linked flag is renamed', async () => {
    const flag = await linked();
    const res = await patch(flag.id, { key: `${flag.key}-renamed` });
    expect(res.statusCode).toBe(200);
    expect(res.json().filters.super_groups[0].properties[0].key).toBe(`$feature_enrollment/${flag.key}-renamed`);
  });

  it('keeps enrollment when filters are replaced without super_groups', async () => {
    const flag = await linked();
    const res = await patch(flag.id, { filters: { groups: [{ properties: [], rollout_percentage: 20 }] } });
    expect(res.json().filters.groups).toEqual([{ properties: [], rollout_percentage: 20 }]);
    expect(res.json().filters.super_groups[0].properties[0].key).toBe(`$feature_enrollment/${flag.key}`);
  });
});

describe('GET /api/projects/:project_id/feature_flags/?type=&has_early_access=', () => {
  // In a project of their own, so that the counts are exactly these flags.
  let url: string;
  const ids: Record<string, number> = {};
  const listed = async (query: string) => {
    const res = await s.app.inject({ url: `${url}${query}`, headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { count: number; next: string | null; results: { id: number }[] };
  };
  const names = (page: { results: { id: number }[] }) => page.results.map((f) => Object.keys(ids).find((name) => ids[name] === f.id));

  beforeAll(async () => {
    const project = await s.services.projects.create('Flag filters');
    url = `/api/projects/${project.id}/feature_flags/`;
    const variants = {
      variants: [
        { key: 'control', rollout_percentage: 50 },
        { key: 'test', rollout_percentage: 50 },
      ],
    };
    const flags: [string, Record<string, unknown>][] = [
      ['plain', { groups: [{ properties: [], rollout_percentage: 100 }] }],
      ['empty-variants', { groups: [], multivariate: { variants: [] } }],
      ['null-multivariate', { groups: [], multivariate: null }],
      ['multi', { groups: [{ properties: [], rollout_percentage: 100 }], multivariate: variants }],
      ['multi-nul', { groups: [{ properties: [{ key: 'x', type: 'person', operator: 'exact', value: ['a\u0000'] }] }], multivariate: variants }],
    ];
    for (const [name, filters] of flags) {
      const res = await s.app.inject({ method: 'POST', url, headers: s.headers, payload: { key: name, filters } });
      expect(res.statusCode, res.body).toBe(201);
      ids[name] = res.json().id;
    }
    const feature = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${project.id}/early_access_feature/`,
      headers: s.headers,
      payload: { name: 'Early', stage: 'beta' },
    });
    expect(feature.statusCode, feature.body).toBe(201);
    ids.early = feature.json().feature_flag.id;
  });

  it('filters by type: multivariant (with at least one variant) or boolean (the others)', async () => {
    expect(names(await listed('?type=multivariant'))).toEqual(['multi-nul', 'multi']);
    expect(names(await listed('?type=boolean'))).toEqual(['early', 'null-multivariate', 'empty-variants', 'plain']);
  });

  it('filters by has_early_access, with the other filters, keeping count and paging right', async () => {
    expect(names(await listed('?has_early_access=true'))).toEqual(['early']);
    const without = await listed('?has_early_access=false&limit=2');
    expect(without.count).toBe(5);
    expect(names(without)).toEqual(['multi-nul', 'multi']);
    expect(without.next).toContain('has_early_access=false');
    expect(names(await listed('?has_early_access=false&limit=2&offset=2'))).toEqual(['null-multivariate', 'empty-variants']);
    const both = await listed('?type=boolean&has_early_access=false&search=multi');
    expect(both.count).toBe(1);
    expect(names(both)).toEqual(['null-multivariate']);
    expect(names(await listed('?type=multivariant&has_early_access=true'))).toEqual([]);
  });

  it('answers 400 naming type or has_early_access for another value', async () => {
    for (const [query, attr] of [
      ['?type=experiment', 'type'],
      ['?has_early_access=maybe', 'has_early_access'],
    ]) {
      const res = await s.app.inject({ url: `${url}${query}`, headers: s.headers });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', attr });
    }
  });
});
