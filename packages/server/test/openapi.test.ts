import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameOperations, nameSchemas } from '../src/http/openapi';
import { isWebAppRoute } from '../src/web/routes';
import { servedRoutes, startService, type TestService } from './helpers';

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
  ['get', '/api/projects/{project_id}/feature_flags/{id}/scheduled_changes'],
  ['post', '/api/projects/{project_id}/feature_flags/{id}/scheduled_changes'],
  ['patch', '/api/projects/{project_id}/feature_flags/{id}/scheduled_changes/{change_id}'],
  ['delete', '/api/projects/{project_id}/feature_flags/{id}/scheduled_changes/{change_id}'],
  ['get', '/api/projects/{project_id}/early_access_feature'],
  ['post', '/api/projects/{project_id}/early_access_feature'],
  ['get', '/api/projects/{project_id}/early_access_feature/{id}'],
  ['patch', '/api/projects/{project_id}/early_access_feature/{id}'],
  ['delete', '/api/projects/{project_id}/early_access_feature/{id}'],
  ['get', '/api/projects/{project_id}/early_access_feature/{id}/enrollments'],
  ['post', '/api/projects/{project_id}/early_access_feature/{id}/enrollments'],
  ['get', '/api/projects/{project_id}/early_access_feature/{id}/enrollments/per_day'],
  ['get', '/api/projects/{project_id}/experiments'],
  ['post', '/api/projects/{project_id}/experiments'],
  ['get', '/api/projects/{project_id}/experiments/{id}'],
  ['patch', '/api/projects/{project_id}/experiments/{id}'],
  ['delete', '/api/projects/{project_id}/experiments/{id}'],
  ['post', '/api/projects/{project_id}/experiments/{id}/ship'],
  ['get', '/api/projects/{project_id}/experiments/{id}/results'],
  ['get', '/api/projects/{project_id}/surveys'],
  ['post', '/api/projects/{project_id}/surveys'],
  ['get', '/api/projects/{project_id}/surveys/{id}'],
  ['patch', '/api/projects/{project_id}/surveys/{id}'],
  ['delete', '/api/projects/{project_id}/surveys/{id}'],
  ['post', '/api/projects/{project_id}/surveys/{id}/launch'],
  ['post', '/api/projects/{project_id}/surveys/{id}/stop'],
  ['get', '/api/projects/{project_id}/surveys/{id}/results'],
  ['get', '/api/projects/{project_id}/error_tracking/issues'],
  ['get', '/api/projects/{project_id}/error_tracking/issues/{id}'],
  ['patch', '/api/projects/{project_id}/error_tracking/issues/{id}'],
  ['get', '/api/projects/{project_id}/error_tracking/issues/{id}/volume'],
  ['get', '/api/projects/{project_id}/error_tracking/issues/{id}/events'],
  ['get', '/api/projects/{project_id}/error_tracking/issues/{id}/people'],
  ['post', '/api/projects/{project_id}/error_tracking/issues/{id}/merge'],
  ['get', '/api/projects/{project_id}/error_tracking/sourcemaps'],
  ['post', '/api/projects/{project_id}/error_tracking/sourcemaps'],
  ['delete', '/api/projects/{project_id}/error_tracking/sourcemaps/{id}'],
  ['get', '/api/projects/{project_id}/llm/generations'],
  ['get', '/api/projects/{project_id}/llm/traces'],
  ['get', '/api/projects/{project_id}/llm/traces/{trace_id}'],
  ['get', '/api/projects/{project_id}/llm/usage'],
  ['get', '/api/projects/{project_id}/llm_prices'],
  ['put', '/api/projects/{project_id}/llm_prices'],
  ['get', '/api/projects/{project_id}/session_recording_settings'],
  ['patch', '/api/projects/{project_id}/session_recording_settings'],
  ['get', '/api/projects/{project_id}/session_recordings'],
  ['get', '/api/projects/{project_id}/session_recordings/{session_id}'],
  ['delete', '/api/projects/{project_id}/session_recordings/{session_id}'],
  ['get', '/api/projects/{project_id}/cohorts'],
  ['post', '/api/projects/{project_id}/cohorts'],
  ['get', '/api/projects/{project_id}/cohorts/{id}'],
  ['patch', '/api/projects/{project_id}/cohorts/{id}'],
  ['delete', '/api/projects/{project_id}/cohorts/{id}'],
  ['post', '/api/projects/{project_id}/cohorts/{id}/members'],
  ['delete', '/api/projects/{project_id}/cohorts/{id}/members'],
  ['get', '/api/projects/{project_id}/cohorts/{id}/persons'],
  ['get', '/api/projects/{project_id}/llm_prompts'],
  ['post', '/api/projects/{project_id}/llm_prompts'],
  ['get', '/api/projects/{project_id}/llm_prompts/{id}'],
  ['delete', '/api/projects/{project_id}/llm_prompts/{id}'],
  ['get', '/api/projects/{project_id}/llm_prompts/{id}/versions'],
  ['post', '/api/projects/{project_id}/llm_prompts/{id}/versions'],
  ['put', '/api/projects/{project_id}/llm_prompts/{id}/labels/{label}'],
  ['delete', '/api/projects/{project_id}/llm_prompts/{id}/labels/{label}'],
  ['get', '/api/environments/@current/llm_prompts/name/{name}'],
  ['get', '/api/environments/@current/llm_prompts'],
  ['get', '/api/projects/{project_id}/session_recordings/{session_id}/snapshots'],
  ['get', '/api/projects/{project_id}/session_recordings/{session_id}/events'],
  ['get', '/api/projects/{project_id}/webhooks'],
  ['post', '/api/projects/{project_id}/webhooks'],
  ['get', '/api/projects/{project_id}/webhooks/{id}'],
  ['patch', '/api/projects/{project_id}/webhooks/{id}'],
  ['delete', '/api/projects/{project_id}/webhooks/{id}'],
  ['get', '/api/projects/{project_id}/webhooks/{id}/deliveries'],
  ['get', '/api/projects/{project_id}/activity_log'],
  ['get', '/api/organization/activity_log'],
  ['post', '/api/projects'],
  ['patch', '/api/projects/{project_id}'],
  ['get', '/api/setup'],
  ['post', '/api/signup'],
  ['post', '/api/login'],
  ['post', '/api/logout'],
  ['get', '/api/users/@me'],
  ['post', '/api/users/@me/password'],
  ['get', '/api/organization/members'],
  ['patch', '/api/organization/members/{user_id}'],
  ['delete', '/api/organization/members/{user_id}'],
  ['post', '/api/organization/members/{user_id}/password_reset'],
  ['get', '/api/organization/invites'],
  ['post', '/api/organization/invites'],
  ['delete', '/api/organization/invites/{id}'],
  ['get', '/api/invites/{token}'],
  ['post', '/api/invites/{token}/accept'],
  ['get', '/api/password_resets/{token}'],
  ['post', '/api/password_resets/{token}'],
  ['get', '/api/personal_api_keys'],
  ['post', '/api/personal_api_keys'],
  ['delete', '/api/personal_api_keys/{id}'],
  ['get', '/api/projects/{project_id}/events'],
  ['get', '/api/projects/{project_id}/event_counts'],
  ['get', '/api/projects/{project_id}/event_names'],
  ['get', '/api/projects/{project_id}/persons'],
  ['get', '/api/projects/{project_id}/person_property_names'],
  ['get', '/api/projects/{project_id}/group_types'],
  ['post', '/flags'],
  ['post', '/decide'],
  ['get', '/flags/definitions'],
  ['get', '/flags/stream'],
  ['get', '/api/feature_flag/local_evaluation'],
  ['get', '/api/early_access_features'],
  ['get', '/api/surveys'],
  ['get', '/array/{token}/config'],
  ['get', '/array/{token}/config.js'],
  ...(['/e', '/i/v0/e', '/capture', '/batch', '/i/v0/ai/batch'] as const).flatMap((path) => [['post', path] as const, ['get', path] as const]),
  ['post', '/s'],
  ['post', '/ofrep/v1/evaluate/flags'],
  ['post', '/ofrep/v1/evaluate/flags/{key}'],
  ['post', '/i/v0/ai/otel'],
  ['post', '/i/v0/ai/otel/v1/traces'],
] as const;

