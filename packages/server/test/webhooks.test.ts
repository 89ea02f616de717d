import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_KINDS } from '../src/modules';
import { startService, type TestService } from './helpers';

// Issue 12, point 6: webhooks per project (the API; sending is in webhook-deliveries.test.ts). This service refuses
// private addresses (WEBHOOK_ALLOW_PRIVATE unset); its worker never finds anything to send to.
let s: TestService;
let base: string;
beforeAll(async () => {
  s = await startService({ webhookAllowPrivate: false });
  base = `/api/projects/${s.projectId}/webhooks/`;
});
afterAll(() => s.close());

const URL_OK = 'https://hooks.example.com/receive';
const create = (payload: Record<string, unknown>, headers = s.headers, url = base) => s.app.inject({ method: 'POST', url, headers, payload });
const patch = (id: string, payload: Record<string, unknown>) => s.app.inject({ method: 'PATCH', url: `${base}${id}/`, headers: s.headers, payload });
const get = (id: string, headers = s.headers) => s.app.inject({ url: `${base}${id}/`, headers });

describe('webhooks API', () => {
  it('creates a webhook with a generated whsec_ secret, shown on create only; GET shows its mask', async () => {
    const res = await create({ url: URL_OK, kinds: ['feature_flag.changed', 'early_access.enrolled'] });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ url: URL_OK, kinds: ['feature_flag.changed', 'early_access.enrolled'], enabled: true });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(created.secret.slice(6), 'base64').length).toBe(32);
    expect(created.secret_mask).toBe(`${created.secret.slice(0, 10)}...${created.secret.slice(-4)}`);
    const read = (await get(created.id)).json();
    expect(read.secret).toBeUndefined();
    const { secret: _, ...shown } = created;
    expect(read).toEqual(shown);
    const list = (await s.app.inject({ url: base, headers: s.headers })).json();
    expect(list.results.map((w: { id: string }) => w.id)).toContain(created.id);
    expect(JSON.stringify(list)).not.toContain(created.secret);
  });

  it('keeps a given whsec_ secret and refuses another form, naming the field', async () => {
    const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const res = await create({ url: URL_OK, kinds: ['feature_flag.changed'], secret });
    expect(res.statusCode).toBe(201);
    expect(res.json().secret).toBe(secret);
    for (const bad of ['plain-secret-of-enough-length', 'whsec_c2hvcnQ=', 'whsec_not base64!!']) {
      const refused = await create({ url: URL_OK, kinds: ['feature_flag.changed'], secret: bad });
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json()).toMatchObject({ type: 'validation_error', code: 'invalid_secret', attr: 'secret' });
    }
  });

  it('updates url, kinds, enabled and secret with PATCH, and deletes with DELETE', async () => {
    const { id } = (await create({ url: URL_OK, kinds: ['feature_flag.changed'] })).json();
    const res = await patch(id, { url: 'http://other.example.com/x', kinds: ['early_access.stage_changed'], enabled: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, url: 'http://other.example.com/x', kinds: ['early_access.stage_changed'], enabled: false });
    expect((await get(id)).json()).toEqual(res.json());
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect((await patch(id, { secret })).json().secret_mask).toBe(`${secret.slice(0, 10)}...${secret.slice(-4)}`);

    expect((await s.app.inject({ method: 'DELETE', url: `${base}${id}/`, headers: s.headers })).statusCode).toBe(204);
    expect((await get(id)).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'DELETE', url: `${base}${id}/`, headers: s.headers })).statusCode).toBe(404);
  });

  it.each([
    ['ftp://example.com/hook', 'not http(s)'],
    ['javascript:alert(1)', 'not http(s)'],
    ['not a url', 'not a URL'],
    ['https://user:pw@example.com/', 'credentials'],
  ])('refuses the URL %s (%s) with 400 naming url', async (url) => {
    const res = await create({ url, kinds: ['feature_flag.changed'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'validation_error', code: 'invalid_url', attr: 'url' });
  });

  it.each([
    'http://127.0.0.1:8080/',
    'http://localhost/hook',
    'http://api.localhost/hook',
    'http://10.1.2.3/',
    'http://192.168.0.10/',
    'http://172.16.5.4/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.1.2.3]/',
    // IPv4-compatible (`::/96`, deprecated), whatever IPv4 address it holds
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[::0:169.254.169.254]/',
    'http://[::8.8.8.8]/',
    // NAT64 (RFC 6052) to a private IPv4 address, and IPv4-translated (RFC 6145)
    'http://[64:ff9b::127.0.0.1]/',
    'http://[64:ff9b::a01:203]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[2001:db8::1]/',
    'http://2130706433/',
    'http://224.0.0.1/',
  ])('refuses the loopback, private or reserved address %s without WEBHOOK_ALLOW_PRIVATE', async (url) => {
    const res = await create({ url, kinds: ['feature_flag.changed'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_url', attr: 'url' });
    const { id } = (await create({ url: URL_OK, kinds: ['feature_flag.changed'] })).json();
    expect((await patch(id, { url })).json()).toMatchObject({ code: 'invalid_url', attr: 'url' });
  });

  it.each([
    'https://93.184.215.14/hook',
    'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook',
    // An IPv6 address that reaches a public IPv4 one: IPv4-mapped, and NAT64 (a service on an IPv6-only network)
    'https://[::ffff:93.184.215.14]/hook',
    'https://[64:ff9b::93.184.215.14]/hook',
  ])('accepts the public address literal %s', async (url) => {
    expect((await create({ url, kinds: ['feature_flag.changed'] })).statusCode).toBe(201);
  });

  it('refuses an unknown kind or no kind, naming kinds; a missing url or kinds is required', async () => {
    const unknown = await create({ url: URL_OK, kinds: ['feature_flag.changed', 'person.deleted'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'invalid_choice', attr: 'kinds' });
    expect((await create({ url: URL_OK, kinds: [] })).json()).toMatchObject({ code: 'required', attr: 'kinds' });
    expect((await create({ url: URL_OK })).json()).toMatchObject({ code: 'required', attr: 'kinds' });
    expect((await create({ kinds: ['feature_flag.changed'] })).json()).toMatchObject({ code: 'required', attr: 'url' });
    expect((await create({ url: URL_OK, kinds: [...WEBHOOK_KINDS, ...WEBHOOK_KINDS] })).json().kinds).toEqual([...WEBHOOK_KINDS]);
  });

  it('answers 404 for a webhook id that is not one of the project, and for its deliveries', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expect((await get(id)).statusCode).toBe(404);
      expect((await patch(id, { enabled: false })).statusCode).toBe(404);
      expect((await s.app.inject({ url: `${base}${id}/deliveries/`, headers: s.headers })).statusCode).toBe(404);
    }
  });

  it('lists deliveries of a webhook (none yet) and refuses an unknown status filter', async () => {
    const { id } = (await create({ url: URL_OK, kinds: ['feature_flag.changed'] })).json();
    const res = await s.app.inject({ url: `${base}${id}/deliveries/?status=pending`, headers: s.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    const bad = await s.app.inject({ url: `${base}${id}/deliveries/?status=sent`, headers: s.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_choice', attr: 'status' });
  });

  it('needs webhook:read to read and webhook:write to change', async () => {
    const { id } = (await create({ url: URL_OK, kinds: ['feature_flag.changed'] })).json();
    const reader = s.auth(await s.keyWith(['webhook:read']));
    const flagsOnly = s.auth(await s.keyWith(['feature_flag:write']));
    expect((await get(id, reader)).statusCode).toBe(200);
    expect((await s.app.inject({ url: `${base}${id}/deliveries/`, headers: reader })).statusCode).toBe(200);
    const denied = await create({ url: URL_OK, kinds: ['feature_flag.changed'] }, reader);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toBe("API key missing required scope 'webhook:write'");
    expect((await s.app.inject({ method: 'PATCH', url: `${base}${id}/`, headers: reader, payload: { enabled: false } })).statusCode).toBe(403);
    expect((await s.app.inject({ method: 'DELETE', url: `${base}${id}/`, headers: reader })).statusCode).toBe(403);
    expect((await get(id, flagsOnly)).statusCode).toBe(403);
    expect((await s.app.inject({ url: `${base}${id}/deliveries/`, headers: flagsOnly })).statusCode).toBe(403);
    const writer = s.auth(await s.keyWith(['webhook:write']));
    expect((await create({ url: URL_OK, kinds: ['feature_flag.changed'] }, writer)).statusCode).toBe(201);
    expect((await get(id, writer)).statusCode).toBe(200);
  });

  it("keeps projects apart: another project's webhook is 404 here, and a key limited to one project cannot reach the other", async () => {
    const other = await s.services.projects.create('Other');
    const otherBase = `/api/projects/${other.id}/webhooks/`;
    const theirs = (await create({ url: URL_OK, kinds: ['feature_flag.changed'] }, s.headers, otherBase)).json();
    expect((await get(theirs.id)).statusCode).toBe(404);
    expect((await patch(theirs.id, { enabled: false })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'DELETE', url: `${base}${theirs.id}/`, headers: s.headers })).statusCode).toBe(404);
    expect((await s.app.inject({ url: `${base}${theirs.id}/deliveries/`, headers: s.headers })).statusCode).toBe(404);
    const ours = (await s.app.inject({ url: `${base}?limit=1000`, headers: s.headers })).json();
    expect(ours.results.map((w: { id: string }) => w.id)).not.toContain(theirs.id);
    const limited = s.auth(await s.keyWith(['webhook:write'], [s.projectId]));
    expect((await s.app.inject({ url: otherBase, headers: limited })).statusCode).toBe(403);
    expect((await s.app.inject({ url: `${otherBase}${theirs.id}/`, headers: s.headers })).statusCode).toBe(200);
  });
});
