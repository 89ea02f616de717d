import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const operations = [
  ['get', '/api/projects'],
  ['get', '/api/projects/{project_id}'],
  ['get', '/api/projects/{project_id}/feature_flags'],
  ['post', '/api/projects/{project_id}/feature_flags'],
  ['get', '/api/projects/{project_id}/feature_flags/{id}'],
  ['patch', '/api/projects/{project_id}/feature_flags/{id}'],
  ['get', '/api/projects/{project_id}/early_access_feature'],
  ['post', '/api/projects/{project_id}/early_access_feature'],
  ['get', '/api/projects/{project_id}/early_access_feature/{id}'],
  ['patch', '/api/projects/{project_id}/early_access_feature/{id}'],
  ['delete', '/api/projects/{project_id}/early_access_feature/{id}'],
  ['get', '/api/projects/{project_id}/events'],
  ['get', '/api/projects/{project_id}/persons'],
  ['post', '/flags'],
  ['post', '/decide'],
  ['get', '/flags/definitions'],
  ['get', '/api/feature_flag/local_evaluation'],
] as const;

/** SDK routes take a project token, not a personal key. */
const sdk = new Set(['post /flags', 'post /decide']);

describe('GET /api/schema/', () => {
  it('serves an OpenAPI 3 document generated from the route schemas, covering every route', async () => {
    const res = await s.app.inject({ url: '/api/schema/' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(operations.map(([m, p]) => `${m} ${p}`).sort());
    for (const [method, path] of operations) {
      const op = doc.paths[path][method];
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(sdk.has(`${method} ${path}`) ? ['400', '401'] : ['401', '403']));
      if (method === 'post' || method === 'patch') expect(op.requestBody.content['application/json'].schema).toBeDefined();
      if ((method === 'post' || method === 'patch') && !sdk.has(`${method} ${path}`)) expect(op.requestBody.content['application/json'].schema.properties).toBeDefined();
    }
    const create = doc.paths['/api/projects/{project_id}/early_access_feature'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'stage']);
    expect(create.requestBody.content['application/json'].schema.properties.stage.enum).toEqual(['draft', 'concept', 'alpha', 'beta', 'general-availability', 'archived']);
    expect(Object.keys(create.responses)).toContain('201');
  });
});
