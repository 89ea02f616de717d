import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWith, type Browser } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// Issue 13: the activity log. Every change to flags, early access features, webhooks, projects, personal API keys,
// members and invites records who made it (a session's user, a personal API key, the command line), when, and the
// changed fields before and after; read at /api/projects/:id/activity_log/ and /api/organization/activity_log/.

interface Entry {
  id: number;
  scope: string;
  item_id: string;
  activity: string;
  user: { id: number; email: string; name: string } | null;
  actor: { type: string; name: string; user_id: number | null; api_key_id: string | null };
  created_at: string;
  detail: { name: string | null; changes: { field: string; before: unknown; after: unknown }[] | null };
}

let s: TestService;
let owner: Browser & { email: string };
let member: Browser & { email: string };
let viewer: Browser & { email: string };
beforeAll(async () => {
  s = await startService();
  owner = await userWith(s, 'owner');
  member = await userWith(s, 'member');
  viewer = await userWith(s, 'viewer');
});
afterAll(() => s.close());

const flagsUrl = () => `/api/projects/${s.projectId}/feature_flags/`;
const logUrl = (query: Record<string, string | number>, projectId = s.projectId) =>
  `/api/projects/${projectId}/activity_log/?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`;
const orgLogUrl = (query: Record<string, string>) => `/api/organization/activity_log/?${new URLSearchParams(query)}`;

