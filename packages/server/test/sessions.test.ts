import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, PASSWORD, browserOf, email, login, sessionCookie, userWith, type Browser } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// Issue 13: the session cookie, its rotation and expiry, CSRF, and the login throttle.

let s: TestService;
let admin: Browser & { email: string };
beforeAll(async () => {
  s = await startService();
  admin = await userWith(s, 'owner');
});
afterAll(() => s.close());

const flagsUrl = () => `/api/projects/${s.projectId}/feature_flags/`;
let flagSeq = 0;
const createFlag = (headers: Record<string, string>) =>
  s.app.inject({ method: 'POST', url: flagsUrl(), headers, payload: { key: `session-flag-${++flagSeq}` } });
const me = (headers: Record<string, string>) => s.app.inject({ url: '/api/users/@me', headers });

describe('the session cookie', () => {
  it('is httpOnly, SameSite=Lax, Path=/, lasts the idle time, and is not Secure over plain http', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/api/login', payload: { email: admin.email, password: PASSWORD } });
    const cookie = sessionCookie(res)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 14 * 24 * 3600 });
    expect(cookie.secure).toBeUndefined();
    expect(cookie.value).toMatch(/^[\w-]{43}$/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is Secure with COOKIE_SECURE, and on https behind a trusted proxy (X-Forwarded-Proto) only', async () => {
    for (const [config, headers, secure] of [
      [{ cookieSecure: true }, {}, true],
      [{ trustProxy: true }, { 'x-forwarded-proto': 'https' }, true],
      [{ trustProxy: false }, { 'x-forwarded-proto': 'https' }, undefined],
    ] as const) {
      const other = await startService(config);
      try {
        await other.services.users.create({ email: 'a@example.com', password: PASSWORD });
        const res = await other.app.inject({ method: 'POST', url: '/api/login', headers, payload: { email: 'a@example.com', password: PASSWORD } });
        expect(sessionCookie(res)!.secure, JSON.stringify(config)).toBe(secure);
      } finally {
        await other.close();
      }
    }
  });

  it('is stored hashed: the database never holds its value', async () => {
    const browser = await login(s, admin.email);
    const rows = await s.services.db.kysely.selectFrom('sessions').select('id').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id)).not.toContain(browser.cookie);
  });

  it('is rotated at login: the session the login came with ends, a forged value never becomes one', async () => {
    const first = await login(s, admin.email);
    const res = await s.app.inject({ method: 'POST', url: '/api/login', headers: first.read, payload: { email: admin.email, password: PASSWORD } });
    const second = browserOf(res);
    expect(second.cookie).not.toBe(first.cookie);
    expect(second.csrf).not.toBe(first.csrf);
    expect((await me(first.read)).statusCode).toBe(401);
    expect((await me(second.read)).statusCode).toBe(200);

    const fixed = await s.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: 'service_session=attacker-chosen-value' },
      payload: { email: admin.email, password: PASSWORD },
    });
    expect(sessionCookie(fixed)!.value).not.toBe('attacker-chosen-value');
    expect((await me({ cookie: 'service_session=attacker-chosen-value' })).statusCode).toBe(401);
  });

  it('other sessions of the same user go on after a login elsewhere', async () => {
    const laptop = await login(s, admin.email);
    const phone = await login(s, admin.email);
    expect((await me(laptop.read)).statusCode).toBe(200);
    expect((await me(phone.read)).statusCode).toBe(200);
  });

  it('expires after 14 idle days, and is cleared then; a used session moves its deadline', async () => {
    const browser = await login(s, admin.email);
    const db = s.services.db.kysely;
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await db
      .updateTable('sessions')
      .set({ last_seen_at: daysAgo(13) })
      .execute();
    const used = await me(browser.read);
    expect(used.statusCode).toBe(200);
    // The deadline moved: the cookie is sent again for another 14 days.
    expect(sessionCookie(used)).toMatchObject({ value: browser.cookie, maxAge: 14 * 24 * 3600 });
    const [row] = await db.selectFrom('sessions').select('last_seen_at').where('last_seen_at', '>', daysAgo(1)).execute();
    expect(row).toBeDefined();

    await db
      .updateTable('sessions')
      .set({ last_seen_at: daysAgo(14.01) })
      .execute();
    const expired = await me(browser.read);
    expect(expired.statusCode).toBe(401);
    expect(sessionCookie(expired)!.value).toBe('');
    const id = createHash('sha256').update(browser.cookie).digest('hex');
    expect(await db.selectFrom('sessions').selectAll().where('id', '=', id).execute()).toEqual([]);
  });
});

