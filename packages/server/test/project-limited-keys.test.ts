import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWith, type Browser } from './accounts-helpers';
import { startService, type TestService } from './helpers';

// A key limited to some projects acts on those projects only: every organization-level route refuses it, but the few
// that answer within its reach. The routes come from the OpenAPI document (which a test keeps equal to what the app
// serves), so a new organization-level route is refused by default, or this test fails until it is listed here.

/** Organization-level routes a project-limited key may use: each answers within the key's reach (tested below). */
const ALLOWED = new Set([
  'get /api/projects', // its projects only
  'get /api/users/@me', // its user
  'get /api/personal_api_keys', // the keys it could have made, itself among them
  'post /api/personal_api_keys', // limited to its projects, with scopes it has
  'delete /api/personal_api_keys/{id}', // the keys it could have made
  'get /flags/definitions', // the project of the token it sends, which must be one of its projects
  'get /api/feature_flag/local_evaluation', // the same
  'get /api/environments/@current/llm_prompts', // the same (llm-prompts-sdk.test.ts)
  'get /api/environments/@current/llm_prompts/name/{name}', // the same
]);

type Op = { method: string; path: string };
type Key = { id: string; value: string };

let s: TestService;
let other: number;
let owner: Browser;
let viewer: Browser;
/** `service keys create --scopes '*' --project <p>`, and the bootstrap key's id (a command-line key of every project). */
let cliLimited: Key;
let cliUnlimited: Key;
/** An owner's own `*` keys, one limited to the project and one not. */
let ownerLimited: Key;
let ownerUnlimited: Key;
/** Every operation of the REST API that takes a personal API key or a session. */
let authenticated: Op[];

