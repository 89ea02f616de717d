import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, userWith, type Browser } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// Issue 13: what each role may do with a session, and personal API keys made by users (capped by their role).

let s: TestService;
const users = {} as Record<'viewer' | 'member' | 'admin' | 'owner', Browser & { email: string }>;
beforeAll(async () => {
  s = await startService();
  users.owner = await userWith(s, 'owner');
  users.admin = await userWith(s, 'admin');
  users.member = await userWith(s, 'member');
  users.viewer = await userWith(s, 'viewer');
});
afterAll(() => s.close());

let seq = 0;
type Call = { method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; url: () => string; payload?: () => object };
const p = () => s.projectId;
const calls: Record<string, Call> = {
  'read flags': { method: 'GET', url: () => `/api/projects/${p()}/feature_flags/` },
  'read events': { method: 'GET', url: () => `/api/projects/${p()}/events/` },
  'read members': { method: 'GET', url: () => '/api/organization/members/' },
  'read projects': { method: 'GET', url: () => '/api/projects/' },
  'create a flag': { method: 'POST', url: () => `/api/projects/${p()}/feature_flags/`, payload: () => ({ key: `role-flag-${++seq}` }) },
  'create an early access feature': {
    method: 'POST',
    url: () => `/api/projects/${p()}/early_access_feature/`,
    payload: () => ({ name: `Role feature ${++seq}`, stage: 'beta' }),
  },
  invite: { method: 'POST', url: () => '/api/organization/invites/', payload: () => ({ role: 'viewer' }) },
  'list invites': { method: 'GET', url: () => '/api/organization/invites/' },
  'make a password reset link': { method: 'POST', url: () => `/api/organization/members/${users.viewer.id}/password_reset/` },
  'change their own password': {
    method: 'POST',
    url: () => '/api/users/@me/password/',
    // The session goes on with the new password: the other tests use the sessions only.
    payload: () => ({ current_password: PASSWORD, password: 'a brand new passphrase' }),
  },
  'create a project': { method: 'POST', url: () => '/api/projects/', payload: () => ({ name: `Project ${++seq}` }) },
  'rename a project': { method: 'PATCH', url: () => `/api/projects/${p()}/`, payload: () => ({ name: 'Renamed' }) },
  'read recordings': { method: 'GET', url: () => `/api/projects/${p()}/session_recordings/` },
  'read recording settings': { method: 'GET', url: () => `/api/projects/${p()}/session_recording_settings/` },
  'change recording settings': {
    method: 'PATCH',
    url: () => `/api/projects/${p()}/session_recording_settings/`,
    payload: () => ({ sample_rate: (++seq % 100) / 100 }),
  },
  'read LLM prompts': { method: 'GET', url: () => `/api/projects/${p()}/llm_prompts/` },
  'create an LLM prompt': { method: 'POST', url: () => `/api/projects/${p()}/llm_prompts/`, payload: () => ({ name: `role-prompt-${++seq}`, prompt: 'x' }) },
  'read generations': { method: 'GET', url: () => `/api/projects/${p()}/llm/generations/` },
  'change LLM prices': {
    method: 'PUT',
    url: () => `/api/projects/${p()}/llm_prices/`,
    payload: () => ({ prices: [{ provider: 'openai', model: 'my-model', input: ++seq, output: 1 }] }),
  },
};
const allowed: Record<string, ('viewer' | 'member' | 'admin' | 'owner')[]> = {
  'read flags': ['viewer', 'member', 'admin', 'owner'],
  'read events': ['viewer', 'member', 'admin', 'owner'],
  'read members': ['viewer', 'member', 'admin', 'owner'],
  'read projects': ['viewer', 'member', 'admin', 'owner'],
  'create a flag': ['member', 'admin', 'owner'],
  'create an early access feature': ['member', 'admin', 'owner'],
  invite: ['admin', 'owner'],
  'list invites': ['admin', 'owner'],
  'make a password reset link': ['admin', 'owner'],
  'change their own password': ['viewer', 'member', 'admin', 'owner'],
  'create a project': ['admin', 'owner'],
  'rename a project': ['admin', 'owner'],
  'read recordings': ['viewer', 'member', 'admin', 'owner'],
  'read recording settings': ['viewer', 'member', 'admin', 'owner'],
  'change recording settings': ['member', 'admin', 'owner'],
  'read LLM prompts': ['viewer', 'member', 'admin', 'owner'],
  'create an LLM prompt': ['member', 'admin', 'owner'],
  'read generations': ['viewer', 'member', 'admin', 'owner'],
  'change LLM prices': ['member', 'admin', 'owner'],
};
const send = (call: Call, headers: Record<string, string>) =>
  s.app.inject({ method: call.method, url: call.url(), headers, ...(call.payload ? { payload: call.payload() } : {}) });

