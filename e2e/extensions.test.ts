import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { root, startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window and the service's JSON */

// A lazy extension of the script-tag bundle: service.iife.js fetches `exceptions` from the service's /static/.
let svc: Service;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();
const { version } = JSON.parse(readFileSync(join(root, 'packages', 'js', 'package.json'), 'utf8'));

// The second script throws at once, while the extension's chunk is still on its way.
const page = (host: string, token: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Extensions page</title></head>
<body>
  <script src="/service.iife.js"></script>
  <script>window.service.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(host)}, capture_exceptions: true, autocapture: false })</script>
  <script>throw new TypeError('thrown while the extension loads')</script>
</body></html>`;

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  site = await serveStatic(join(root, 'packages', 'js', 'dist'), { '/': page(svc.url, svc.token) });
  chromium.cleanup(() => site.close());
});

describe('lazy extensions in Chromium', () => {
  it('capture_exceptions loads the exceptions chunk from the service’s /static/ (cached for a year), and errors become $exception events', async () => {
    const p = await chromium.newPage();
    const chunks: Response[] = [];
    p.on('response', (r) => void (r.url().includes('/static/') && chunks.push(r)));
    await p.goto(site.url);
    const id: string = await p.evaluate(() => (window as any).service.get_distinct_id());
    await p.evaluate(async () => {
      await (window as any).service.loadExtension('exceptions');
      setTimeout(() => Promise.reject(new RangeError('rejected after it loaded')));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await (window as any).service.flush();
    });

    expect(chunks.map((r) => r.url())).toEqual([`${svc.url}/static/exceptions.${version}.js`]);
    const [chunk] = chunks;
    expect(chunk.status()).toBe(200);
    expect(await chunk.allHeaders()).toMatchObject({
      'cache-control': 'public, max-age=31536000, immutable',
      'cross-origin-resource-policy': 'cross-origin',
      'content-type': 'text/javascript; charset=utf-8',
    });

    const events = await svc.waitForEvents('$exception', id, (e) => e.length === 2);
    const byType = Object.fromEntries(events.map((e) => [e.properties.$exception_type, e.properties]));
    expect(byType.TypeError).toMatchObject({ $exception_message: 'thrown while the extension loads' });
    expect(byType.TypeError.$exception_list[0].mechanism).toMatchObject({ type: 'onerror', handled: false });
    expect(byType.RangeError).toMatchObject({ $exception_message: 'rejected after it loaded' });
    expect(byType.RangeError.$exception_list[0].mechanism).toMatchObject({ type: 'onunhandledrejection', handled: false });
  });
});
