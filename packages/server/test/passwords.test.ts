import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, PASSWORD, browserOf, email, login, sessionCookie, userWith, type Browser } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// A forgotten or leaked password has a way back: a signed-in user changes theirs, an admin makes a single-use reset
// link for a member. Either ends the user's other sessions.

let s: TestService;
let owner: Browser & { email: string };
let admin: Browser & { email: string };
beforeAll(async () => {
  s = await startService();
  owner = await userWith(s, 'owner');
  admin = await userWith(s, 'admin');
});
afterAll(() => s.close());

const NEW_PASSWORD = 'a brand new passphrase';
const me = (headers: Record<string, string>) => s.app.inject({ url: '/api/users/@me', headers });
const logInWith = (address: string, password: string, remoteAddress = '10.9.0.1') =>
  s.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email: address, password } });
const change = (headers: Record<string, string>, payload: object, remoteAddress = '127.0.0.1') =>
  s.app.inject({ method: 'POST', url: '/api/users/@me/password', headers, payload, remoteAddress });
const sessionsOf = async (userId: number) => (await s.services.db.kysely.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;
const membershipLog = async (userId: number) =>
  (await s.app.inject({ url: `/api/organization/activity_log/?scope=OrganizationMembership&item_id=${userId}`, headers: owner.read })).json().results as {
    activity: string;
    user: { id: number } | null;
    detail: { changes: { field: string; before: unknown; after: unknown }[] };
  }[];

describe("changing one's own password", () => {
  it('takes the current password; this session goes on, the other sessions end, and only the new password logs in', async () => {
    const user = await userWith(s, 'viewer');
    const elsewhere = await login(s, user.email);
    const res = await change(user.write, { current_password: PASSWORD, password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(204);
    expect((await me(user.read)).statusCode).toBe(200);
    expect((await me(elsewhere.read)).statusCode).toBe(401);
    expect(await sessionsOf(user.id)).toBe(1);
    expect((await logInWith(user.email, PASSWORD)).statusCode).toBe(401);
    expect((await logInWith(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a wrong current password (400 naming current_password) and changes nothing', async () => {
    const user = await userWith(s, 'member');
    const res = await change(user.write, { current_password: 'not my password', password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: 'validation_error', code: 'wrong_password', detail: 'The current password is wrong.', attr: 'current_password' });
    expect((await logInWith(user.email, PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a blank, short or common new password with the error naming password, and changes nothing', async () => {
    const user = await userWith(s, 'member');
    for (const [password, code] of [
      ['          ', 'blank'],
      ['short', 'password_too_short'],
      ['Password1', 'password_too_common'],
      ['iloveyou', 'password_too_common'],
    ]) {
      const res = await change(user.write, { current_password: PASSWORD, password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json(), password).toMatchObject({ type: 'validation_error', code, attr: 'password' });
    }
    expect((await change(user.write, { current_password: PASSWORD })).statusCode).toBe(400);
    expect((await logInWith(user.email, PASSWORD)).statusCode).toBe(200);
  });

  it('throttles guesses of the current password as logins are: after 5 wrong ones even the right one waits', async () => {
    const user = await userWith(s, 'member');
    for (let i = 0; i < 5; i++) expect((await change(user.write, { current_password: `guess ${i}`, password: NEW_PASSWORD }, '10.9.1.1')).statusCode).toBe(400);
    const throttled = await change(user.write, { current_password: PASSWORD, password: NEW_PASSWORD }, '10.9.1.1');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ type: 'throttled_error', code: 'throttled' });
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // The same wait holds for a login of that email from that address.
    expect((await logInWith(user.email, PASSWORD, '10.9.1.1')).statusCode).toBe(429);
    expect((await logInWith(user.email, PASSWORD, '10.9.1.2')).statusCode).toBe(200);
  });

  it("needs the session's CSRF token and a page of this service", async () => {
    const user = await userWith(s, 'member');
    const payload = { current_password: PASSWORD, password: NEW_PASSWORD };
    const noToken = await change(user.read, payload);
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json()).toMatchObject({ code: 'csrf_failed' });
    const otherSite = await change({ ...user.write, origin: 'https://evil.example' }, payload);
    expect(otherSite.json()).toMatchObject({ code: 'csrf_failed' });
    expect((await change({}, payload)).statusCode).toBe(401);
    expect((await logInWith(user.email, PASSWORD)).statusCode).toBe(200);
  });

  it("is refused with a personal API key, even the user's own with the right current password", async () => {
    const user = await userWith(s, 'owner');
    const key = await s.app.inject({ method: 'POST', url: '/api/personal_api_keys/', headers: user.write, payload: { label: 'k', scopes: ['*'] } });
    const res = await change(s.auth(key.json().value), { current_password: PASSWORD, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied' });
    expect((await logInWith(user.email, PASSWORD)).statusCode).toBe(200);
  });

  it('is in the activity log as a hidden change, never the hash', async () => {
    const user = await userWith(s, 'member');
    await change(user.write, { current_password: PASSWORD, password: NEW_PASSWORD });
    const [latest] = await membershipLog(user.id);
    expect(latest).toMatchObject({ activity: 'updated', user: { id: user.id } });
    expect(latest!.detail.changes).toEqual([{ field: 'password', before: '[hidden]', after: '[hidden] (new)' }]);
    expect(JSON.stringify(await membershipLog(user.id))).not.toMatch(/scrypt|passphrase/);
  });
});

describe('password reset links', () => {
  const make = (headers: Record<string, string>, userId: number | string) =>
    s.app.inject({ method: 'POST', url: `/api/organization/members/${userId}/password_reset/`, headers });
  const tokenOf = (url: string) => url.split('/reset-password/')[1]!;
  const lookUp = (token: string) => s.app.inject({ url: `/api/password_resets/${token}` });
  const use = (token: string, password: string, headers: Record<string, string> = {}) =>
    s.app.inject({ method: 'POST', url: `/api/password_resets/${token}/`, headers, payload: { password } });

  it('lets an admin make a link for a member, valid once for 24 hours; it sets a new password, logs in and ends the other sessions', async () => {
    const member = await userWith(s, 'member');
    const res = await make(admin.write, member.id);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toEqual({ user_id: member.id, email: member.email, expires_at: expect.any(String), url: expect.any(String) });
    expect(created.url).toMatch(new RegExp(`^${ORIGIN}/reset-password/[\\w-]{43}$`));
    const hours = (Date.parse(created.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.99);
    expect(hours).toBeLessThanOrEqual(24);
    const token = tokenOf(created.url);
    // Stored hashed.
    const rows = await s.services.db.kysely.selectFrom('password_resets').selectAll().where('user_id', '=', member.id).execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    expect((await lookUp(token)).json()).toEqual({ valid: true, email: member.email, name: expect.any(String) });
    // Making the link changes nothing yet.
    expect((await me(member.read)).statusCode).toBe(200);

    const used = await use(token, NEW_PASSWORD);
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json()).toMatchObject({ id: member.id, email: member.email, role: 'member', csrf_token: expect.any(String) });
    const fresh = browserOf(used);
    expect((await me(fresh.read)).statusCode).toBe(200);
    expect((await me(member.read)).statusCode).toBe(401);
    expect(await sessionsOf(member.id)).toBe(1);
    expect((await logInWith(member.email, PASSWORD)).statusCode).toBe(401);
    expect((await logInWith(member.email, NEW_PASSWORD)).statusCode).toBe(200);

    // Used up.
    expect((await lookUp(token)).statusCode).toBe(404);
    const again = await use(token, 'yet another passphrase');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({
      type: 'invalid_request',
      code: 'not_found',
      detail: 'This password reset link is unknown, used or expired.',
      attr: null,
    });
    expect(sessionCookie(again)).toBeUndefined();
    expect((await logInWith(member.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a blank or common password and stays usable', async () => {
    const member = await userWith(s, 'viewer');
    const token = tokenOf((await make(admin.write, member.id)).json().url);
    for (const [password, code] of [
      ['          ', 'blank'],
      ['12345678', 'password_too_common'],
    ]) {
      const refused = await use(token, password);
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json(), password).toMatchObject({ type: 'validation_error', code, attr: 'password' });
    }
    expect((await lookUp(token)).statusCode).toBe(200);
    expect((await use(token, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('is refused once expired', async () => {
    const member = await userWith(s, 'member');
    const token = tokenOf((await make(admin.write, member.id)).json().url);
    await s.services.db.kysely
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', member.id)
      .execute();
    expect((await lookUp(token)).statusCode).toBe(404);
    expect((await use(token, NEW_PASSWORD)).statusCode).toBe(404);
    expect((await logInWith(member.email, PASSWORD)).statusCode).toBe(200);
  });

  it('stops working when a newer link is made, or when the member changes the password', async () => {
    const member = await userWith(s, 'member');
    const first = tokenOf((await make(admin.write, member.id)).json().url);
    const second = tokenOf((await make(owner.write, member.id)).json().url);
    expect((await lookUp(first)).statusCode).toBe(404);
    expect((await lookUp(second)).statusCode).toBe(200);
    expect((await change(member.write, { current_password: PASSWORD, password: NEW_PASSWORD })).statusCode).toBe(204);
    expect((await lookUp(second)).statusCode).toBe(404);
    expect((await use(second, 'someone else wants in')).statusCode).toBe(404);
    expect((await logInWith(member.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('for an owner is made only by an owner; members and viewers make none; an unknown member is 404', async () => {
    const other = await userWith(s, 'owner');
    const byAdmin = await make(admin.write, other.id);
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json()).toMatchObject({ code: 'permission_denied', detail: 'Only an owner can make a password reset link for an owner.' });
    expect((await make(owner.write, other.id)).statusCode).toBe(201);
    const target = await userWith(s, 'viewer');
    for (const role of ['member', 'viewer'] as const) {
      const res = await make((await userWith(s, role)).write, target.id);
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toMatchObject({ code: 'permission_denied' });
    }
    expect((await make(admin.write, 999_999)).statusCode).toBe(404);
    expect((await make(admin.write, 'abc')).statusCode).toBe(404);
    const limited = await s.keyWith(['*'], [s.projectId]);
    expect((await make(s.auth(limited), target.id)).statusCode).toBe(403);
    // The command line's unlimited key acts as an owner.
    expect((await make(s.headers, other.id)).statusCode).toBe(201);
  });

  it('is in the activity log: who made a link for whom, and the new password set with it', async () => {
    const member = await userWith(s, 'member');
    const token = tokenOf((await make(admin.write, member.id)).json().url);
    await use(token, NEW_PASSWORD);
    const [set, made] = await membershipLog(member.id);
    expect(made).toMatchObject({ activity: 'updated', user: { id: admin.id } });
    expect(made!.detail.changes).toEqual([{ field: 'password_reset_link', before: null, after: expect.stringMatching(/^valid until \d{4}-/) }]);
    expect(set).toMatchObject({ activity: 'updated', user: { id: member.id } });
    expect(set!.detail.changes).toEqual([{ field: 'password', before: '[hidden]', after: '[hidden] (new)' }]);
    expect(JSON.stringify(await membershipLog(member.id))).not.toContain(token);
  });

  it('counts wrong tokens, in the link and when setting the password, as failed authentications', async () => {
    const limited = await startService({ authFailureLimitPerMinute: 3 });
    try {
      const user = await limited.services.users.create({ email: email('reset'), password: PASSWORD });
      const created = await limited.app.inject({ method: 'POST', url: `/api/organization/members/${user.id}/password_reset/`, headers: limited.headers });
      const token = tokenOf(created.json().url);
      const look = (remoteAddress: string, guess: string) => limited.app.inject({ url: `/api/password_resets/${guess}`, remoteAddress });
      const set = (remoteAddress: string, guess: string) =>
        limited.app.inject({ method: 'POST', url: `/api/password_resets/${guess}`, remoteAddress, payload: { password: NEW_PASSWORD } });
      expect((await look('10.9.2.1', 'a'.repeat(43))).statusCode).toBe(404);
      expect((await set('10.9.2.1', 'b'.repeat(43))).statusCode).toBe(404);
      expect((await look('10.9.2.1', 'malformed')).statusCode).toBe(404);
      const guess = await look('10.9.2.1', 'c'.repeat(43));
      expect(guess.statusCode).toBe(429);
      expect(guess.json()).toMatchObject({ type: 'throttled_error', code: 'throttled' });
      // The right token waits too; from another address it works.
      expect((await set('10.9.2.1', token)).statusCode).toBe(429);
      expect((await look('10.9.2.2', token)).statusCode).toBe(200);
      expect((await set('10.9.2.2', token)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('is refused from another site (the login it makes would be a login CSRF)', async () => {
    const member = await userWith(s, 'member');
    const token = tokenOf((await make(admin.write, member.id)).json().url);
    const res = await use(token, NEW_PASSWORD, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'csrf_failed' });
    expect((await lookUp(token)).statusCode).toBe(200);
  });
});
