import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, PASSWORD, browserOf, email, login, sessionCookie, userWith, type Browser } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// Issue 13: the first account, login and logout, `@me`, members and invites.

let s: TestService;
let owner: Browser;
const ownerEmail = 'Owner@Example.com';
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const setup = async () => (await s.app.inject({ url: '/api/setup' })).json().needs_first_account;

describe('the first account', () => {
  it('is asked for while there is no user, refuses a short, blank or common password and a malformed email', async () => {
    expect(await setup()).toBe(true);
    const short = await s.app.inject({ method: 'POST', url: '/api/signup', payload: { email: 'a@example.com', name: 'A', password: 'short' } });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ type: 'validation_error', code: 'password_too_short', attr: 'password' });
    for (const [password, code] of [
      ['        ', 'blank'],
      ['\t\u00a0 \n   \u2003 ', 'blank'],
      ['password', 'password_too_common'],
      ['Password1', 'password_too_common'],
      [' QWERTYUIOP ', 'password_too_common'],
      ['iloveyou', 'password_too_common'],
    ]) {
      const refused = await s.app.inject({ method: 'POST', url: '/api/signup', payload: { email: 'a@example.com', name: 'A', password } });
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json(), password).toMatchObject({ type: 'validation_error', code, attr: 'password' });
    }
    const bad = await s.app.inject({ method: 'POST', url: '/api/signup', payload: { email: 'not an email', name: 'A', password: PASSWORD } });
    expect(bad.json()).toMatchObject({ code: 'invalid_email', attr: 'email' });
    expect(await setup()).toBe(true);
  });

  it('becomes the owner, names the organization, and is logged in at once', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email: ownerEmail, name: ' Olivia ', password: PASSWORD, organization_name: 'Acme' },
    });
    expect(res.statusCode, res.body).toBe(201);
    owner = browserOf(res);
    expect(res.json()).toEqual({
      id: owner.id,
      email: 'owner@example.com',
      name: 'Olivia',
      role: 'owner',
      scopes: ['*'],
      organization: { id: 1, name: 'Acme' },
      csrf_token: expect.any(String),
    });
    expect(await setup()).toBe(false);
    const me = await s.app.inject({ url: '/api/users/@me', headers: owner.read });
    expect(me.json()).toMatchObject({ email: 'owner@example.com', role: 'owner', csrf_token: owner.csrf });
  });

  it('happens only once: a second signup is 403, also when several arrive at the same time', async () => {
    const again = await s.app.inject({ method: 'POST', url: '/api/signup', payload: { email: email(), name: 'B', password: PASSWORD } });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'already_set_up' });
    expect(sessionCookie(again)).toBeUndefined();
  });

  it('lets exactly one of several simultaneous signups on an empty service through', async () => {
    const other = await startService();
    try {
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          other.app.inject({ method: 'POST', url: '/api/signup', payload: { email: `first-${i}@example.com`, name: `F${i}`, password: PASSWORD } }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 403, 403, 403]);
      expect((await other.services.users.members()).map((m) => m.role)).toEqual(['owner']);
      expect((await other.services.users.organization()).name).toBe('Default organization');
    } finally {
      await other.close();
    }
  });
});

describe('login, @me and logout', () => {
  it('logs in whatever the case of the email, answers Me and sets a new session', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/api/login', payload: { email: ' OWNER@example.com ', password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: owner.id, role: 'owner', organization: { name: 'Acme' } });
    expect(sessionCookie(res)!.value).not.toBe(owner.cookie);
  });

  it('answers an unknown email and a wrong password with the same 401, and sets no cookie', async () => {
    const unknown = await s.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '10.1.0.1',
      payload: { email: 'nobody@example.com', password: PASSWORD },
    });
    const wrong = await s.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '10.1.0.1',
      payload: { email: ownerEmail, password: 'wrong password' },
    });
    expect([unknown.statusCode, wrong.statusCode]).toEqual([401, 401]);
    expect(unknown.json()).toEqual({ type: 'authentication_error', code: 'invalid_credentials', detail: 'Invalid email or password.', attr: null });
    expect(wrong.body).toBe(unknown.body);
    expect([sessionCookie(unknown), sessionCookie(wrong)]).toEqual([undefined, undefined]);
  });

  it('answers @me with 401 without a session, and for a key of no user with 403', async () => {
    expect((await s.app.inject({ url: '/api/users/@me' })).statusCode).toBe(401);
    expect((await s.app.inject({ url: '/api/users/@me', headers: { cookie: 'service_session=forged' } })).json()).toMatchObject({
      code: 'authentication_failed',
    });
    expect((await s.app.inject({ url: '/api/users/@me', headers: s.headers })).statusCode).toBe(403);
  });

  it('logout ends the session and clears the cookie; the session is then refused', async () => {
    const browser = await login(s, ownerEmail);
    const res = await s.app.inject({ method: 'POST', url: '/api/logout', headers: browser.write });
    expect(res.statusCode).toBe(204);
    const cleared = sessionCookie(res)!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires as Date).getTime()).toBeLessThan(Date.now());
    expect((await s.app.inject({ url: '/api/users/@me', headers: browser.read })).statusCode).toBe(401);
    // Logging out without a session is no error.
    expect((await s.app.inject({ method: 'POST', url: '/api/logout' })).statusCode).toBe(204);
  });
});

