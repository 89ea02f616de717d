import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceJsStaticDir } from '../src/static/routes';
import { startService, type TestService } from './helpers';

let s: TestService;
// A package folder as installed: its dist/static/ holds the chunks, and a secret sits beside them.
const pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'service-static-'));
const dir = path.join(pkg, 'dist', 'static');
const chunk = 'var __service_extensions;(__service_extensions||={}).exceptions={};\n';

beforeAll(async () => {
  fs.mkdirSync(path.join(dir, 'nested.0.1.0.js'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'exceptions.0.1.0.js'), chunk);
  fs.writeFileSync(path.join(dir, '.hidden.0.1.0.js'), 'hidden');
  fs.writeFileSync(path.join(pkg, 'package.json'), '{"secret":true}');
  fs.writeFileSync(path.join(pkg, 'dist', 'secret.0.1.0.js'), 'secret');
  s = await startService({ staticDir: dir });
});
afterAll(async () => {
  await s.close();
  fs.rmSync(pkg, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => s.app.inject({ url, headers });

describe('GET /static/<name>.<version>.js', () => {
  it('serves a lazy extension chunk as JavaScript, cached for a year, loadable by a script tag on any site', async () => {
    const res = await get('/static/exceptions.0.1.0.js', { origin: 'https://shop.example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(chunk);
    expect(res.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'cross-origin-resource-policy': 'cross-origin',
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
    });
    const head = await s.app.inject({ method: 'HEAD', url: '/static/exceptions.0.1.0.js' });
    expect(head.statusCode).toBe(200);
  });

  it('answers 404 with the error body for names it does not have, and never leaves its folder', async () => {
    for (const url of [
      '/static/surveys.0.1.0.js',
      '/static/exceptions.9.9.9.js',
      '/static/exceptions.js',
      '/static/nested.0.1.0.js',
      '/static/.hidden.0.1.0.js',
      '/static/..%2fsecret.0.1.0.js',
      '/static/..%2f..%2fpackage.json',
      '/static/%2e%2e%2f%2e%2e%2fpackage.json',
      '/static/..%5c..%5cpackage.json',
      '/static/../package.json',
      '/static/%00exceptions.0.1.0.js',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ type: 'invalid_request', code: 'not_found', detail: expect.any(String), attr: null });
      expect(res.body, url).not.toMatch(/secret|hidden/);
      expect(String(res.headers['cache-control']), url).not.toMatch(/immutable/);
    }
  });

  it('reads the installed service-js package by default', () => {
    expect(serviceJsStaticDir()).toBe(path.resolve(import.meta.dirname, '../../js/dist/static'));
  });
});
