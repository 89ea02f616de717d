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
  ['get', '/api/early_access_features'],
  ['get', '/array/{token}/config'],
  ...(['/e', '/i/v0/e', '/capture', '/batch'] as const).flatMap((path) => [['post', path] as const, ['get', path] as const]),
] as const;

/** SDK routes take a project token, not a personal key. */
const sdk = new Set(['post /flags', 'post /decide', 'get /api/early_access_features', 'get /array/{token}/config', ...['/e', '/i/v0/e', '/capture', '/batch'].flatMap((p) => [`post ${p}`, `get ${p}`])]);

/** Every route the app serves, as `method /path/{param}`, read from Fastify's route tree (HEAD and OPTIONS aside). */
function servedRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push(`${method.toLowerCase()} ${path}`);
  }
  return routes;
}

describe('GET /api/schema/', () => {
  it('serves an OpenAPI 3 document generated from the route schemas, covering every route', async () => {
    const res = await s.app.inject({ url: '/api/schema/' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(operations.map(([m, p]) => `${m} ${p}`).sort());
    // Nothing the app serves is left out, but the document itself and the health check.
    const served = servedRoutes(s.app.printRoutes({ commonPrefix: false })).filter((r) => r !== 'get /api/schema' && r !== 'get /_health');
    expect(served.length).toBeGreaterThan(20);
    expect(served.sort()).toEqual(documented.sort());
    for (const [method, path] of operations) {
      const op = doc.paths[path][method];
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(sdk.has(`${method} ${path}`) ? ['401', '429'] : ['401', '403']));
      if (method === 'post' || method === 'patch') expect(op.requestBody.content['application/json'].schema).toBeDefined();
      if ((method === 'post' || method === 'patch') && !sdk.has(`${method} ${path}`)) expect(op.requestBody.content['application/json'].schema.properties).toBeDefined();
    }
    const create = doc.paths['/api/projects/{project_id}/early_access_feature'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'stage']);
    expect(create.requestBody.content['application/json'].schema.properties.stage.enum).toEqual(['draft', 'concept', 'alpha', 'beta', 'general-availability', 'archived']);
    expect(Object.keys(create.responses)).toContain('201');
  });
});
