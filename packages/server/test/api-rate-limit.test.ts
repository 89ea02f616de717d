import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, browserOf, email } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// Issue 13: the global API rate limit counts per personal API key, per live session (people behind one address do not
// share one budget), and otherwise per client address; a made-up session cookie counts against its address.

const LIMIT = 5;
let s: TestService;
beforeAll(async () => {
  s = await startService({ apiRateLimitPerMinute: LIMIT });
});
afterAll(() => s.close());

const OFFICE = '10.13.0.1';

async function loginFrom(remoteAddress: string) {
  const address = email('limited');
  await s.services.users.create({ email: address, password: PASSWORD, role: 'viewer' });
  return browserOf(await s.app.inject({ method: 'POST', url: '/api/login', payload: { email: address, password: PASSWORD }, remoteAddress }));
}

describe('the API rate limit with sessions', () => {
  it('gives each session of one address its own budget, and a made-up cookie the address’s', async () => {
    // Two people behind one address: their logins use 2 of the address's budget.
    const alice = await loginFrom(OFFICE);
    const bob = await loginFrom(OFFICE);
    const me = (headers: Record<string, string>) => s.app.inject({ url: '/api/users/@me', headers, remoteAddress: OFFICE });

    for (let i = 0; i < LIMIT; i++) expect((await me(alice.read)).statusCode).toBe(200);
    const over = await me(alice.read);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ type: 'throttled_error' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Bob's session is not throttled by Alice's requests, nor is the address's budget used up by them.
    expect((await me(bob.read)).statusCode).toBe(200);

    // Made-up cookies are no session: each counts against the address (3 left after the 2 logins).
    const setup = (cookie: string) => s.app.inject({ url: '/api/setup', headers: { cookie: `service_session=${cookie}` }, remoteAddress: OFFICE });
    const statuses = [];
    for (let i = 0; i < LIMIT - 2 + 1; i++) statuses.push((await setup(`made-up-${i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Alice's live session still is limited by its own budget only.
    expect((await me(alice.read)).statusCode).toBe(429);
  });
});