describe.each(['viewer', 'member', 'admin', 'owner'] as const)('a session of a %s', (role) => {
  it.each(Object.keys(calls))('may %s only when the role allows it (else 403)', async (name) => {
    const browser = users[role];
    const res = await send(calls[name]!, calls[name]!.method === 'GET' ? browser.read : browser.write);
    if (allowed[name]!.includes(role)) expect(res.statusCode, res.body).toBeLessThan(300);
    else {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied' });
    }
  });
});

describe('projects', () => {
  it('are created and renamed by admins; the token stays; a blank name is a 400', async () => {
    const created = await s.app.inject({ method: 'POST', url: '/api/projects/', headers: users.admin.write, payload: { name: ' Shop ' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Shop', api_token: expect.stringMatching(/^phc_/) });
    const { id, api_token } = created.json();
    const renamed = await s.app.inject({ method: 'PATCH', url: `/api/projects/${id}/`, headers: users.admin.write, payload: { name: 'Store' } });
    expect(renamed.json()).toMatchObject({ id, name: 'Store', api_token });
    const blank = await s.app.inject({ method: 'PATCH', url: `/api/projects/${id}/`, headers: users.admin.write, payload: { name: '  ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ code: 'blank', attr: 'name' });
  });

  it('cannot be created with a key limited to some projects', async () => {
    const limited = await s.keyWith(['*'], [s.projectId]);
    const res = await s.app.inject({ method: 'POST', url: '/api/projects/', headers: s.auth(limited), payload: { name: 'Nope' } });
    expect(res.statusCode).toBe(403);
  });
});

describe('personal API keys of a user', () => {
  const create = (browser: Browser, payload: object) => s.app.inject({ method: 'POST', url: '/api/personal_api_keys/', headers: browser.write, payload });
  const list = async (browser: Browser) => (await s.app.inject({ url: '/api/personal_api_keys/', headers: browser.read })).json().results;

  it('are created with the secret shown once, listed without it, and revoked', async () => {
    const res = await create(users.member, { label: 'deploy script', scopes: ['feature_flag:write'] });
    expect(res.statusCode, res.body).toBe(201);
    const key = res.json();
    expect(key).toMatchObject({ label: 'deploy script', scopes: ['feature_flag:write'], project_ids: null, last_used_at: null });
    expect(key.value).toMatch(/^phx_/);
    expect(key.mask_value).toBe(`${key.value.slice(0, 8)}...${key.value.slice(-4)}`);

    const bearer = s.auth(key.value);
    const flag = await s.app.inject({ method: 'POST', url: `/api/projects/${p()}/feature_flags/`, headers: bearer, payload: { key: 'by-user-key' } });
    expect(flag.statusCode).toBe(201);

    const listed = await list(users.member);
    expect(listed.map((k: { id: string }) => k.id)).toContain(key.id);
    expect(JSON.stringify(listed)).not.toContain(key.value);
    expect(listed.find((k: { id: string }) => k.id === key.id).last_used_at).not.toBeNull();
    // Only one's own.
    expect((await list(users.viewer)).map((k: { id: string }) => k.id)).not.toContain(key.id);

    expect((await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${key.id}/`, headers: users.member.write })).statusCode).toBe(204);
    expect((await list(users.member)).map((k: { id: string }) => k.id)).not.toContain(key.id);
    expect((await s.app.inject({ url: `/api/projects/${p()}/feature_flags/`, headers: bearer })).statusCode).toBe(401);
    expect((await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${key.id}/`, headers: users.member.write })).statusCode).toBe(404);
  });

  it('cannot have scopes beyond the role: a viewer makes read keys only, a member no admin scopes, only an owner *', async () => {
    const refused = async (browser: Browser, scopes: string[]) => {
      const res = await create(browser, { label: 'x', scopes });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'validation_error', code: 'scope_not_allowed', attr: 'scopes' });
    };
    await refused(users.viewer, ['feature_flag:write']);
    await refused(users.viewer, ['*']);
    await refused(users.member, ['organization_member:write']);
    await refused(users.member, ['webhook:write']);
    await refused(users.admin, ['*']);
    expect((await create(users.viewer, { label: 'r', scopes: ['feature_flag:read', 'event:read'] })).statusCode).toBe(201);
    expect((await create(users.admin, { label: 'a', scopes: ['organization_member:write', 'webhook:write'] })).statusCode).toBe(201);
    expect((await create(users.owner, { label: 'o', scopes: ['*'] })).statusCode).toBe(201);
    const unknown = await create(users.owner, { label: 'o', scopes: ['everything'] });
    expect(unknown.json()).toMatchObject({ code: 'invalid_scope', attr: 'scopes' });
  });

  it('follow their user: a key of a demoted user loses what the new role lacks', async () => {
    const member = await userWith(s, 'member');
    const key = (await create(member, { label: 'writer', scopes: ['feature_flag:write'] })).json().value;
    const write = () =>
      s.app.inject({ method: 'POST', url: `/api/projects/${p()}/feature_flags/`, headers: s.auth(key), payload: { key: `demoted-${++seq}` } });
    expect((await write()).statusCode).toBe(201);
    await s.app.inject({ method: 'PATCH', url: `/api/organization/members/${member.id}/`, headers: users.owner.write, payload: { role: 'viewer' } });
    expect((await write()).statusCode).toBe(403);
    expect((await s.app.inject({ url: `/api/projects/${p()}/feature_flags/`, headers: s.auth(key) })).statusCode).toBe(200);
  });

  it('can be limited to projects that exist', async () => {
    const ok = await create(users.member, { label: 'one project', scopes: ['feature_flag:read'], project_ids: [p()] });
    expect(ok.json().project_ids).toEqual([p()]);
    const other = await s.app.inject({ url: `/api/projects/${p() + 1000}/feature_flags/`, headers: s.auth(ok.json().value) });
    expect(other.statusCode).toBe(403);
    const missing = await create(users.member, { label: 'none', scopes: ['feature_flag:read'], project_ids: [p() + 1000] });
    expect(missing.json()).toMatchObject({ code: 'invalid_project', attr: 'project_ids' });
  });

  it("are revoked by their user or an admin, not by another member; @me works with one's key", async () => {
    const key = (await create(users.viewer, { label: 'viewer key', scopes: ['feature_flag:read'] })).json();
    expect((await s.app.inject({ url: '/api/users/@me', headers: s.auth(key.value) })).json()).toMatchObject({
      id: users.viewer.id,
      role: 'viewer',
      csrf_token: null,
    });
    expect((await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${key.id}/`, headers: users.member.write })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${key.id}/`, headers: users.admin.write })).statusCode).toBe(204);
  });

  it("are all listed, with their user, to admins and owners, the first start's key (no user) among them; members and viewers see their own", async () => {
    const memberKey = (await create(users.member, { label: 'member listed', scopes: ['feature_flag:read'] })).json();
    const ownerKey = (await create(users.owner, { label: 'owner listed', scopes: ['feature_flag:read'], project_ids: [p()] })).json();
    // The key `service start` makes on an empty database (this file's service was bootstrapped the same way, label 'test').
    const firstStart = (await s.services.keys.list()).find((k) => k.label === 'test' && k.user_id === null)!;
    for (const role of ['admin', 'owner'] as const) {
      const listed: { id: string; user: unknown; project_ids: unknown }[] = await list(users[role]);
      expect(listed.find((k) => k.id === memberKey.id)).toMatchObject({ user: { id: users.member.id, email: users.member.email }, project_ids: null });
      expect(listed.find((k) => k.id === ownerKey.id)).toMatchObject({ user: { id: users.owner.id, email: users.owner.email }, project_ids: [p()] });
      expect(listed.find((k) => k.id === firstStart.id)).toMatchObject({ label: 'test', user: null, scopes: ['*'], project_ids: null });
    }
    const own = await list(users.member);
    expect(own.map((k: { id: string }) => k.id)).toContain(memberKey.id);
    expect(own.every((k: { user: { id: number } }) => k.user.id === users.member.id)).toBe(true);
    expect((await list(users.viewer)).map((k: { id: string }) => k.id)).not.toContain(memberKey.id);
    expect(ownerKey.user).toMatchObject({ id: users.owner.id, email: users.owner.email });
  });

  it("a key of the command line (the first start's) is revoked by an admin or owner, never by a member", async () => {
    const { key, secret } = await s.services.keys.create({ label: 'created at first start', scopes: ['*'], projectIds: null });
    const revoke = (browser: Browser) => s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${key.id}/`, headers: browser.write });
    expect((await revoke(users.member)).statusCode).toBe(404);
    expect((await s.app.inject({ url: `/api/projects/${p()}/feature_flags/`, headers: s.auth(secret) })).statusCode).toBe(200);
    expect((await revoke(users.admin)).statusCode).toBe(204);
    expect((await s.app.inject({ url: `/api/projects/${p()}/feature_flags/`, headers: s.auth(secret) })).statusCode).toBe(401);
    expect((await list(users.owner)).map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it("the command line's keys keep working: a * key lists every key, a narrower one the command line's", async () => {
    expect((await s.app.inject({ url: `/api/projects/${p()}/feature_flags/`, headers: s.headers })).statusCode).toBe(200);
    const every: { user: { id: number } | null }[] = (await s.app.inject({ url: '/api/personal_api_keys/', headers: s.headers })).json().results;
    expect(every.some((k) => k.user === null)).toBe(true);
    expect(every.some((k) => k.user?.id === users.member.id)).toBe(true);
    const narrow = s.auth(await s.keyWith(['personal_api_key:read']));
    const listed: { label: string; user: unknown }[] = (await s.app.inject({ url: '/api/personal_api_keys/', headers: narrow })).json().results;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((k) => k.label === 'test' && k.user === null)).toBe(true);
  });
});

describe('@me', () => {
  it("says the scopes of the user's role: what the web app may offer for a new key", async () => {
    const scopes = async (role: keyof typeof users) => (await s.app.inject({ url: '/api/users/@me', headers: users[role].read })).json().scopes;
    expect(await scopes('owner')).toEqual(['*']);
    expect(await scopes('admin')).toContain('webhook:write');
    expect(await scopes('member')).toEqual(expect.arrayContaining(['feature_flag:write', 'webhook:read']));
    expect(await scopes('member')).not.toContain('webhook:write');
    expect(await scopes('viewer')).toEqual(expect.arrayContaining(['feature_flag:read', 'personal_api_key:write']));
    expect(await scopes('viewer')).not.toContain('feature_flag:write');
  });
});
