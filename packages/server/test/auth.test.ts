import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
let featureId: string;
let flagId: number;
beforeAll(async () => {
  s = await startService();
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/projects/${s.projectId}/early_access_feature/`,
    headers: s.headers,
    payload: { name: 'Guarded', stage: 'beta' },
  });
  featureId = res.json().id;
  flagId = res.json().feature_flag_id;
});
afterAll(() => s.close());

type Route = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: () => string; scope: string; payload?: () => Record<string, unknown> };
const p = () => s.projectId;
let seq = 0;
const routes: Route[] = [
  { method: 'GET', url: () => `/api/projects/${p()}/early_access_feature/`, scope: 'early_access_feature:read' },
  { method: 'GET', url: () => `/api/projects/${p()}/early_access_feature/${featureId}/`, scope: 'early_access_feature:read' },
  {
    method: 'POST',
    url: () => `/api/projects/${p()}/early_access_feature/`,
    scope: 'early_access_feature:write',
    payload: () => ({ name: `Auth ${++seq}`, stage: 'draft' }),
  },
  {
    method: 'PATCH',
    url: () => `/api/projects/${p()}/early_access_feature/${featureId}/`,
    scope: 'early_access_feature:write',
    payload: () => ({ description: 'x' }),
  },
  { method: 'GET', url: () => `/api/projects/${p()}/feature_flags/`, scope: 'feature_flag:read' },
  { method: 'GET', url: () => `/api/projects/${p()}/feature_flags/${flagId}/`, scope: 'feature_flag:read' },
  { method: 'POST', url: () => `/api/projects/${p()}/feature_flags/`, scope: 'feature_flag:write', payload: () => ({ key: `auth-${++seq}` }) },
  { method: 'PATCH', url: () => `/api/projects/${p()}/feature_flags/${flagId}/`, scope: 'feature_flag:write', payload: () => ({ name: 'x' }) },
  { method: 'GET', url: () => `/api/projects/`, scope: 'project:read' },
  { method: 'GET', url: () => `/api/projects/${p()}/`, scope: 'project:read' },
];
const label = (r: Route) => `${r.method} ${r.url.toString().match(/`(.*)`/)?.[1] ?? ''}`;
const send = (r: Route, headers: Record<string, string>) =>
  s.app.inject({ method: r.method, url: r.url(), headers, ...(r.payload ? { payload: r.payload() } : {}) });
const ok = (r: Route) => (r.method === 'POST' ? 201 : 200);

describe.each(routes.map((r) => [label(r), r] as const))('%s', (_label, route) => {
  it('answers 401 not_authenticated without a key', async () => {
    const res = await send(route, {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      type: 'authentication_error',
      code: 'not_authenticated',
      detail: 'Authentication credentials were not provided.',
      attr: null,
    });
  });

  it.each(['Bearer phx_wrong', 'Bearer ', 'Basic abc', 'phx_nobearer'])('answers 401 authentication_failed for "%s"', async (authorization) => {
    const res = await send(route, { authorization });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      type: 'authentication_error',
      code: 'authentication_failed',
      detail: 'Personal API key found in request Authorization header is invalid.',
      attr: null,
    });
  });

  it('answers 401 for a revoked key', async () => {
    const { key, secret } = await s.services.keys.create({ label: 'revoked', scopes: ['*'], projectIds: null });
    expect((await send(route, s.auth(secret))).statusCode).toBe(ok(route));
    await s.services.keys.revoke(key.id);
    expect((await send(route, s.auth(secret))).statusCode).toBe(401);
  });

  it(`answers 403 for a key without ${route.scope}`, async () => {
    const [object, action] = route.scope.split(':');
    const wrong = action === 'write' ? [`${object}:read`] : [object === 'project' ? 'feature_flag:write' : 'project:read'];
    const res = await send(route, s.auth(await s.keyWith(wrong)));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      type: 'authentication_error',
      code: 'permission_denied',
      detail: `API key missing required scope '${route.scope}'`,
      attr: null,
    });
  });

  it(`accepts ${route.scope}, the write scope for a read, and *`, async () => {
    const [object] = route.scope.split(':');
    for (const scopes of [[route.scope], [`${object}:write`], ['*']]) {
      expect((await send(route, s.auth(await s.keyWith(scopes)))).statusCode).toBe(ok(route));
    }
  });
});

describe('project limits', () => {
  it('answers 403 when a key limited to project A is used on project B, and 200 on A', async () => {
    const other = await s.services.projects.create('B');
    const limited = await s.keyWith(['*'], [s.projectId]);
    const res = await s.app.inject({ url: `/api/projects/${other.id}/early_access_feature/`, headers: s.auth(limited) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      type: 'authentication_error',
      code: 'permission_denied',
      detail: `API key does not have access to the requested project: ID ${other.id}.`,
      attr: null,
    });
    expect((await s.app.inject({ url: `/api/projects/${s.projectId}/early_access_feature/`, headers: s.auth(limited) })).statusCode).toBe(200);
    expect((await s.app.inject({ url: `/api/projects/${other.id}/`, headers: s.auth(limited) })).statusCode).toBe(403);
  });

  it('lists only the projects a limited key may use', async () => {
    await s.services.projects.create('C');
    const limited = await s.keyWith(['project:read'], [s.projectId]);
    const page = (await s.app.inject({ url: '/api/projects/', headers: s.auth(limited) })).json();
    expect(page.count).toBe(1);
    expect(page.results.map((r: { id: number }) => r.id)).toEqual([s.projectId]);
    const all = (await s.app.inject({ url: '/api/projects/', headers: s.headers })).json();
    expect(all.count).toBeGreaterThan(1);
    expect(Object.keys(all.results[0]).sort()).toEqual(['api_token', 'created_at', 'id', 'name']);
  });

  it.each(['999999', 'abc', '-1'])('answers 404 Project not found for project %s', async (id) => {
    const res = await s.app.inject({ url: `/api/projects/${id}/early_access_feature/`, headers: s.headers });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Project not found.', attr: null });
  });

  it('never shows one project the features of another', async () => {
    const other = await s.services.projects.create('D');
    await s.app.inject({
      method: 'POST',
      url: `/api/projects/${other.id}/early_access_feature/`,
      headers: s.headers,
      payload: { name: 'Secret', stage: 'beta' },
    });
    const mine = (await s.app.inject({ url: `/api/projects/${s.projectId}/early_access_feature/`, headers: s.headers })).json();
    expect(mine.results.map((f: { name: string }) => f.name)).not.toContain('Secret');
    const theirs = (await s.app.inject({ url: `/api/projects/${other.id}/early_access_feature/`, headers: s.headers })).json();
    expect(theirs.results.map((f: { name: string }) => f.name)).toEqual(['Secret']);
  });
});

describe('keys at rest', () => {
  it('stores only a hash of the key', async () => {
    const { key, secret } = await s.services.keys.create({ label: 'hashed', scopes: ['*'], projectIds: null });
    const row = await s.services.db.kysely.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.secure_value).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records when a key was last used', async () => {
    const { key, secret } = await s.services.keys.create({ label: 'used', scopes: ['*'], projectIds: null });
    expect((await s.services.keys.list()).find((k) => k.id === key.id)?.last_used_at).toBeNull();
    await s.app.inject({ url: '/api/projects/', headers: s.auth(secret) });
    expect((await s.services.keys.list()).find((k) => k.id === key.id)?.last_used_at).toMatch(/^\d{4}-/);
  });
});
