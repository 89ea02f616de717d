import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { root, startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window and the service's JSON */

// The plain script-tag bundle (packages/js/dist/service.iife.js) in Chromium, against a started service.
let svc: Service;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();

const page = (host: string, token: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>IIFE page</title></head>
<body>
  <button data-attr="iife-button">Press</button>
  <script src="/service.iife.js"></script>
  <script>window.service.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(host)} })</script>
</body></html>`;

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  const everyone = { groups: [{ properties: [], rollout_percentage: 100 }] };
  await svc.flag('iife-on', everyone);
  await svc.flag('iife-half', { groups: [{ properties: [], rollout_percentage: 50 }] });
  await svc.flag('iife-variants', {
    groups: [{ properties: [], rollout_percentage: 100 }],
    multivariate: {
      variants: [
        { key: 'a', rollout_percentage: 34 },
        { key: 'b', rollout_percentage: 33 },
        { key: 'c', rollout_percentage: 33 },
      ],
    },
    payloads: { a: '{"n":1}', b: '"plain"' },
  });
  await svc.flag('iife-inactive', everyone, false);
  await svc.flag('iife-email', {
    groups: [{ properties: [{ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }], rollout_percentage: 100 }],
  });
  site = await serveStatic(join(root, 'packages', 'js', 'dist'), { '/': page(svc.url, svc.token) });
  chromium.cleanup(() => site.close());
});

async function open(): Promise<Page> {
  const p = await chromium.newPage();
  await p.goto(site.url);
  return p;
}

describe('service.iife.js in Chromium', () => {
  it('sends events that the service stores', async () => {
    const p = await open();
    const id: string = await p.evaluate(() => (window as any).service.get_distinct_id());
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await p.locator('[data-attr="iife-button"]').click();
    await p.evaluate(async () => {
      const s = (window as any).service;
      s.capture('iife_event', { n: 1, nested: { ok: true } });
      s.identify('iife-user@example.com', { email: 'iife-user@example.com' });
      await s.flush();
    });
    const [pageviews, custom, clicks] = await Promise.all([
      svc.waitForEvents('$pageview', id),
      svc.waitForEvents('iife_event', id),
      svc.waitForEvents('$autocapture', id),
    ]);
    expect(pageviews[0].properties).toMatchObject({ $lib: 'web', $current_url: `${site.url}/`, title: 'IIFE page' });
    expect(custom[0].properties).toMatchObject({ n: 1, nested: { ok: true }, distinct_id: id });
    expect(clicks[0].properties.$elements_chain).toContain('attr__data-attr="iife-button"');
    const [identify] = await svc.waitForEvents('$identify', 'iife-user@example.com');
    expect(identify.properties).toMatchObject({ $anon_distinct_id: id });
  });

  it('has the flags that POST /flags/?v=2 returns for the same distinct id', async () => {
    // Three visitors (three distinct ids), so the 50 % rollout and the variants are compared for several.
    for (let i = 0; i < 3; i++) {
      const p = await open();
      await expect.poll(() => p.evaluate(() => (window as any).service.flagStore.getSnapshot().source)).toBe('server');
      const { id, snapshot } = await p.evaluate(() => ({
        id: (window as any).service.get_distinct_id(),
        snapshot: (window as any).service.flagStore.getSnapshot(),
      }));
      const server = await svc.flags({ distinct_id: id, $device_id: id });
      expect(snapshot.flags).toEqual(server.featureFlags);
      const payloads = Object.fromEntries(Object.entries(server.featureFlagPayloads ?? {}).map(([k, v]) => [k, typeof v === 'string' ? JSON.parse(v) : v]));
      expect(snapshot.payloads).toEqual(payloads);
      expect(snapshot.flags['iife-on']).toBe(true);
      expect(snapshot.flags['iife-email']).toBe(false);
      expect(['a', 'b', 'c']).toContain(snapshot.flags['iife-variants']);

      // After identify with a person property, both agree again (the client sends its properties).
      await p.evaluate(() => (window as any).service.identify(`person-${Math.random()}`, { email: 'x@example.com' }));
      await expect.poll(() => p.evaluate(() => (window as any).service.flagStore.getSnapshot().flags['iife-email'])).toBe(true);
      const after = await p.evaluate(() => ({ id: (window as any).service.get_distinct_id(), flags: (window as any).service.flagStore.getSnapshot().flags }));
      expect(after.flags).toEqual((await svc.flags({ distinct_id: after.id, person_properties: { email: 'x@example.com' } })).featureFlags);
    }
  });
});