/** SDK routes take a project token, not a personal key. */
const sdk = new Set([
  'post /flags',
  'post /decide',
  'get /api/early_access_features',
  'get /api/surveys',
  'get /array/{token}/config',
  'get /array/{token}/config.js',
  ...['/e', '/i/v0/e', '/capture', '/batch', '/i/v0/ai/batch'].flatMap((p) => [`post ${p}`, `get ${p}`]),
  'post /s',
  'post /ofrep/v1/evaluate/flags',
  'post /ofrep/v1/evaluate/flags/{key}',
  'post /i/v0/ai/otel',
  'post /i/v0/ai/otel/v1/traces',
]);

/** POSTs that take no body. */
const bodyless = new Set([
  'post /api/logout',
  'post /api/organization/members/{user_id}/password_reset',
  'post /api/projects/{project_id}/surveys/{id}/launch',
  'post /api/projects/{project_id}/surveys/{id}/stop',
]);

describe('GET /api/schema/', () => {
  it('serves an OpenAPI 3 document generated from the route schemas, covering every route', async () => {
    const res = await s.app.inject({ url: '/api/schema/' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    expect(documented.sort()).toEqual(operations.map(([m, p]) => `${m} ${p}`).sort());
    // Nothing the app serves is left out, but the document itself, the API reference, the health check, the script files
    // (service-js's, posthog-js's surveys bundle and recorders) and the web app's pages.
    const served = servedRoutes(s.app).filter(
      (r) =>
        !/^(head|options) /.test(r) &&
        !r.startsWith('get /api/docs') &&
        r !== 'get /api/schema' &&
        r !== 'get /_health' &&
        !/^get \/static\/(\{file\}|\{file\}\/)?(surveys|lazy-recorder|posthog-recorder|recorder)?(\.js)?$/.test(r) &&
        !isWebAppRoute(r),
    );
    expect(served.length).toBeGreaterThan(20);
    expect(served.sort()).toEqual(documented.sort());
    for (const [method, path] of operations) {
      const op = doc.paths[path][method];
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(sdk.has(`${method} ${path}`) ? ['401', '429'] : ['401', '403']));
      if ((method === 'post' || method === 'patch') && !bodyless.has(`${method} ${path}`))
        expect(op.requestBody.content['application/json'].schema).toBeDefined();
      if ((method === 'post' || method === 'patch') && !sdk.has(`${method} ${path}`) && !bodyless.has(`${method} ${path}`))
        expect(op.requestBody.content['application/json'].schema.properties).toBeDefined();
    }
    const create = doc.paths['/api/projects/{project_id}/early_access_feature'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'stage']);
    expect(create.requestBody.content['application/json'].schema.properties.stage.enum).toEqual([
      'draft',
      'concept',
      'alpha',
      'beta',
      'general-availability',
      'archived',
    ]);
    expect(Object.keys(create.responses)).toContain('201');
  });

  it('names every operation once (operationId, PostHog style) and gives each a summary; says where the API is and which version', async () => {
    const doc = (await s.app.inject({ url: '/api/schema/' })).json();
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId: string; summary: string }>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ at: `${method} ${path}`, ...op })),
    );
    expect(ops.length).toBe(operations.length);
    for (const op of ops) {
      expect(op.operationId, op.at).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(op.summary, op.at).toMatch(/\S/);
    }
    expect(new Set(ops.map((op) => op.operationId)).size).toBe(ops.length);
    const id = (at: string) => ops.find((op) => op.at === at)?.operationId;
    expect(id('get /api/projects')).toBe('projects_list');
    expect(id('get /api/projects/{project_id}')).toBe('projects_retrieve');
    expect(id('get /api/projects/{project_id}/feature_flags')).toBe('feature_flags_list');
    expect(id('post /api/projects/{project_id}/feature_flags')).toBe('feature_flags_create');
    expect(id('get /api/projects/{project_id}/feature_flags/{id}')).toBe('feature_flags_retrieve');
    expect(id('patch /api/projects/{project_id}/feature_flags/{id}')).toBe('feature_flags_partial_update');
    expect(id('delete /api/projects/{project_id}/early_access_feature/{id}')).toBe('early_access_feature_destroy');
    expect(id('get /api/feature_flag/local_evaluation')).toBe('feature_flag_local_evaluation_retrieve');
    expect(id('post /i/v0/e')).toBe('i_v0_e_create');
    const summary = (at: string) => ops.find((op) => op.at === at)?.summary;
    expect(summary('get /api/projects/{project_id}/feature_flags')).toBe('List feature flags');
    expect(summary('post /api/personal_api_keys')).toBe('Create a personal API key');
    expect(summary('delete /api/projects/{project_id}/early_access_feature/{id}')).toBe('Delete an early access feature');
    // A route's own summary is kept.
    expect(summary('post /e')).toBe('Capture events (PostHog capture protocol); 200 once they are stored');
    expect(summary('get /api/users/@me')).toBe("Retrieve the signed-in user (or the personal API key's owner)");
    // A made-up summary reads as English: no "Retrieve an users @me" or "Create an invites accept" (a route whose path
    // is no collection of things gives its own).
    for (const op of ops) expect(op.summary, op.at).not.toMatch(/\b(?:a|an) (?:\w*[a-z]s|\S*@\w+)(?: |$)/i);
    // One name per group in the reference: no "error_tracking" beside "error tracking".
    const tags = [
      ...new Set(
        Object.values(doc.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((item) => Object.values(item).flatMap((op) => op.tags)),
      ),
    ];
    expect(new Set(tags.map((tag) => tag.toLowerCase().replace(/_/g, ' '))).size).toBe(tags.length);
    expect(tags).toContain('error tracking');

    // Two routes whose names would collide fail the document rather than share an operationId.
    expect(() => nameOperations({ paths: { '/a_b': { get: {} }, '/a/b': { get: {} } } })).toThrow(/a_b_retrieve/);

    expect(doc.servers).toEqual([{ url: '/' }]);
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(doc.info.version).toBe(pkg.version);
  });
});

