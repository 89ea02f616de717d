import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// What the browser reads: the public list of running surveys (`GET /api/surveys/?token=`), the remote config's
// `surveys`, posthog-js's own surveys bundle at /static/surveys.js, and our renderer's chunk beside the other static files.

let s: TestService;
let base: string;
// A service-js dist/static/ as installed, with the renderer's chunk in it.
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-surveys-static-'));
const renderer = 'export function renderSurvey(){}\n';
beforeAll(async () => {
  fs.writeFileSync(path.join(staticDir, 'surveys-renderer.0.1.0.js'), renderer);
  s = await startService({ staticDir });
  base = `/api/projects/${s.projectId}/surveys`;
});
afterAll(async () => {
  await s.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

type Body = Record<string, unknown>;
const OPEN = { type: 'open', question: 'How is it going?' };
async function survey(body: Body = {}, then: 'launch' | 'stop' | 'draft' | 'archive' = 'launch') {
  const res = await s.app.inject({ method: 'POST', url: `${base}/`, headers: s.headers, payload: { name: 'Public', questions: [OPEN], ...body } });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  if (then !== 'draft') await s.app.inject({ method: 'POST', url: `${base}/${id}/launch/`, headers: s.headers });
  if (then === 'stop') await s.app.inject({ method: 'POST', url: `${base}/${id}/stop/`, headers: s.headers });
  if (then === 'archive') await s.app.inject({ method: 'DELETE', url: `${base}/${id}/`, headers: s.headers });
  return (await s.app.inject({ url: `${base}/${id}/`, headers: s.headers })).json();
}
const list = (query = `?token=${s.token}`, headers: Record<string, string> = {}) => s.app.inject({ url: `/api/surveys/${query}`, headers });
const listed = async () => (await list(`?token=${s.token}`)).json().surveys as Body[];
const config = async () => (await s.app.inject({ url: `/array/${s.token}/config` })).json().surveys;

describe('GET /api/surveys/?token=', () => {
  it('is empty, and the remote config says surveys: false, while no survey runs', async () => {
    await survey({ name: 'Draft' }, 'draft');
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ surveys: [] });
    expect(await config()).toBe(false);
  });

  it('lists the running in-app surveys only, in the shape posthog-js reads, server-side events left out', async () => {
    const running = await survey({
      name: 'Running',
      type: 'widget',
      appearance: { position: 'left' },
      conditions: {
        url: 'checkout',
        events: {
          repeatedActivation: true,
          values: [
            { name: 'paid', server_side: true },
            { name: 'clicked', server_side: false },
          ],
        },
      },
      enable_partial_responses: true,
    });
    const serverOnly = await survey({ name: 'Server only', conditions: { events: { values: [{ name: 'shipped', server_side: true }] }, url: '/orders' } });
    await survey({ name: 'Stopped' }, 'stop');
    await survey({ name: 'Archived' }, 'archive');
    await survey({ name: 'External', type: 'external_survey' });
    await survey({ name: 'Later', start_date: new Date(Date.now() + 86_400_000).toISOString() }, 'draft');
    const surveys = await listed();
    expect(surveys.map((sv) => sv.name)).toEqual(['Running', 'Server only']);
    expect(surveys[0]).toEqual({
      id: running.id,
      name: 'Running',
      description: '',
      type: 'widget',
      questions: running.questions,
      appearance: { position: 'left' },
      conditions: { url: 'checkout', events: { repeatedActivation: true, values: [{ name: 'clicked' }] } },
      linked_flag_key: null,
      targeting_flag_key: running.targeting_flag_key,
      internal_targeting_flag_key: running.internal_targeting_flag_key,
      start_date: running.start_date,
      end_date: null,
      schedule: 'once',
      current_iteration: null,
      current_iteration_start_date: null,
      enable_partial_responses: true,
      feature_flag_keys: [
        { key: 'linked_flag_key', value: null },
        { key: 'targeting_flag_key', value: running.targeting_flag_key },
      ],
    });
    expect(surveys[1]!.conditions).toEqual({ url: '/orders' });
    expect(surveys[1]!.id).toBe(serverOnly.id);
    expect(await config()).toBe(true);
  });

  it('shows a change at once: a stopped survey leaves the list, with a new ETag; the same list answers 304', async () => {
    const first = await list();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const same = await list(`?token=${s.token}`, { 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect((await list(`?token=${s.token}`, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    const sv = await survey({ name: 'Short-lived' });
    const withIt = await list(`?token=${s.token}`, { 'if-none-match': etag });
    expect(withIt.statusCode).toBe(200);
    expect(withIt.json().surveys.map((x: Body) => x.id)).toContain(sv.id);
    await s.app.inject({ method: 'POST', url: `${base}/${sv.id}/stop/`, headers: s.headers });
    const without = await list(`?token=${s.token}`, { 'if-none-match': withIt.headers.etag as string });
    expect(without.statusCode).toBe(200);
    expect(without.json().surveys.map((x: Body) => x.id)).not.toContain(sv.id);
    expect(without.headers.etag).toBe(etag);
  });

  it('answers with CORS for any site, preflight too', async () => {
    const res = await list(`?token=${s.token}`, { origin: 'https://shop.example.com' });
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const preflight = await s.app.inject({
      method: 'OPTIONS',
      url: '/api/surveys/',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example.com');
  });

  it('answers 401 for an unknown or missing token, as the other SDK routes do', async () => {
    for (const query of ['?token=phc_unknown', '', '?token=']) {
      const res = await list(query, { origin: 'https://shop.example.com' });
      expect(res.statusCode, query).toBe(401);
      expect(Object.keys(res.json()).sort()).toEqual(['attr', 'code', 'detail', 'type']);
      expect(res.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    }
  });

  it('is rate limited per project', async () => {
    const limited = await startService({ publicRateLimitPerMinute: 2 });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await limited.app.inject({ url: `/api/surveys/?token=${limited.token}` })).statusCode);
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('the remote config while a survey runs', () => {
  it('says surveys: true in /array/<token>/config, config.js, /decide and /flags?config=true', async () => {
    expect(await config()).toBe(true);
    const script = await s.app.inject({ url: `/array/${s.token}/config.js` });
    expect(script.body).toContain('"surveys":true');
    const decide = await s.app.inject({ method: 'POST', url: '/decide/?v=4', payload: { token: s.token, distinct_id: 'x' } });
    expect(decide.json().surveys).toBe(true);
    const flags = await s.app.inject({ method: 'POST', url: '/flags/?v=2&config=true', payload: { token: s.token, distinct_id: 'x' } });
    expect(flags.json().surveys).toBe(true);
    const other = await s.services.projects.create('No surveys');
    expect((await s.app.inject({ url: `/array/${other.api_token}/config` })).json().surveys).toBe(false);
  });
});

describe('/static/surveys.js', () => {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('posthog-js/package.json')), 'dist');
  const original = fs.readFileSync(path.join(dist, 'surveys.js'));
  const { version } = JSON.parse(fs.readFileSync(path.join(dist, '..', 'package.json'), 'utf8')) as { version: string };
  const published = (JSON.parse(fs.readFileSync(path.join(dist, 'integrity.json'), 'utf8')) as { files: Record<string, string> }).files['surveys.js']!;

  it("is posthog-js's own file, byte for byte, with its published SRI hash, for any site", async () => {
    const res = await s.app.inject({ url: `/static/surveys.js?v=${version}`, headers: { origin: 'https://shop.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(original)).toBe(true);
    const computed = `sha384-${createHash('sha384').update(res.rawPayload).digest('base64')}`;
    expect(published).toMatch(/^sha384-/);
    expect(res.headers['x-integrity']).toBe(published);
    expect(computed).toBe(published);
    expect(res.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      etag: `"${published}"`,
    });
    expect((await s.app.inject({ url: '/static/surveys.js', headers: { 'if-none-match': `"${published}"` } })).statusCode).toBe(304);
    expect((await s.app.inject({ method: 'HEAD', url: '/static/surveys.js' })).statusCode).toBe(200);
  });

  it('is cached for a day without its version, and served at the versioned path of its version only', async () => {
    expect((await s.app.inject({ url: '/static/surveys.js' })).headers['cache-control']).toBe('public, max-age=86400');
    const versioned = await s.app.inject({ url: `/static/${version}/surveys.js` });
    expect(versioned.statusCode).toBe(200);
    expect(versioned.rawPayload.equals(original)).toBe(true);
    const other = await s.app.inject({ url: '/static/1.0.0/surveys.js' });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'not_found' });
  });

  it("serves our renderer's chunk by the static route's name scheme", async () => {
    const res = await s.app.inject({ url: '/static/surveys-renderer.0.1.0.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(renderer);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
