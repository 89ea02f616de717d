import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
let base: string;
beforeAll(async () => {
  s = await startService({ bodyLimit: 4096 });
  base = `/api/projects/${s.projectId}/early_access_feature/`;
});
afterAll(() => s.close());

describe('error bodies', () => {
  it('answers malformed JSON with 400 parse_error', async () => {
    const res = await s.app.inject({ method: 'POST', url: base, headers: { ...s.headers, 'content-type': 'application/json' }, payload: '{"name": "x",' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'parse_error', attr: null });
    expect(res.json().detail).toMatch(/^JSON parse error/);
  });

  it('answers an empty JSON body with 400 parse_error', async () => {
    const res = await s.app.inject({ method: 'POST', url: base, headers: { ...s.headers, 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('parse_error');
  });

  it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])('answers %s with 415', async (type) => {
    const res = await s.app.inject({ method: 'POST', url: base, headers: { ...s.headers, 'content-type': type }, payload: 'name=x' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ type: 'invalid_request', code: 'unsupported_media_type', attr: null });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await s.app.inject({ method: 'POST', url: base, headers: s.headers, payload: { name: 'x', stage: 'beta', description: 'd'.repeat(5000) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ type: 'invalid_request', code: 'request_too_large', detail: 'Request body is too large.', attr: null });
  });

  it.each(['/nope', '/api/nope/', '/api/projects/1/unknown_collection/'])('answers the unknown route %s with 404', async (url) => {
    const res = await s.app.inject({ url, headers: s.headers });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
  });

  it.each([
    ['PUT', 'early_access_feature/'],
    ['DELETE', 'early_access_feature/'],
    ['DELETE', 'feature_flags/1/'],
    ['PUT', 'feature_flags/1/'],
  ])('answers %s on %s with 405 and an Allow header', async (method, path) => {
    const res = await s.app.inject({ method: method as 'PUT', url: `/api/projects/${s.projectId}/${path}`, headers: s.headers, payload: {} });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ type: 'invalid_request', code: 'method_not_allowed', detail: `Method "${method}" not allowed.`, attr: null });
    expect(res.headers.allow).toContain('GET');
  });

  it('answers with JSON even for a request the router cannot parse', async () => {
    const res = await s.app.inject({ url: '/api/projects/%E0%A4%A/', headers: s.headers });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
  });
});

describe('rate limit', () => {
  it('answers 429 throttled_error with Retry-After once a key spends its budget', async () => {
    const limited = await startService({ apiRateLimitPerMinute: 3 });
    try {
      for (let i = 0; i < 3; i++) expect((await limited.app.inject({ url: '/api/projects/', headers: limited.headers })).statusCode).toBe(200);
      const res = await limited.app.inject({ url: '/api/projects/', headers: limited.headers });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ type: 'throttled_error', code: 'throttled', attr: null });
      expect(res.json().detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds\.$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // another key has its own budget
      const other = await limited.keyWith(['*']);
      expect((await limited.app.inject({ url: '/api/projects/', headers: limited.auth(other) })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