describe('named schemas', () => {
  it('gives each titled response schema one place in components, refers to it from every response, and keeps request bodies inline', async () => {
    const doc = (await s.app.inject({ url: '/api/schema/' })).json();
    const schemas = doc.components.schemas as Record<string, { type?: string; enum?: string[]; properties?: Record<string, unknown> }>;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['FeatureFlag', 'EarlyAccessFeature', 'Experiment', 'ErrorIssue', 'Role', 'Stage', 'WebhookKind', 'Survey', 'PublicSurveyList']),
    );
    const json = (op: { responses: Record<string, { content: Record<string, { schema: unknown }> }> }, status: string) =>
      op.responses[status]!.content['application/json']!.schema;
    const flags = doc.paths['/api/projects/{project_id}/feature_flags/{id}'];
    expect(json(flags.patch, '200')).toEqual({ $ref: '#/components/schemas/FeatureFlag' });
    expect(json(flags.patch, '400')).toEqual({ $ref: '#/components/schemas/Error' });
    expect(schemas.FeatureFlag!.properties).toHaveProperty('key');
    // TypeBox's union of literals is the enum it means; a union with null refers to the schema, or null.
    expect(schemas.Role).toMatchObject({ type: 'string', enum: ['viewer', 'member', 'admin', 'owner'] });
    expect(schemas.EarlyAccessFeature!.properties!.feature_flag).toEqual({ allOf: [{ $ref: '#/components/schemas/FlagSummary' }], nullable: true });
    expect(flags.patch.requestBody.content['application/json'].schema.properties.key).toBeDefined();
  });

  it('fails the document when two different schemas share a title', () => {
    const response = (schema: object) => ({ responses: { 200: { content: { 'application/json': { schema } } } } });
    const same = { title: 'Thing', type: 'object', properties: { a: { type: 'string' } } };
    const twice = nameSchemas({ paths: { '/a': { get: response(same) }, '/b': { get: response(structuredClone(same)) } } });
    expect(Object.keys(twice.components.schemas!)).toEqual(['Thing']);
    const other = { title: 'Thing', type: 'object', properties: { b: { type: 'string' } } };
    expect(() => nameSchemas({ paths: { '/a': { get: response(same) }, '/b': { get: response(other) } } })).toThrow(/Thing/);
  });
});

