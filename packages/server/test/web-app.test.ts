import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWebAppRoute, WEB_APP_CSP } from '../src/web/routes';
import { servedRoutes, startService, type TestService } from './helpers';

// A built web app as vite writes it: index.html, hashed files in assets/ (with gzipped twins), and a secret beside it.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'service-web-'));
const dir = path.join(root, 'web-dist');
const html =
  '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>';
const script = 'console.log("app");\n'.repeat(20);

let s: TestService;
let bare: TestService;

beforeAll(async () => {
  fs.mkdirSync(path.join(dir, 'assets', 'nested.js'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), html);
  fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), script);
  fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js.gz'), gzipSync(script));
  fs.writeFileSync(path.join(dir, 'assets', 'index-Zz9.css'), 'body{color:red}');
  fs.writeFileSync(path.join(dir, 'assets', '.hidden.js'), 'hidden');
  fs.writeFileSync(path.join(root, 'secret.js'), 'secret');
  s = await startService({ webDir: dir });
  bare = await startService({ webDir: path.join(root, 'missing') });
});
afterAll(async () => {
  await s?.close();
  await bare?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => s.app.inject({ url, headers });

describe('the web app at /', () => {
  it('answers index.html at / and at every client route, never cached, with a CSP that allows no inline script', async () => {
    for (const url of [
      '/',
      '/login',
      '/login?next=%2Fproject%2F1%2Fevents',
      '/signup',
      '/invite/abc123',
      '/reset-password/abc123',
      '/project/1/feature_flags',
      '/project/1/feature_flags/7?tab=usage',
      '/project/2/settings/members',
      '/project/1/persons/user%2F1%20x',
      '/project/1/feature_flags/7/history',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(html);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toBe(WEB_APP_CSP);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    const scripts = /script-src ([^;]*)/.exec(WEB_APP_CSP)![1]!;
    expect(scripts).toBe("'self'");
    expect(WEB_APP_CSP).toMatch(/frame-ancestors 'none'/);
    expect(WEB_APP_CSP).toMatch(/connect-src 'self'/);
    // A replayed page (an iframe inheriting the policy) shows the customer's images and fonts, from their hosts.
    expect(WEB_APP_CSP).toMatch(/img-src 'self' data: blob: https:;/);
    expect(WEB_APP_CSP).toMatch(/font-src 'self' data: https:;/);
  });

  it('serves hashed build files cached for a year, gzipped for clients that take gzip', async () => {
    const plain = await get('/assets/index-AbC123.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(script);
    expect(plain.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(plain.headers['content-encoding']).toBeUndefined();

    const gzipped = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gzipped.rawPayload.length).toBeLessThan(script.length);

    // No gzipped twin: the file as it is.
    const css = await get('/assets/index-Zz9.css', { 'accept-encoding': 'gzip' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.body).toBe('body{color:red}');
  });

  it('answers 404 with the error body for files it does not have, and never leaves its folder', async () => {
    for (const url of [
      '/assets/nope-123.js',
      '/assets/nested.js',
      '/assets/.hidden.js',
      '/assets/..%2f..%2fsecret.js',
      '/assets/%2e%2e%2fsecret.js',
      '/assets/..%5csecret.js',
      '/assets/../secret.js',
      '/assets/index-AbC123.exe',
      '/assets/%00index-AbC123.js',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ type: 'invalid_request', code: 'not_found', detail: expect.any(String), attr: null });
      expect(res.body, url).not.toMatch(/secret|hidden/);
      expect(String(res.headers['cache-control']), url).not.toMatch(/immutable/);
    }
  });

  it('leaves the API and the SDK routes alone: unknown API paths are JSON 404s, not the app', async () => {
    for (const url of [
      '/api/nope',
      '/api/projects/999999/nope',
      '/flags',
      '/e/x',
      '/batch/x',
      '/static/nope.js',
      '/s/x',
      '/decide/x',
      '/array/x',
      '/i/v0/x',
      '/nope',
      '/feature_flags',
      '/project/1/a/b/c/d',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(String(res.headers['content-type']), url).toMatch(/^application\/json/);
      expect(res.body, url).not.toContain('<!doctype html>');
    }
    const health = await get('/_health');
    expect(health.json()).toEqual({ status: 'ok', database: 'ok' });
    const projects = await get('/api/projects/', s.headers);
    expect(projects.statusCode).toBe(200);
    expect(projects.headers['cache-control']).toBe('no-store');
    expect(projects.headers['content-security-policy']).not.toBe(WEB_APP_CSP);
  });

  it('answers the pages with a 404 naming the build command when the app is not built', async () => {
    const res = await bare.app.inject({ url: '/project/1/events' });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toMatch(/npm run build -w @service\/web/);
    expect((await bare.app.inject({ url: '/assets/index-AbC123.js' })).statusCode).toBe(404);
  });

  it('names its routes, so the API reference check can tell them from the API', () => {
    const web = servedRoutes(s.app).filter(isWebAppRoute);
    expect(web.sort()).toEqual(
      [
        'get /',
        'head /',
        'get /login',
        'head /login',
        'get /signup',
        'head /signup',
        'get /invite/{token}',
        'head /invite/{token}',
        'get /reset-password/{token}',
        'head /reset-password/{token}',
        'get /project/{project_id}',
        'head /project/{project_id}',
        'get /project/{project_id}/{page}',
        'head /project/{project_id}/{page}',
        'get /project/{project_id}/{page}/{item}',
        'head /project/{project_id}/{page}/{item}',
        'get /project/{project_id}/{page}/{item}/{tab}',
        'head /project/{project_id}/{page}/{item}/{tab}',
        'get /assets/{file}',
        'head /assets/{file}',
      ].sort(),
    );
    expect(isWebAppRoute('get /api/projects')).toBe(false);
    expect(isWebAppRoute('post /')).toBe(false);
  });
});
