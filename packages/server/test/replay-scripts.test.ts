import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posthogScript } from '../src/http/posthog-script';
import { RECORDER_SCRIPTS } from '../src/session-replay/recorder-scripts';
import { startService, type TestService } from './helpers';

// Issue 33: posthog-js loads its recorder from its api_host (`/static/lazy-recorder.js?v=<its version>`, or
// `posthog-recorder.js`, `recorder.js`): the service serves posthog-js's own files, pinned, with their SRI hashes.

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

const dir = path.dirname(createRequire(import.meta.url).resolve('posthog-js/package.json'));
const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
const published = (JSON.parse(fs.readFileSync(path.join(dir, 'dist', 'integrity.json'), 'utf8')) as { files: Record<string, string> }).files;

describe.each(RECORDER_SCRIPTS)('/static/%s', (name) => {
  const original = fs.readFileSync(path.join(dir, 'dist', name));

  it("is posthog-js's own file, byte for byte, with its published SRI hash, for any site", async () => {
    const res = await s.app.inject({ url: `/static/${name}?v=${version}`, headers: { origin: 'https://shop.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(original)).toBe(true);
    expect(published[name]).toMatch(/^sha384-/);
    expect(`sha384-${createHash('sha384').update(res.rawPayload).digest('base64')}`).toBe(published[name]);
    expect(res.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'x-integrity': published[name],
      etag: `"${published[name]}"`,
    });
    expect((await s.app.inject({ url: `/static/${name}`, headers: { 'if-none-match': `"${published[name]}"` } })).statusCode).toBe(304);
  });

  it('is cached for a day without its version, and served at the versioned path of its version only', async () => {
    expect((await s.app.inject({ url: `/static/${name}` })).headers['cache-control']).toBe('public, max-age=86400');
    const versioned = await s.app.inject({ url: `/static/${version}/${name}` });
    expect(versioned.statusCode).toBe(200);
    expect(versioned.rawPayload.equals(original)).toBe(true);
    const other = await s.app.inject({ url: `/static/1.0.0/${name}` });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ type: 'invalid_request', code: 'not_found', attr: null });
  });
});

describe('a posthog-js package whose file does not match its published hash', () => {
  const fake = fs.mkdtempSync(path.join(os.tmpdir(), 'posthog-js-fake-'));
  afterAll(() => fs.rmSync(fake, { recursive: true, force: true }));

  it('stops the start, naming the file and both hashes', () => {
    fs.mkdirSync(path.join(fake, 'dist'));
    fs.writeFileSync(path.join(fake, 'package.json'), JSON.stringify({ version: '9.9.9' }));
    fs.writeFileSync(path.join(fake, 'dist', 'lazy-recorder.js'), 'console.log("changed")\n');
    fs.writeFileSync(path.join(fake, 'dist', 'integrity.json'), JSON.stringify({ files: { 'lazy-recorder.js': published['lazy-recorder.js'] } }));
    expect(() => posthogScript('lazy-recorder.js', fake)).toThrow(/9\.9\.9's dist\/lazy-recorder\.js does not match its dist\/integrity\.json/);
  });
});