describe('GET /api/docs', () => {
  it('serves the API reference page without a key, with its own CSP, and every script and stylesheet it links', async () => {
    const page = await s.app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets).toEqual(
      expect.arrayContaining(['/api/docs/static/swagger-ui-bundle.js', '/api/docs/static/swagger-initializer.js', '/api/docs/static/swagger-ui.css']),
    );
    for (const url of assets) {
      const res = await s.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(url.endsWith('.js') ? /javascript/ : /^text\/css/);
    }
    // The page's relative links (with a trailing slash) and the document it loads.
    expect((await s.app.inject({ url: '/api/docs/' })).body).toContain('./static/swagger-ui-bundle.js');
    const spec = await s.app.inject({ url: '/api/docs/json' });
    expect(spec.json().paths['/api/projects'].get.operationId).toBe('projects_list');
  });

  it('answers 404 as JSON for a file the reference does not have', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await s.app.inject({ method, url: '/api/docs/static/nope.js' });
      expect(res.statusCode, method).toBe(404);
      if (method === 'GET') expect(res.json()).toEqual({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    }
  });

  it('is not rate limited: the page and its files load past the API limit', async () => {
    const limited = await startService({ apiRateLimitPerMinute: 2 });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await limited.app.inject({ url: '/api/schema/' })).statusCode);
      expect(codes).toEqual([200, 200, 429]);
      for (let i = 0; i < 3; i++) {
        expect((await limited.app.inject({ url: '/api/docs' })).statusCode).toBe(200);
        expect((await limited.app.inject({ url: '/api/docs/static/swagger-ui-bundle.js' })).statusCode).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });
});
