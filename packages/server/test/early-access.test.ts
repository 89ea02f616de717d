import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
let base: string;
beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/early_access_feature`;
});
afterAll(() => s.close());

const enrollment = (key: string) => [
  { properties: [{ key: `$feature_enrollment/${key}`, type: 'person', operator: 'exact', value: ['true'] }], rollout_percentage: 100 },
];

let n = 0;
const unique = (prefix: string) => `${prefix} ${++n} ${Date.now()}`;

async function create(body: Record<string, unknown>) {
  return s.app.inject({ method: 'POST', url: `${base}/`, headers: s.headers, payload: body });
}
async function createFlag(body: Record<string, unknown>) {
  const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload: body });
  expect(res.statusCode).toBe(201);
  return res.json();
}
async function flag(id: number) {
  return (await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/${id}`, headers: s.headers })).json();
}
const patch = (id: string, body: Record<string, unknown>) => s.app.inject({ method: 'PATCH', url: `${base}/${id}`, headers: s.headers, payload: body });

describe('create', () => {
  it('creates a feature and a flag named after it, answering 201 with feature_flag_id and feature_flag', async () => {
    const res = await create({ name: 'Hick bondoogling', description: 'A revolution', stage: 'beta', documentation_url: 'https://docs.example.com/x' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['created_at', 'description', 'documentation_url', 'feature_flag', 'feature_flag_id', 'id', 'name', 'payload', 'stage'].sort(),
    );
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(body).toMatchObject({
      name: 'Hick bondoogling',
      description: 'A revolution',
      stage: 'beta',
      documentation_url: 'https://docs.example.com/x',
      payload: null,
    });
    expect(body.feature_flag_id).toBe(body.feature_flag.id);
    expect(Object.keys(body.feature_flag).sort()).toEqual(['active', 'deleted', 'ensure_experience_continuity', 'filters', 'id', 'key', 'name', 'team_id']);
    expect(body.feature_flag).toMatchObject({
      key: 'hick-bondoogling',
      name: 'Feature Flag for Feature Hick bondoogling',
      team_id: s.projectId,
      active: true,
      deleted: false,
      ensure_experience_continuity: false,
    });
    expect(body.feature_flag.filters).toEqual({
      groups: [{ properties: [], rollout_percentage: 0, variant: null }],
      super_groups: enrollment('hick-bondoogling'),
    });
  });

  it('defaults description and documentation_url to empty strings', async () => {
    const res = await create({ name: unique('Defaults'), stage: 'draft' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ description: '', documentation_url: '' });
  });

  it.each(['draft', 'concept', 'archived'])('creates a %s feature with no enrollment on its new flag (concept is a waitlist)', async (stage) => {
    const body = (await create({ name: unique('Quiet'), stage })).json();
    expect(body.feature_flag.filters).toEqual({ groups: [{ properties: [], rollout_percentage: 0, variant: null }] });
  });

  it.each(['alpha', 'beta', 'general-availability'])('creates a %s feature with enrollment on', async (stage) => {
    const body = (await create({ name: unique('Loud'), stage })).json();
    expect(body.feature_flag.filters.super_groups).toEqual(enrollment(body.feature_flag.key));
  });

  it('slugifies the name into the flag key the way Django does', async () => {
    const body = (await create({ name: `  Ünïcode -- Name_with  symbols!? ${n}`, stage: 'draft' })).json();
    expect(body.feature_flag.key).toBe(`unicode-name_with-symbols-${n}`);
  });

  it('links an existing flag and keeps its filters, adding enrollment in a release stage', async () => {
    const filters = {
      groups: [{ properties: [{ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }], rollout_percentage: 30 }],
      payloads: { true: '{"a":1}' },
    };
    const existing = await createFlag({ key: `linked-${Date.now()}`, name: 'mine', filters });
    const res = await create({ name: unique('Linked'), stage: 'beta', feature_flag_id: existing.id });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.feature_flag_id).toBe(existing.id);
    expect(body.feature_flag.filters).toEqual({ ...filters, super_groups: enrollment(existing.key) });
    expect((await flag(existing.id)).filters).toEqual({ ...filters, super_groups: enrollment(existing.key) });
  });

  it('links an existing flag without touching it in a draft stage', async () => {
    const existing = await createFlag({ key: `draft-link-${Date.now()}`, filters: { groups: [] } });
    const body = (await create({ name: unique('Draft link'), stage: 'draft', feature_flag_id: existing.id })).json();
    expect(body.feature_flag.filters).toEqual({ groups: [] });
    expect((await flag(existing.id)).version).toBe(1);
  });

  it('treats feature_flag_id 0 and null as not given', async () => {
    for (const feature_flag_id of [0, null]) {
      const res = await create({ name: unique('Zero'), stage: 'draft', feature_flag_id });
      expect(res.statusCode).toBe(201);
      expect(res.json().feature_flag.key).toMatch(/^zero-/);
    }
  });

  it('ignores unknown fields and read-only fields', async () => {
    const res = await create({
      name: unique('Extra'),
      stage: 'draft',
      id: '00000000-0000-0000-0000-000000000000',
      created_at: '2000-01-01T00:00:00Z',
      color: 'red',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().id).not.toBe('00000000-0000-0000-0000-000000000000');
    expect(res.json().created_at).not.toBe('2000-01-01T00:00:00Z');
    expect(res.json()).not.toHaveProperty('color');
  });
});

describe('create validation', () => {
  const cases: [string, Record<string, unknown>, { code: string; attr: string | null; detail: string }][] = [
    ['name missing', { stage: 'beta' }, { code: 'required', attr: 'name', detail: 'This field is required.' }],
    ['stage missing', { name: 'x' }, { code: 'required', attr: 'stage', detail: 'This field is required.' }],
    ['name blank', { name: '', stage: 'beta' }, { code: 'blank', attr: 'name', detail: 'This field may not be blank.' }],
    [
      'name over 200',
      { name: 'x'.repeat(201), stage: 'beta' },
      { code: 'max_length', attr: 'name', detail: 'Ensure this field has no more than 200 characters.' },
    ],
    ['name not a string', { name: { a: 1 }, stage: 'beta' }, { code: 'invalid_input', attr: 'name', detail: 'Not a valid string.' }],
    ['unknown stage', { name: 'x', stage: 'shipped' }, { code: 'invalid_choice', attr: 'stage', detail: '"shipped" is not a valid choice.' }],
    [
      'bad url',
      { name: 'x', stage: 'beta', documentation_url: 'not a url' },
      { code: 'invalid_input', attr: 'documentation_url', detail: 'Enter a valid URL.' },
    ],
    [
      'non-http url',
      { name: 'x', stage: 'beta', documentation_url: 'ftp://example.com/a' },
      { code: 'invalid_input', attr: 'documentation_url', detail: 'Enter a valid URL.' },
    ],
    [
      'url over 800',
      { name: 'x', stage: 'beta', documentation_url: `https://example.com/${'a'.repeat(790)}` },
      { code: 'max_length', attr: 'documentation_url', detail: 'Ensure this field has no more than 800 characters.' },
    ],
    [
      'feature_flag_id not an integer',
      { name: 'x', stage: 'beta', feature_flag_id: 'abc' },
      { code: 'invalid_input', attr: 'feature_flag_id', detail: 'A valid integer is required.' },
    ],
    [
      'feature_flag_id unknown',
      { name: 'x', stage: 'beta', feature_flag_id: 999999 },
      { code: 'invalid_input', attr: null, detail: 'Feature Flag with this ID does not exist' },
    ],
    ['name that slugifies to nothing', { name: '日本語 ÆØ', stage: 'beta' }, { code: 'blank', attr: 'key', detail: 'This field may not be blank.' }],
    [
      'body that is not an object',
      [1, 2] as unknown as Record<string, unknown>,
      { code: 'invalid_input', attr: null, detail: 'Invalid data. Expected a dictionary.' },
    ],
  ];
  it.each(cases)('rejects %s with 400', async (_name, body, expected) => {
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'validation_error', ...expected });
  });

  it('accepts a name of exactly 200 characters and a url of exactly 800', async () => {
    const url = `https://example.com/${'a'.repeat(800 - 'https://example.com/'.length)}`;
    const res = await create({ name: `${'y'.repeat(190)}${String(Date.now()).slice(-10)}`, stage: 'draft', documentation_url: url });
    expect(res.statusCode).toBe(201);
    expect(res.json().documentation_url).toHaveLength(800);
  });

  it('refuses a name whose key belongs to a linked flag, naming the flag and its feature, and leaves nothing behind', async () => {
    const name = unique('Twice');
    const first = (await create({ name, stage: 'beta' })).json();
    const before = (await s.app.inject({ url: `${base}/`, headers: s.headers })).json().count;
    const res = await create({ name, stage: 'beta', description: 'again' });
    expect(res.statusCode).toBe(400);
    const key = first.feature_flag.key;
    expect(res.json()).toEqual({
      type: 'validation_error',
      code: 'unique',
      detail: `The name ${JSON.stringify(name)} makes the flag key ${key}, and there is already a feature flag ${key} (id ${first.feature_flag_id}), used by the early access feature ${JSON.stringify(name)}. Choose another name.`,
      attr: 'name',
    });
    expect((await s.app.inject({ url: `${base}/`, headers: s.headers })).json().count).toBe(before);
  });

  it('re-creating a deleted feature names the flag it left and how to link it, which then works', async () => {
    const name = unique('Again');
    const first = (await create({ name, stage: 'beta' })).json();
    expect((await s.app.inject({ method: 'DELETE', url: `${base}/${first.id}`, headers: s.headers })).statusCode).toBe(204);
    const res = await create({ name, stage: 'beta' });
    expect(res.statusCode).toBe(400);
    const { key, id } = first.feature_flag;
    expect(res.json()).toEqual({
      type: 'validation_error',
      code: 'unique',
      detail: `The name ${JSON.stringify(name)} makes the flag key ${key}, and there is already a feature flag ${key} (id ${id}). To use it for this feature, link it (feature_flag_id ${id}); or choose another name.`,
      attr: 'name',
    });
    const linked = await create({ name, stage: 'beta', feature_flag_id: id });
    expect(linked.statusCode).toBe(201);
    expect(linked.json().feature_flag).toMatchObject({ id, key });
  });

  it('does not let a soft-deleted flag block a new key', async () => {
    const name = unique('Reborn');
    const first = (await create({ name, stage: 'draft' })).json();
    await s.app.inject({ method: 'DELETE', url: `${base}/${first.id}`, headers: s.headers });
    const del = await s.app.inject({
      method: 'PATCH',
      url: `/api/projects/${s.projectId}/feature_flags/${first.feature_flag.id}`,
      headers: s.headers,
      payload: { deleted: true },
    });
    expect(del.statusCode).toBe(200);
    expect((await create({ name, stage: 'draft' })).statusCode).toBe(201);
  });

  it('rejects linking a flag that already has a feature', async () => {
    const existing = await createFlag({ key: `taken-${Date.now()}` });
    expect((await create({ name: unique('First'), stage: 'beta', feature_flag_id: existing.id })).statusCode).toBe(201);
    const res = await create({ name: unique('Second'), stage: 'beta', feature_flag_id: existing.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: `Linked feature flag ${existing.key} already has a feature attached to it.`,
      attr: null,
    });
  });

  it('links a group-based flag, with the enrollment condition on the group property of its group type', async () => {
    const existing = await createFlag({
      key: `group-${Date.now()}`,
      filters: { aggregation_group_type_index: 2, groups: [{ properties: [], rollout_percentage: 0 }] },
    });
    const res = await create({ name: unique('Group'), stage: 'beta', feature_flag_id: existing.id });
    expect(res.statusCode).toBe(201);
    const superGroups = [
      {
        properties: [{ key: `$feature_enrollment/${existing.key}`, type: 'group', group_type_index: 2, operator: 'exact', value: ['true'] }],
        rollout_percentage: 100,
        aggregation_group_type_index: 2,
      },
    ];
    expect(res.json().feature_flag.filters.super_groups).toEqual(superGroups);
    expect((await flag(existing.id)).filters.super_groups).toEqual(superGroups);
  });

  it('rejects linking a multivariate flag', async () => {
    const existing = await createFlag({
      key: `multi-${Date.now()}`,
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'b', rollout_percentage: 50 },
          ],
        },
      },
    });
    const res = await create({ name: unique('Multi'), stage: 'beta', feature_flag_id: existing.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Multivariate feature flags are not supported for Early Access Features.');
  });

  it('rejects linking a flag of another project as if it did not exist', async () => {
    const other = await s.services.projects.create('Other');
    const foreign = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${other.id}/feature_flags/`,
      headers: s.headers,
      payload: { key: `foreign-${Date.now()}` },
    });
    const res = await create({ name: unique('Foreign'), stage: 'beta', feature_flag_id: foreign.json().id });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Feature Flag with this ID does not exist');
  });

  it('rejects linking a soft-deleted flag as if it did not exist', async () => {
    const existing = await createFlag({ key: `gone-${Date.now()}` });
    await s.app.inject({ method: 'PATCH', url: `/api/projects/${s.projectId}/feature_flags/${existing.id}`, headers: s.headers, payload: { deleted: true } });
    const res = await create({ name: unique('Gone'), stage: 'beta', feature_flag_id: existing.id });
    expect(res.json().detail).toBe('Feature Flag with this ID does not exist');
  });
});

describe('retrieve, list and update shapes', () => {
  let created: Record<string, unknown> & { id: string };
  beforeEach(async () => {
    created = (await create({ name: unique('Shape'), stage: 'beta' })).json();
  });

  it('retrieves a feature with feature_flag and without feature_flag_id', async () => {
    const res = await s.app.inject({ url: `${base}/${created.id}/`, headers: s.headers });
    expect(res.statusCode).toBe(200);
    const { feature_flag_id: _, ...expected } = created;
    expect(res.json()).toEqual(expected);
  });

  it('answers without a trailing slash too', async () => {
    expect((await s.app.inject({ url: `${base}/${created.id}`, headers: s.headers })).statusCode).toBe(200);
    expect((await s.app.inject({ url: base, headers: s.headers })).statusCode).toBe(200);
  });

  it('lists features with feature_flag and without feature_flag_id', async () => {
    const page = (await s.app.inject({ url: `${base}/?limit=1000`, headers: s.headers })).json();
    const item = page.results.find((f: { id: string }) => f.id === created.id);
    expect(item).toBeDefined();
    expect(item).not.toHaveProperty('feature_flag_id');
    expect(item.feature_flag.id).toBe(created.feature_flag_id);
  });

  it('updates name, description and documentation_url and answers without feature_flag_id', async () => {
    const res = await patch(created.id, { name: 'Renamed', description: 'New words', documentation_url: 'http://localhost:3000/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Renamed', description: 'New words', documentation_url: 'http://localhost:3000/docs', stage: 'beta' });
    expect(res.json()).not.toHaveProperty('feature_flag_id');
    expect((await s.app.inject({ url: `${base}/${created.id}`, headers: s.headers })).json().name).toBe('Renamed');
  });

  it('ignores feature_flag_id, id and created_at on update', async () => {
    const other = await createFlag({ key: `other-${Date.now()}` });
    const res = await patch(created.id, { feature_flag_id: other.id, created_at: '2000-01-01T00:00:00Z' });
    expect(res.statusCode).toBe(200);
    expect(res.json().feature_flag.id).toBe(created.feature_flag_id);
    expect(res.json().created_at).toBe(created.created_at);
  });

  it.each([
    [{ name: '' }, 'blank', 'name'],
    [{ name: 'x'.repeat(201) }, 'max_length', 'name'],
    [{ stage: 'nope' }, 'invalid_choice', 'stage'],
    [{ documentation_url: 'nope' }, 'invalid_input', 'documentation_url'],
  ])('rejects the update %j', async (body, code, attr) => {
    const res = await patch(created.id, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', code, attr });
  });

  it.each(['not-a-uuid', '00000000-0000-0000-0000-000000000000', '123'])('answers 404 for the id %s on every operation', async (id) => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await s.app.inject({ method, url: `${base}/${id}/`, headers: s.headers, ...(method === 'PATCH' ? { payload: { name: 'x' } } : {}) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    }
  });

  it('answers 404 for a feature of another project', async () => {
    const other = await s.services.projects.create('Elsewhere');
    const res = await s.app.inject({ url: `/api/projects/${other.id}/early_access_feature/${created.id}`, headers: s.headers });
    expect(res.statusCode).toBe(404);
  });

  it('answers 405 to POST on a feature and PUT anywhere', async () => {
    const post = await s.app.inject({ method: 'POST', url: `${base}/${created.id}/`, headers: s.headers, payload: {} });
    expect(post.statusCode).toBe(405);
    expect(post.json()).toEqual({ type: 'invalid_request', code: 'method_not_allowed', detail: 'Method "POST" not allowed.', attr: null });
    const put = await s.app.inject({ method: 'PUT', url: `${base}/${created.id}/`, headers: s.headers, payload: { name: 'x', stage: 'beta' } });
    expect(put.statusCode).toBe(405);
  });
});

describe('payload', () => {
  const payload = { title: 'Dark mode', nested: { list: [1, 'two', null, true], unicode: 'ünï 日本' }, empty: {} };

  it('stores a JSON object on create and returns it from create, retrieve, list and update', async () => {
    const created = await create({ name: unique('Payload'), stage: 'beta', payload });
    expect(created.statusCode).toBe(201);
    expect(created.json().payload).toEqual(payload);
    const id = created.json().id;
    expect((await s.app.inject({ url: `${base}/${id}/`, headers: s.headers })).json().payload).toEqual(payload);
    const page = (await s.app.inject({ url: `${base}/?limit=1000`, headers: s.headers })).json();
    expect(page.results.find((f: { id: string }) => f.id === id).payload).toEqual(payload);
    const renamed = await patch(id, { name: unique('Payload renamed') });
    expect(renamed.json().payload).toEqual(payload);
  });

  it('replaces the payload on update and clears it with null', async () => {
    const id = (await create({ name: unique('Replace'), stage: 'draft' })).json().id;
    expect((await patch(id, { payload: { a: 1 } })).json().payload).toEqual({ a: 1 });
    expect((await s.app.inject({ url: `${base}/${id}`, headers: s.headers })).json().payload).toEqual({ a: 1 });
    expect((await patch(id, { payload: null })).json().payload).toBeNull();
    expect((await s.app.inject({ url: `${base}/${id}`, headers: s.headers })).json().payload).toBeNull();
  });

  it('accepts a payload of exactly 64 KB as JSON and refuses one byte more with 400 on payload', async () => {
    const sized = (bytes: number) => ({ x: 'a'.repeat(bytes - JSON.stringify({ x: '' }).length) });
    expect(JSON.stringify(sized(65_536)).length).toBe(65_536);
    const ok = await create({ name: unique('Big'), stage: 'draft', payload: sized(65_536) });
    expect(ok.statusCode).toBe(201);
    const tooBig = await create({ name: unique('Too big'), stage: 'draft', payload: sized(65_537) });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json()).toMatchObject({ type: 'validation_error', attr: 'payload' });
    const update = await patch(ok.json().id, { payload: sized(65_537) });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toMatchObject({ type: 'validation_error', attr: 'payload' });
    // Multi-byte characters count as the bytes they take.
    const wide = await create({ name: unique('Wide'), stage: 'draft', payload: { x: 'é'.repeat(33_000) } });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().attr).toBe('payload');
  });

  it.each([
    ['a string', 'text'],
    ['a number', 5],
    ['a list', [1, 2]],
    ['a boolean', true],
  ])('refuses %s as payload with 400 on payload', async (_name, value) => {
    const res = await create({ name: unique('Bad payload'), stage: 'draft', payload: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'payload' });
    const id = (await create({ name: unique('Good payload'), stage: 'draft' })).json().id;
    const update = await patch(id, { payload: value });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toMatchObject({ type: 'validation_error', attr: 'payload' });
  });
});

describe('stage transitions', () => {
  const transitions: [string, string, 'on' | 'off' | 'kept'][] = [
    ['draft', 'concept', 'off'],
    ['draft', 'alpha', 'on'],
    ['draft', 'beta', 'on'],
    ['draft', 'general-availability', 'on'],
    ['draft', 'archived', 'off'],
    ['concept', 'beta', 'on'],
    ['concept', 'alpha', 'on'],
    ['concept', 'general-availability', 'on'],
    ['beta', 'concept', 'off'],
    ['general-availability', 'concept', 'off'],
    ['alpha', 'beta', 'kept'],
    ['beta', 'general-availability', 'kept'],
    ['beta', 'alpha', 'kept'],
    ['beta', 'draft', 'off'],
    ['beta', 'archived', 'off'],
    ['general-availability', 'archived', 'off'],
    ['archived', 'beta', 'on'],
    ['archived', 'draft', 'off'],
  ];
  it.each(transitions)('%s → %s turns enrollment %s', async (from, to, effect) => {
    const created = (await create({ name: unique(`${from} ${to}`), stage: from })).json();
    const key = created.feature_flag.key;
    const res = await patch(created.id, { stage: to });
    expect(res.statusCode).toBe(200);
    expect(res.json().stage).toBe(to);
    const filters = (await flag(created.feature_flag_id)).filters;
    expect(res.json().feature_flag.filters).toEqual(filters);
    if (effect === 'off') expect(filters.super_groups ?? null).toBeNull();
    else expect(filters.super_groups).toEqual(enrollment(key));
    expect(filters.groups).toEqual([{ properties: [], rollout_percentage: 0, variant: null }]);
  });

  it('keeps enrollment on a PATCH without stage', async () => {
    const created = (await create({ name: unique('Keep'), stage: 'beta' })).json();
    await patch(created.id, { description: 'only words' });
    expect((await flag(created.feature_flag_id)).filters.super_groups).toEqual(enrollment(created.feature_flag.key));
  });

  it('keeps the rest of a linked flag when enrollment changes', async () => {
    const filters = { groups: [{ properties: [], rollout_percentage: 25 }], payloads: { true: '"p"' } };
    const existing = await createFlag({ key: `keep-rest-${Date.now()}`, filters });
    const created = (await create({ name: unique('Rest'), stage: 'draft', feature_flag_id: existing.id })).json();
    await patch(created.id, { stage: 'beta' });
    expect((await flag(existing.id)).filters).toEqual({ ...filters, super_groups: enrollment(existing.key) });
    await patch(created.id, { stage: 'archived' });
    expect((await flag(existing.id)).filters).toEqual({ ...filters, super_groups: null });
  });
});

describe('delete', () => {
  it('answers 204 with an empty body, clears enrollment and keeps the flag', async () => {
    const created = (await create({ name: unique('Doomed'), stage: 'beta' })).json();
    const res = await s.app.inject({ method: 'DELETE', url: `${base}/${created.id}/`, headers: s.headers });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await s.app.inject({ url: `${base}/${created.id}`, headers: s.headers })).statusCode).toBe(404);
    const kept = await flag(created.feature_flag_id);
    expect(kept).toMatchObject({ deleted: false, active: true, key: created.feature_flag.key });
    expect(kept.filters).toEqual({ groups: [{ properties: [], rollout_percentage: 0, variant: null }], super_groups: null });
  });

  it('frees the flag to be linked again', async () => {
    const created = (await create({ name: unique('Relink'), stage: 'beta' })).json();
    await s.app.inject({ method: 'DELETE', url: `${base}/${created.id}`, headers: s.headers });
    const again = await create({ name: unique('Relinked'), stage: 'alpha', feature_flag_id: created.feature_flag_id });
    expect(again.statusCode).toBe(201);
    expect(again.json().feature_flag.filters.super_groups).toEqual(enrollment(created.feature_flag.key));
  });
});