const p = () => s.projectId;
const createdKey = async (browser: Browser, body: object): Promise<Key> => {
  const res = await s.app.inject({ method: 'POST', url: '/api/personal_api_keys/', headers: browser.write, payload: { label: 'k', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const keyOfCommandLine = async (scopes: string[], projectIds: number[] | null): Promise<Key> => {
  const { key, secret } = await s.services.keys.create({ label: 'cli', scopes, projectIds });
  return { id: key.id, value: secret };
};

beforeAll(async () => {
  s = await startService();
  other = (await s.services.projects.create('Other')).id;
  owner = await userWith(s, 'owner');
  viewer = await userWith(s, 'viewer');
  cliLimited = await keyOfCommandLine(['*'], [p()]);
  cliUnlimited = await keyOfCommandLine(['*'], null);
  ownerLimited = await createdKey(owner, { scopes: ['*'], project_ids: [p()] });
  ownerUnlimited = await createdKey(owner, { scopes: ['*'] });
  const doc = (await s.app.inject({ url: '/api/schema/' })).json() as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  authenticated = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.security === undefined || op.security.length > 0)
      .map(([method]) => ({ method, path })),
  );
});
afterAll(() => s.close());

const name = (op: Op) => `${op.method} ${op.path}`;
/** The operation as a request: path parameters filled (`project_id` with `projectId`), an empty JSON body on writes. */
const send = (op: Op, key: string, projectId = p()) =>
  s.app.inject({
    method: op.method.toUpperCase() as 'GET',
    url: op.path.replace('{project_id}', String(projectId)).replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
    headers: s.auth(key),
    ...(['post', 'patch', 'put'].includes(op.method) ? { payload: {} } : {}),
  });

describe('a key limited to some projects', () => {
  it('is refused with 403 on every organization-level route but the few that answer within its reach', async () => {
    const organizationLevel = authenticated.filter((op) => !op.path.includes('{project_id}'));
    expect(organizationLevel.map(name)).toEqual(expect.arrayContaining([...ALLOWED]));
    const refused = organizationLevel.filter((op) => !ALLOWED.has(name(op)));
    expect(refused.map(name)).toEqual(
      expect.arrayContaining(['post /api/projects', 'patch /api/organization/members/{user_id}', 'post /api/organization/invites']),
    );
    const wrong: string[] = [];
    for (const op of refused) {
      for (const [who, key] of [
        ['command-line key', cliLimited],
        ["owner's key", ownerLimited],
      ] as const) {
        const res = await send(op, key.value);
        const body = res.json();
        if (res.statusCode !== 403 || body.code !== 'permission_denied' || !/no organization-level access/.test(body.detail))
          wrong.push(`${name(op)} with a limited ${who}: ${res.statusCode} ${res.body}`);
      }
      // The limit refuses it, not a lack of scope: the same key without a limit is not refused.
      const unlimited = await send(op, cliUnlimited.value);
      if (unlimited.statusCode === 403) wrong.push(`${name(op)} with an unlimited key: ${unlimited.body}`);
    }
    expect(wrong).toEqual([]);
  });

  it("is refused with 403 on every route of another project, and not refused on its own project's", async () => {
    const projectLevel = authenticated.filter((op) => op.path.includes('{project_id}'));
    expect(projectLevel.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const op of projectLevel) {
      for (const key of [cliLimited, ownerLimited]) {
        const elsewhere = await send(op, key.value, other);
        if (elsewhere.statusCode !== 403 || elsewhere.json().detail !== `API key does not have access to the requested project: ID ${other}.`)
          wrong.push(`${name(op)} on another project: ${elsewhere.statusCode} ${elsewhere.body}`);
      }
      const own = await send(op, cliLimited.value);
      if (own.statusCode === 403) wrong.push(`${name(op)} on its project: ${own.body}`);
    }
    expect(wrong).toEqual([]);
  });

  it('cannot make a viewer an owner, invite, or remove a member; the organization stays as it was', async () => {
    for (const key of [cliLimited, ownerLimited]) {
      const headers = s.auth(key.value);
      const promote = await s.app.inject({ method: 'PATCH', url: `/api/organization/members/${viewer.id}/`, headers, payload: { role: 'owner' } });
      expect(promote.statusCode, promote.body).toBe(403);
      const invite = await s.app.inject({ method: 'POST', url: '/api/organization/invites/', headers, payload: { role: 'owner' } });
      expect(invite.statusCode, invite.body).toBe(403);
      const remove = await s.app.inject({ method: 'DELETE', url: `/api/organization/members/${viewer.id}/`, headers });
      expect(remove.statusCode, remove.body).toBe(403);
    }
    const members = (await s.app.inject({ url: '/api/organization/members/', headers: owner.read })).json().results;
    expect(members.find((m: { id: number }) => m.id === viewer.id)).toMatchObject({ role: 'viewer' });
    expect((await s.app.inject({ url: '/api/organization/invites/', headers: owner.read })).json().results).toEqual([]);
  });

  it('cannot revoke a key beyond its reach: an unlimited key, or another user’s; they keep working', async () => {
    const admin = await userWith(s, 'admin');
    const adminKey = await createdKey(admin, { scopes: ['feature_flag:read'], project_ids: [p()] });
    for (const [key, victims] of [
      [cliLimited, [cliUnlimited, ownerUnlimited, adminKey]],
      [ownerLimited, [ownerUnlimited, cliUnlimited, adminKey]],
    ] as const) {
      for (const victim of victims) {
        const res = await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${victim.id}/`, headers: s.auth(key.value) });
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'not_found' });
      }
    }
    for (const victim of [cliUnlimited, ownerUnlimited, adminKey]) {
      expect((await s.app.inject({ url: `/api/projects/${p()}/feature_flags/`, headers: s.auth(victim.value) })).statusCode).toBe(200);
    }
  });

  it('lists, makes and revokes only the keys it could have made: limited to its projects, with scopes it has', async () => {
    const headers = s.auth(ownerLimited.value);
    const listed = async (key: Key) =>
      ((await s.app.inject({ url: '/api/personal_api_keys/', headers: s.auth(key.value) })).json().results as { id: string }[]).map((k) => k.id);
    expect(await listed(ownerLimited)).toEqual([ownerLimited.id]);
    const cliListed = await listed(cliLimited);
    expect(cliListed).toContain(cliLimited.id);
    expect(cliListed).not.toContain(cliUnlimited.id);

    // What it makes is limited to its projects (even when asked for every project), and within its reach.
    const made = await s.app.inject({ method: 'POST', url: '/api/personal_api_keys/', headers, payload: { label: 'child', scopes: ['feature_flag:read'] } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().project_ids).toEqual([p()]);
    expect(await listed(ownerLimited)).toEqual([made.json().id, ownerLimited.id]);

    // A narrower key of the same user and project does not reach a wider one.
    const narrow = await createdKey(owner, { scopes: ['personal_api_key:write'], project_ids: [p()] });
    expect(await listed(narrow)).toEqual([narrow.id]);
    const up = await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${ownerLimited.id}/`, headers: s.auth(narrow.value) });
    expect(up.statusCode).toBe(404);

    expect((await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${made.json().id}/`, headers })).statusCode).toBe(204);
    expect((await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${narrow.id}/`, headers })).statusCode).toBe(204);
    expect(await listed(ownerLimited)).toEqual([ownerLimited.id]);
  });

  it('lists its projects only, reads its user, and revokes itself', async () => {
    const key = await createdKey(owner, { scopes: ['*'], project_ids: [p()] });
    const headers = s.auth(key.value);
    const projects = (await s.app.inject({ url: '/api/projects/', headers })).json();
    expect(projects.results.map((r: { id: number }) => r.id)).toEqual([p()]);
    expect((await s.app.inject({ url: '/api/users/@me', headers })).json()).toMatchObject({ id: owner.id, role: 'owner' });
    expect((await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${key.id}/`, headers })).statusCode).toBe(204);
    expect((await s.app.inject({ url: '/api/projects/', headers })).statusCode).toBe(401);
  });

  it('leaves an unlimited admin managing every key, as before', async () => {
    const key = await createdKey(viewer, { scopes: ['feature_flag:read'], project_ids: [p()] });
    expect((await s.app.inject({ method: 'DELETE', url: `/api/personal_api_keys/${key.id}/`, headers: s.auth(ownerUnlimited.value) })).statusCode).toBe(204);
  });
});