describe('CSRF', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await login(s, admin.email);
  });

  it('a write with the session, its CSRF token and a same-origin Origin succeeds', async () => {
    expect((await createFlag(browser.write)).statusCode).toBe(201);
    // Origin with the default port spelled out is the same origin.
    expect((await createFlag({ ...browser.write, origin: 'http://localhost:80' })).statusCode).toBe(201);
    // No Origin, but a Referer of this service.
    const { origin: _, ...withoutOrigin } = browser.write;
    expect((await createFlag({ ...withoutOrigin, referer: `${ORIGIN}/flags/new` })).statusCode).toBe(201);
  });

  it.each([
    ['no CSRF token', { 'x-csrf-token': undefined }],
    ['a wrong CSRF token', { 'x-csrf-token': 'wrong' }],
    ["another session's CSRF token", { 'x-csrf-token': 'other' }],
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['another port', { origin: 'http://localhost:8080' }],
    ['Origin null', { origin: 'null' }],
    ['neither Origin nor Referer', { origin: undefined }],
    ['a Referer of another site and no Origin', { origin: undefined, referer: 'https://evil.example/page' }],
  ])('a write with the session and %s is 403 csrf_failed, and changes nothing', async (_label, change) => {
    const other = await login(s, admin.email);
    const headers: Record<string, string | undefined> = { ...browser.write, ...change };
    if (headers['x-csrf-token'] === 'other') headers['x-csrf-token'] = other.csrf;
    for (const name of Object.keys(headers)) if (headers[name] === undefined) delete headers[name];
    const res = await s.app.inject({ method: 'POST', url: flagsUrl(), headers: headers as Record<string, string>, payload: { key: 'csrf-victim' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ type: 'authentication_error', code: 'csrf_failed', attr: null });
    const flags = (await s.app.inject({ url: `${flagsUrl()}?search=csrf-victim`, headers: browser.read })).json().results;
    expect(flags).toEqual([]);
  });

  it('applies to PATCH, DELETE and logout too, not to reads', async () => {
    const flag = (await createFlag(browser.write)).json();
    const url = `${flagsUrl()}${flag.id}/`;
    expect((await s.app.inject({ method: 'PATCH', url, headers: browser.read, payload: { name: 'x' } })).statusCode).toBe(403);
    const member = (await s.app.inject({ url: '/api/organization/members/', headers: browser.read })).json().results[0];
    expect((await s.app.inject({ method: 'DELETE', url: `/api/organization/members/${member.id}/`, headers: browser.read })).statusCode).toBe(403);
    expect((await s.app.inject({ method: 'POST', url: '/api/logout', headers: browser.read })).statusCode).toBe(403);
    expect((await me(browser.read)).statusCode).toBe(200);
    expect((await s.app.inject({ url, headers: browser.read })).statusCode).toBe(200);
  });

  it('personal API keys need none (Authorization wins over a cookie)', async () => {
    expect((await createFlag(s.headers)).statusCode).toBe(201);
    expect((await createFlag({ ...s.headers, cookie: browser.read.cookie, origin: 'https://evil.example' })).statusCode).toBe(201);
  });

  it('login from another site is refused (login CSRF); from no page, or this one, it is not', async () => {
    const from = (origin?: string) =>
      s.app.inject({ method: 'POST', url: '/api/login', headers: origin ? { origin } : {}, payload: { email: admin.email, password: PASSWORD } });
    expect((await from('https://evil.example')).statusCode).toBe(403);
    expect((await from(ORIGIN)).statusCode).toBe(200);
    expect((await from()).statusCode).toBe(200);
  });
});