async function log(url: string, headers: Record<string, string> = s.headers): Promise<{ count: number; next: string | null; results: Entry[] }> {
  const res = await s.app.inject({ url, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

let seq = 0;
async function createFlag(headers: Record<string, string> = s.headers, projectId = s.projectId): Promise<{ id: number; key: string }> {
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/feature_flags/`,
    headers,
    payload: { key: `logged-${++seq}`, name: 'Logged', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('feature flags in the activity log', () => {
  it('a PATCH by a session user records the user and the before/after of only the changed fields', async () => {
    const flag = await createFlag(member.write);
    const res = await s.app.inject({
      method: 'PATCH',
      url: `${flagsUrl()}${flag.id}/`,
      headers: member.write,
      payload: { name: 'Renamed', active: false, key: flag.key },
    });
    expect(res.statusCode, res.body).toBe(200);

    const { results } = await log(logUrl({ scope: 'FeatureFlag', item_id: flag.id }), member.read);
    expect(results.map((e) => e.activity)).toEqual(['updated', 'created']);
    const [updated, created] = results as [Entry, Entry];
    expect(updated).toMatchObject({
      scope: 'FeatureFlag',
      item_id: String(flag.id),
      user: { id: member.id, email: member.email },
      actor: { type: 'user', user_id: member.id, api_key_id: null },
      detail: { name: flag.key },
    });
    // The key was sent unchanged: only name and active changed.
    expect(updated.detail.changes).toEqual([
      { field: 'name', before: 'Logged', after: 'Renamed' },
      { field: 'active', before: true, after: false },
    ]);
    expect(Date.parse(updated.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(created.detail.changes).toContainEqual({ field: 'key', before: null, after: flag.key });
    expect(created.detail.changes).toContainEqual({ field: 'filters', before: null, after: { groups: [{ properties: [], rollout_percentage: 50 }] } });
  });

  it('a change made with a personal API key records the key (and no session user)', async () => {
    const flag = await createFlag();
    await s.app.inject({ method: 'PATCH', url: `${flagsUrl()}${flag.id}/`, headers: s.headers, payload: { filters: { groups: [] } } });
    const [entry] = (await log(logUrl({ scope: 'FeatureFlag', item_id: flag.id }))).results as [Entry];
    const key = (await s.services.keys.list()).find((k) => k.label === 'test')!;
    expect(entry.user).toBeNull();
    expect(entry.actor).toEqual({ type: 'personal_api_key', name: 'test', user_id: null, api_key_id: key.id });
    expect(entry.detail.changes).toEqual([{ field: 'filters', before: { groups: [{ properties: [], rollout_percentage: 50 }] }, after: { groups: [] } }]);
  });

  it('a soft delete is "deleted"; a refused change and a change to nothing record nothing', async () => {
    const flag = await createFlag();
    const url = `${flagsUrl()}${flag.id}/`;
    const refused = await s.app.inject({ method: 'PATCH', url, headers: s.headers, payload: { key: 'not valid!' } });
    expect(refused.statusCode).toBe(400);
    await s.app.inject({ method: 'PATCH', url, headers: s.headers, payload: { name: 'Logged' } });
    await s.app.inject({ method: 'PATCH', url, headers: s.headers, payload: { deleted: true } });
    const { results } = await log(logUrl({ scope: 'FeatureFlag', item_id: flag.id }));
    expect(results.map((e) => [e.activity, e.detail.changes])).toEqual([
      ['deleted', [{ field: 'deleted', before: false, after: true }]],
      ['created', expect.any(Array)],
    ]);
  });
});

describe('early access features in the activity log', () => {
  it('a stage change records the feature’s stage and, as the same actor, its flag’s enrollment condition', async () => {
    const created = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/early_access_feature/`,
      headers: member.write,
      payload: { name: `Logged feature ${++seq}`, stage: 'concept' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const feature = created.json() as { id: string; feature_flag_id: number };
    const patched = await s.app.inject({
      method: 'PATCH',
      url: `/api/projects/${s.projectId}/early_access_feature/${feature.id}/`,
      headers: owner.write,
      payload: { stage: 'beta', description: '' },
    });
    expect(patched.statusCode, patched.body).toBe(200);

    const features = (await log(logUrl({ scope: 'EarlyAccessFeature', item_id: feature.id }))).results;
    expect(features.map((e) => e.activity)).toEqual(['updated', 'created']);
    expect(features[0]).toMatchObject({ user: { id: owner.id }, detail: { changes: [{ field: 'stage', before: 'concept', after: 'beta' }] } });
    expect(features[1]).toMatchObject({ user: { id: member.id } });

    const flags = (await log(logUrl({ scope: 'FeatureFlag', item_id: feature.feature_flag_id }))).results;
    expect(flags.map((e) => [e.activity, e.user?.id])).toEqual([
      ['updated', owner.id],
      ['created', member.id],
    ]);
    const [change] = flags[0]!.detail.changes!;
    expect(change!.field).toBe('filters');
    expect((change!.before as { super_groups?: unknown }).super_groups).toBeUndefined();
    expect((change!.after as { super_groups: unknown[] }).super_groups).toHaveLength(1);

    await s.app.inject({ method: 'DELETE', url: `/api/projects/${s.projectId}/early_access_feature/${feature.id}/`, headers: owner.write });
    const [deleted] = (await log(logUrl({ scope: 'EarlyAccessFeature', item_id: feature.id }))).results;
    expect(deleted).toMatchObject({ activity: 'deleted', detail: { changes: null } });
  });
});

describe('webhooks in the activity log', () => {
  it('never records the secret, given or generated, on create or on change', async () => {
    const base = `/api/projects/${s.projectId}/webhooks/`;
    const created = await s.app.inject({
      method: 'POST',
      url: base,
      headers: owner.write,
      payload: { url: 'https://hooks.example.com/a', kinds: ['feature_flag.changed'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, secret } = created.json() as { id: string; secret: string };
    const given = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    await s.app.inject({ method: 'PATCH', url: `${base}${id}/`, headers: owner.write, payload: { secret: given, enabled: false } });
    await s.app.inject({ method: 'DELETE', url: `${base}${id}/`, headers: owner.write });

    const page = await log(logUrl({ scope: 'Webhook', item_id: id }));
    expect(page.results.map((e) => e.activity)).toEqual(['deleted', 'updated', 'created']);
    expect(page.results[1]!.detail.changes).toEqual([
      { field: 'enabled', before: true, after: false },
      { field: 'secret', before: '[hidden]', after: '[hidden] (new)' },
    ]);
    const text = JSON.stringify(page);
    for (const value of [secret, given, secret.slice(6, 30), given.slice(6, 30)]) expect(text).not.toContain(value);
    const stored = await s.services.db.kysely.selectFrom('activity_log').select('detail').where('item_id', '=', id).execute();
    expect(stored).toHaveLength(3);
    for (const row of stored) expect(row.detail).not.toMatch(/whsec_/);
  });
});

describe('organization changes in the activity log', () => {
  it('a member role change records before/after of the role, by whom', async () => {
    const target = await userWith(s, 'viewer');
    const res = await s.app.inject({ method: 'PATCH', url: `/api/organization/members/${target.id}/`, headers: owner.write, payload: { role: 'member' } });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = await log(orgLogUrl({ scope: 'OrganizationMembership', item_id: String(target.id) }), viewer.read);
    expect(results.map((e) => e.activity)).toEqual(['updated', 'created']);
    expect(results[0]).toMatchObject({
      user: { id: owner.id },
      detail: { name: target.email, changes: [{ field: 'role', before: 'viewer', after: 'member' }] },
    });
    // Made by `service users create`: the command line.
    expect(results[1]).toMatchObject({ user: null, actor: { type: 'command_line', name: 'command line' } });

    await s.app.inject({ method: 'DELETE', url: `/api/organization/members/${target.id}/`, headers: owner.write });
    const [removed] = (await log(orgLogUrl({ scope: 'OrganizationMembership', item_id: String(target.id) }))).results;
    expect(removed).toMatchObject({ activity: 'deleted', user: { id: owner.id }, detail: { name: target.email, changes: null } });
  });

  it('records personal API keys made and revoked, invites made, accepted and withdrawn, never their secrets', async () => {
    const made = await s.app.inject({
      method: 'POST',
      url: '/api/personal_api_keys/',
      headers: member.write,
      payload: { label: 'ci', scopes: ['feature_flag:read'] },
    });
    const key = made.json() as { id: string; value: string };
    await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${key.id}/`, headers: member.write });
    const keys = await log(orgLogUrl({ scope: 'PersonalAPIKey', item_id: key.id }));
    expect(keys.results.map((e) => [e.activity, e.user?.id, e.detail.name])).toEqual([
      ['deleted', member.id, 'ci'],
      ['created', member.id, 'ci'],
    ]);
    expect(keys.results[1]!.detail.changes).toContainEqual({ field: 'scopes', before: null, after: ['feature_flag:read'] });
    expect(JSON.stringify(keys)).not.toContain(key.value);

    const invite = async () =>
      (await s.app.inject({ method: 'POST', url: '/api/organization/invites/', headers: owner.write, payload: { role: 'viewer' } })).json();
    const accepted = (await invite()) as { id: string; url: string };
    const token = accepted.url.split('/invite/')[1]!;
    const joined = await s.app.inject({
      method: 'POST',
      url: `/api/invites/${token}/accept`,
      payload: { email: `joiner-${++seq}@example.com`, name: 'Joiner', password: 'correct horse battery' },
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const withdrawn = (await invite()) as { id: string };
    await s.app.inject({ method: 'DELETE', url: `/api/organization/invites/${withdrawn.id}/`, headers: owner.write });

    const first = (await log(orgLogUrl({ scope: 'OrganizationInvite', item_id: accepted.id }))).results;
    expect(first.map((e) => [e.activity, e.actor.name])).toEqual([
      ['updated', 'Joiner'],
      ['created', owner.email.split('@')[0]],
    ]);
    expect(first[1]!.detail.changes).toContainEqual({ field: 'role', before: null, after: 'viewer' });
    expect(JSON.stringify(first)).not.toContain(token);
    const joiner = (await log(orgLogUrl({ scope: 'OrganizationMembership', item_id: String(joined.json().id) }))).results;
    expect(joiner).toMatchObject([{ activity: 'created', user: { id: joined.json().id, name: 'Joiner' } }]);
    const second = (await log(orgLogUrl({ scope: 'OrganizationInvite', item_id: withdrawn.id }))).results;
    expect(second.map((e) => e.activity)).toEqual(['deleted', 'created']);
  });

  it('records projects created and renamed, in the project’s own log', async () => {
    const created = await s.app.inject({ method: 'POST', url: '/api/projects/', headers: owner.write, payload: { name: 'Logged project' } });
    const project = created.json() as { id: number };
    await s.app.inject({ method: 'PATCH', url: `/api/projects/${project.id}/`, headers: owner.write, payload: { name: 'Renamed project' } });
    const { results } = await log(logUrl({ scope: 'Project' }, project.id));
    expect(results.map((e) => [e.activity, e.item_id, e.detail.changes])).toEqual([
      ['updated', String(project.id), [{ field: 'name', before: 'Logged project', after: 'Renamed project' }]],
      ['created', String(project.id), [{ field: 'name', before: null, after: 'Logged project' }]],
    ]);
  });
});

describe('reading the activity log', () => {
  it("shows a project's entries only: another project's are invisible", async () => {
    const other = await s.services.projects.create('Other logged');
    const theirs = await createFlag(s.headers, other.id);
    const ours = await createFlag();
    const here = await log(logUrl({ scope: 'FeatureFlag' }));
    expect(here.results.map((e) => e.item_id)).toContain(String(ours.id));
    expect(here.results.map((e) => e.item_id)).not.toContain(String(theirs.id));
    expect((await log(logUrl({ scope: 'FeatureFlag', item_id: theirs.id }))).count).toBe(0);
    expect((await log(logUrl({ scope: 'FeatureFlag', item_id: theirs.id }, other.id))).count).toBe(1);
    // Organization things are not in a project's log, and project things not in the organization's.
    expect((await log(logUrl({}))).results.every((e) => !['PersonalAPIKey', 'OrganizationMembership', 'OrganizationInvite'].includes(e.scope))).toBe(true);
    expect((await log(orgLogUrl({}))).results.every((e) => ['PersonalAPIKey', 'OrganizationMembership', 'OrganizationInvite'].includes(e.scope))).toBe(true);
  });

  it('pages newest first, and filters by scope and by item', async () => {
    const flag = await createFlag();
    for (const name of ['one', 'two', 'three', 'four']) {
      await s.app.inject({ method: 'PATCH', url: `${flagsUrl()}${flag.id}/`, headers: s.headers, payload: { name } });
    }
    const first = await log(logUrl({ scope: 'FeatureFlag', item_id: flag.id, limit: 2 }));
    expect(first.count).toBe(5);
    expect(first.results.map((e) => e.detail.changes![0]!.after)).toEqual(['four', 'three']);
    const second = await log(first.next!.replace(/^https?:\/\/[^/]+/, ''));
    expect(second.results.map((e) => e.detail.changes![0]!.after)).toEqual(['two', 'one']);
    const third = await log(second.next!.replace(/^https?:\/\/[^/]+/, ''));
    expect(third.results.map((e) => e.activity)).toEqual(['created']);
    expect(third.next).toBeNull();
    const ids = [...first.results, ...second.results, ...third.results].map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const flagsOnly = await log(logUrl({ scope: 'FeatureFlag', limit: 1000 }));
    expect(flagsOnly.results.every((e) => e.scope === 'FeatureFlag')).toBe(true);
    const all = await log(logUrl({ limit: 1000 }));
    expect(new Set(all.results.map((e) => e.scope))).toEqual(new Set(['FeatureFlag', 'EarlyAccessFeature', 'Webhook', 'Project']));
    for (let i = 1; i < all.results.length; i++) expect(all.results[i - 1]!.created_at >= all.results[i]!.created_at).toBe(true);
  });

  it('filters by who made the change: one user (in the web app and with their keys), or one kind of actor', async () => {
    const flag = await createFlag(member.write);
    const made = await s.app.inject({
      method: 'POST',
      url: '/api/personal_api_keys/',
      headers: member.write,
      payload: { label: 'member script', scopes: ['feature_flag:write'] },
    });
    const rename = (headers: Record<string, string>, name: string) =>
      s.app.inject({ method: 'PATCH', url: `${flagsUrl()}${flag.id}/`, headers, payload: { name } });
    expect((await rename(s.auth(made.json().value), 'by the member key')).statusCode).toBe(200);
    expect((await rename(owner.write, 'by the owner')).statusCode).toBe(200);
    expect((await rename(s.headers, 'by the command-line key')).statusCode).toBe(200);
    const actors = async (query: Record<string, string | number>) =>
      (await log(logUrl({ scope: 'FeatureFlag', item_id: flag.id, ...query }))).results.map((e) => [e.activity, e.actor.type, e.actor.name]);

    expect(await actors({ user_id: member.id })).toEqual([
      ['updated', 'personal_api_key', 'member script'],
      ['created', 'user', member.email.split('@')[0]],
    ]);
    expect(await actors({ user_id: owner.id })).toEqual([['updated', 'user', owner.email.split('@')[0]]]);
    expect(await actors({ actor_type: 'personal_api_key' })).toEqual([
      ['updated', 'personal_api_key', 'test'],
      ['updated', 'personal_api_key', 'member script'],
    ]);
    expect(await actors({ actor_type: 'user' })).toEqual([
      ['updated', 'user', owner.email.split('@')[0]],
      ['created', 'user', member.email.split('@')[0]],
    ]);
    expect(await actors({ actor_type: 'user', user_id: member.id })).toEqual([['created', 'user', member.email.split('@')[0]]]);
    expect(await actors({ actor_type: 'command_line' })).toEqual([]);
    // The command line made the project (bootstrap): its entry is the command line's.
    const project = await log(logUrl({ scope: 'Project', actor_type: 'command_line' }));
    expect(project.results.map((e) => [e.activity, e.item_id, e.actor.type])).toEqual([['created', String(s.projectId), 'command_line']]);

    for (const query of [{ user_id: 'ada' }, { user_id: 0 }, { actor_type: 'robot' }] as Record<string, string | number>[]) {
      const res = await s.app.inject({ url: logUrl(query), headers: s.headers });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', attr: Object.keys(query)[0] });
    }
  });

  it('answers 400 for an unknown scope, or one logged elsewhere', async () => {
    for (const url of [logUrl({ scope: 'Nonsense' }), logUrl({ scope: 'PersonalAPIKey' }), orgLogUrl({ scope: 'FeatureFlag' })]) {
      const res = await s.app.inject({ url, headers: s.headers });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', code: 'invalid_choice', attr: 'scope' });
    }
  });

  it("needs activity_log:read or the item's read scope: a viewer reads, a key without either gets 403", async () => {
    expect((await s.app.inject({ url: logUrl({ scope: 'FeatureFlag' }), headers: viewer.read })).statusCode).toBe(200);
    expect((await s.app.inject({ url: logUrl({}), headers: viewer.read })).statusCode).toBe(200);

    const flagReader = s.auth(await s.keyWith(['feature_flag:read']));
    expect((await s.app.inject({ url: logUrl({ scope: 'FeatureFlag' }), headers: flagReader })).statusCode).toBe(200);
    for (const url of [logUrl({ scope: 'EarlyAccessFeature' }), logUrl({ scope: 'Webhook' }), logUrl({}), orgLogUrl({ scope: 'PersonalAPIKey' })]) {
      const res = await s.app.inject({ url, headers: flagReader });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied' });
    }

    const logReader = s.auth(await s.keyWith(['activity_log:read']));
    for (const url of [logUrl({}), logUrl({ scope: 'Webhook' }), orgLogUrl({})])
      expect((await s.app.inject({ url, headers: logReader })).statusCode, url).toBe(200);

    const elsewhere = await s.services.projects.create('Not for this key');
    const limited = s.auth(await s.keyWith(['activity_log:read'], [s.projectId]));
    expect((await s.app.inject({ url: logUrl({}, elsewhere.id), headers: limited })).statusCode).toBe(403);
    expect((await s.app.inject({ url: logUrl({}) })).statusCode).toBe(401);
  });
});