describe('invites', () => {
  const invite = (headers: Record<string, string>, payload: object) => s.app.inject({ method: 'POST', url: '/api/organization/invites/', headers, payload });
  const tokenOf = (url: string) => url.split('/invite/')[1]!;
  const accept = (token: string, payload: object) => s.app.inject({ method: 'POST', url: `/api/invites/${token}/accept`, payload });

  it('makes a single-use link valid 7 days; accepting it creates the user with its role and logs them in', async () => {
    const res = await invite(owner.write, { role: 'member' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created.url).toMatch(new RegExp(`^${ORIGIN}/invite/[\\w-]{43}$`));
    const days = (Date.parse(created.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const token = tokenOf(created.url);

    const listed = (await s.app.inject({ url: '/api/organization/invites/', headers: owner.read })).json().results;
    expect(listed).toContainEqual({
      id: created.id,
      role: 'member',
      email: null,
      created_at: created.created_at,
      expires_at: created.expires_at,
      created_by: owner.id,
    });
    expect(JSON.stringify(listed)).not.toContain(token);

    expect((await s.app.inject({ url: `/api/invites/${token}` })).json()).toEqual({ valid: true, role: 'member', email: null, organization_name: 'Acme' });
    const address = email('invited');
    const accepted = await accept(token, { email: address, name: 'Ivy', password: PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ email: address, name: 'Ivy', role: 'member' });
    const ivy = browserOf(accepted);
    expect((await s.app.inject({ url: '/api/users/@me', headers: ivy.read })).json().email).toBe(address);

    // Used up.
    expect((await s.app.inject({ url: `/api/invites/${token}` })).statusCode).toBe(404);
    expect((await accept(token, { email: email(), name: 'Again', password: PASSWORD })).statusCode).toBe(404);
    const after = (await s.app.inject({ url: '/api/organization/invites/', headers: owner.read })).json().results;
    expect(after.map((i: { id: string }) => i.id)).not.toContain(created.id);
  });

  it('refuses a blank or common password, and stays usable', async () => {
    const token = tokenOf((await invite(owner.write, { role: 'member' })).json().url);
    for (const [password, code] of [
      ['          ', 'blank'],
      ['12345678', 'password_too_common'],
      ['Sunshine', 'password_too_common'],
    ]) {
      const refused = await accept(token, { email: email(), name: 'Weak', password });
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json(), password).toMatchObject({ type: 'validation_error', code, attr: 'password' });
    }
    expect((await s.app.inject({ url: `/api/invites/${token}` })).statusCode).toBe(200);
  });

  it('is refused once expired', async () => {
    const created = (await invite(owner.write, { role: 'viewer' })).json();
    await s.services.db.kysely
      .updateTable('invites')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', created.id)
      .execute();
    const token = tokenOf(created.url);
    expect((await s.app.inject({ url: `/api/invites/${token}` })).statusCode).toBe(404);
    expect((await accept(token, { email: email(), name: 'Late', password: PASSWORD })).statusCode).toBe(404);
  });

  it('for an email takes only that email, and a taken email is a 400 that leaves the invite usable', async () => {
    const address = email('named');
    const created = (await invite(owner.write, { role: 'admin', email: address.toUpperCase() })).json();
    expect(created.email).toBe(address);
    const token = tokenOf(created.url);
    const other = await accept(token, { email: email(), name: 'X', password: PASSWORD });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ code: 'email_mismatch', attr: 'email' });
    expect((await accept(token, { email: address, name: 'Named', password: PASSWORD })).json()).toMatchObject({ role: 'admin' });

    const second = tokenOf((await invite(owner.write, { role: 'viewer' })).json().url);
    const taken = await accept(second, { email: address, name: 'Dup', password: PASSWORD });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({ code: 'unique', attr: 'email' });
    expect((await s.app.inject({ url: `/api/invites/${second}` })).statusCode).toBe(200);
  });

  it('can be withdrawn; unknown, malformed and withdrawn tokens are 404', async () => {
    const created = (await invite(owner.write, { role: 'member' })).json();
    expect((await s.app.inject({ method: 'DELETE', url: `/api/organization/invites/${created.id}/`, headers: owner.write })).statusCode).toBe(204);
    expect((await s.app.inject({ url: `/api/invites/${tokenOf(created.url)}` })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'DELETE', url: `/api/organization/invites/${created.id}/`, headers: owner.write })).statusCode).toBe(404);
    for (const token of ['x', 'a'.repeat(43), '%00'.repeat(5)]) expect((await s.app.inject({ url: `/api/invites/${token}` })).statusCode).toBe(404);
  });

  it('of an owner only by an owner; an admin invites up to admin', async () => {
    const admin = await userWith(s, 'admin');
    expect((await invite(admin.write, { role: 'owner' })).statusCode).toBe(403);
    expect((await invite(admin.write, { role: 'admin' })).statusCode).toBe(201);
    expect((await invite(owner.write, { role: 'owner' })).statusCode).toBe(201);
  });

  it('builds its link from the origin the request reached, as a trusted proxy reports it', async () => {
    const proxied = await startService({ trustProxy: true });
    try {
      await proxied.services.users.create({ email: 'boss@example.com', password: PASSWORD });
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/api/organization/invites/',
        headers: { ...proxied.headers, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'flags.example.com' },
        payload: { role: 'viewer' },
      });
      expect(res.json().url).toMatch(/^https:\/\/flags\.example\.com\/invite\//);
    } finally {
      await proxied.close();
    }
  });
});