describe('the login throttle', () => {
  const attempt = (address: string, remoteAddress: string, password = 'wrong password', headers: Record<string, string> = {}, on = s) =>
    on.app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers, payload: { email: address, password } });
  /** Time passes for the throttle: every recorded failure moves `ms` into the past. */
  const pass = async (ms: number, on = s) => {
    const db = on.services.db.kysely;
    for (const row of await db.selectFrom('login_failures').select(['id', 'at']).execute()) {
      await db
        .updateTable('login_failures')
        .set({ at: new Date(Date.parse(row.at) - ms).toISOString() })
        .where('id', '=', row.id)
        .execute();
    }
  };
  const newUser = async (name: string) => {
    const address = email(name);
    await s.services.users.create({ email: address, password: PASSWORD });
    return address;
  };

  it('lets an address give 5 wrong passwords for an email, then makes each next attempt wait 30 s, doubling up to 15 minutes', async () => {
    const victim = await newUser('victim');
    const address = '10.2.0.1';
    for (let i = 0; i < 5; i++) expect((await attempt(victim, address)).statusCode).toBe(401);
    for (const wait of [30, 60, 120, 240, 480, 900, 900]) {
      // The right password waits too: an answer other than 429 would tell a guesser something.
      const throttled = await attempt(victim, address, PASSWORD);
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json()).toMatchObject({ type: 'throttled_error', code: 'throttled', attr: null });
      const retryAfter = Number(throttled.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(wait - 5);
      expect(retryAfter).toBeLessThanOrEqual(wait);
      expect(sessionCookie(throttled)).toBeUndefined();
      await pass(retryAfter * 1000 - 2000);
      expect((await attempt(victim, address, PASSWORD)).statusCode, 'still waiting').toBe(429);
      await pass(2000);
      expect((await attempt(victim, address)).statusCode).toBe(401);
    }
  });

  it('says how long to wait in words', async () => {
    const address = '10.2.1.1';
    const victim = email('words');
    for (let i = 0; i < 5; i++) await attempt(victim, address);
    expect((await attempt(victim, address)).json().detail).toBe('Too many wrong passwords for this email from your address. Try again in 30 seconds.');
    for (let i = 0; i < 5; i++) {
      await pass(15 * 60_000);
      await attempt(victim, address);
    }
    expect((await attempt(victim, address)).json().detail).toMatch(/^Too many .* Try again in 15 minutes\.$/);
  });

  it("does not lock the owner out: a guesser's address waits, the owner logs in from another", async () => {
    const victim = await newUser('owner');
    for (let i = 0; i < 6; i++) await attempt(victim, '10.3.0.1');
    expect((await attempt(victim, '10.3.0.1', PASSWORD)).statusCode).toBe(429);
    const owner = await attempt(victim, '10.3.0.2', PASSWORD);
    expect(owner.statusCode).toBe(200);
    expect(sessionCookie(owner)).toBeDefined();
    // Guesses from many addresses do not lock the account either.
    for (let i = 0; i < 10; i++) await attempt(victim, `10.3.1.${i}`);
    expect((await attempt(victim, '10.3.0.2', PASSWORD)).statusCode).toBe(200);
  });

  it('does not slow the other accounts behind one address (users behind a proxy without TRUST_PROXY)', async () => {
    const address = '10.4.0.1';
    const colleague = await newUser('colleague');
    for (let i = 0; i < 6; i++) await attempt(admin.email, address);
    for (let i = 0; i < 6; i++) expect((await attempt(email('guess'), address)).statusCode).toBe(401);
    expect((await attempt(colleague, address, PASSWORD)).statusCode).toBe(200);
    expect((await attempt(admin.email, address, PASSWORD)).statusCode).toBe(429);
  });

  it('tells clients apart by the X-Forwarded-For of a trusted proxy: with TRUST_PROXY a guesser there does not slow the owner', async () => {
    const proxied = await startService({ trustProxy: true });
    try {
      for (const [service, ownerStatus] of [
        [s, 429],
        [proxied, 200],
      ] as const) {
        const owner = email('proxied');
        await service.services.users.create({ email: owner, password: PASSWORD });
        const from = (client: string, password?: string) => attempt(owner, '10.5.0.1', password, { 'x-forwarded-for': client }, service);
        for (let i = 0; i < 5; i++) await from('203.0.113.5');
        expect((await from('198.51.100.7', PASSWORD)).statusCode, `trustProxy: ${service === proxied}`).toBe(ownerStatus);
      }
    } finally {
      await proxied.close();
    }
  });

  it('counts an IPv6 client by its /64, so that changing addresses inside it starts nothing afresh', async () => {
    const victim = email('v6');
    for (let i = 1; i <= 5; i++) expect((await attempt(victim, `2001:db8:1:2::${i}`)).statusCode).toBe(401);
    expect((await attempt(victim, '2001:db8:1:2:ffff::99')).statusCode).toBe(429);
    expect((await attempt(victim, '2001:db8:1:3::1')).statusCode).toBe(401);
    // IPv4 written as IPv6 is the IPv4 address.
    for (let i = 0; i < 5; i++) await attempt(victim, '10.6.0.1');
    expect((await attempt(victim, '::ffff:10.6.0.1')).statusCode).toBe(429);
  });

  it("forgets the pair's failures when it logs in, and any failure after a day", async () => {
    const victim = await newUser('forget');
    const address = '10.7.0.1';
    for (let i = 0; i < 4; i++) await attempt(victim, address);
    expect((await attempt(victim, address, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await attempt(victim, address)).statusCode).toBe(401);
    expect((await attempt(victim, address)).statusCode).toBe(429);
    await pass(24 * 60 * 60_000 + 1000);
    for (let i = 0; i < 5; i++) expect((await attempt(victim, address)).statusCode).toBe(401);
  });

  it('counts in the database, so that every instance on it agrees', async () => {
    const victim = email('shared');
    for (let i = 0; i < 5; i++) await attempt(victim, '10.8.0.1');
    const other = await startService({}, s.storage);
    try {
      expect((await attempt(victim, '10.8.0.1', 'x', {}, other)).statusCode).toBe(429);
    } finally {
      await other.close({ keepData: true });
    }
  });
});