describe('members', () => {
  const members = async () => (await s.app.inject({ url: '/api/organization/members/', headers: owner.read })).json().results as { id: number; role: string }[];
  const setRole = (headers: Record<string, string>, id: number, role: string) =>
    s.app.inject({ method: 'PATCH', url: `/api/organization/members/${id}/`, headers, payload: { role } });
  const remove = (headers: Record<string, string>, id: number) => s.app.inject({ method: 'DELETE', url: `/api/organization/members/${id}/`, headers });

  it('lists every member with role and join date, for any role', async () => {
    const viewer = await userWith(s, 'viewer');
    const res = await s.app.inject({ url: '/api/organization/members/', headers: viewer.read });
    expect(res.statusCode).toBe(200);
    expect(res.json().results).toContainEqual({ id: owner.id, email: 'owner@example.com', name: 'Olivia', role: 'owner', joined_at: expect.any(String) });
    expect(res.json().results).toContainEqual(expect.objectContaining({ id: viewer.id, role: 'viewer' }));
  });

  it('keeps at least one owner, and only owners make or change owners', async () => {
    const last = await setRole(owner.write, owner.id, 'admin');
    expect(last.statusCode).toBe(400);
    expect(last.json()).toMatchObject({ code: 'last_owner' });
    expect((await remove(owner.write, owner.id)).json()).toMatchObject({ code: 'last_owner' });

    const admin = await userWith(s, 'admin');
    const member = await userWith(s, 'member');
    expect((await setRole(admin.write, member.id, 'owner')).statusCode).toBe(403);
    expect((await setRole(admin.write, owner.id, 'viewer')).statusCode).toBe(403);
    expect((await remove(admin.write, owner.id)).statusCode).toBe(403);
    const promoted = await setRole(admin.write, member.id, 'admin');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ id: member.id, role: 'admin' });

    expect((await setRole(owner.write, member.id, 'owner')).json().role).toBe('owner');
    // Two owners: one may step down now.
    expect((await setRole(owner.write, member.id, 'member')).json().role).toBe('member');
    expect((await setRole(owner.write, 999_999, 'member')).statusCode).toBe(404);
    expect((await setRole(owner.write, member.id, 'superuser')).statusCode).toBe(400);
  });

  it('removing a member ends their sessions and revokes their personal API keys', async () => {
    const member = await userWith(s, 'member');
    const key = await s.app.inject({
      method: 'POST',
      url: '/api/personal_api_keys/',
      headers: member.write,
      payload: { label: 'script', scopes: ['feature_flag:read'] },
    });
    expect(key.statusCode, key.body).toBe(201);
    const bearer = { authorization: `Bearer ${key.json().value}` };
    expect((await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/`, headers: bearer })).statusCode).toBe(200);

    expect((await remove(owner.write, member.id)).statusCode).toBe(204);
    expect((await members()).map((m) => m.id)).not.toContain(member.id);
    expect((await s.app.inject({ url: '/api/users/@me', headers: member.read })).statusCode).toBe(401);
    expect((await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/`, headers: bearer })).statusCode).toBe(401);
    const sessions = await s.services.db.kysely.selectFrom('sessions').select('id').where('user_id', '=', member.id).execute();
    expect(sessions).toEqual([]);
    expect((await remove(owner.write, member.id)).statusCode).toBe(404);
    await expect(login(s, member.email)).rejects.toThrow();
  });
});
