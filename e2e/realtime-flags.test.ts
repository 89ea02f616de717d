import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { bundlePage } from './support/bundle';
import { startInstances, type Instance } from './support/instances';
import type { Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window and the service's JSON */

// service-js with `realtime_flags` in Chromium, streaming from instance B, while the flag changes through instance A's
// API (two instances on PostgreSQL with TEST_DATABASE_URL; one on SQLite without): a React component re-renders.
let a: Service;
let b: Instance;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();

/** The page: a React component reading a flag (`key`) through `useFeatureFlagEnabled`, counting its renders. */
const app = `
import { Service } from 'service-js'
import { ServiceProvider, useFeatureFlagEnabled } from 'service-js/react'
import { createRoot } from 'react-dom/client'
const { host, token, key, delay } = window.CONFIG
const client = (window.client = new Service().init(token, {
  api_host: host,
  realtime_flags: true,
  realtime_flags_inactivity_delay_seconds: delay,
  autocapture: false,
  capture_pageview: false,
}))
window.renders = 0
function Banner() {
  const on = useFeatureFlagEnabled(key)
  window.renders++
  return <p data-testid="banner">{on === undefined ? 'loading' : on ? 'on' : 'off'}</p>
}
createRoot(document.getElementById('root')).render(<ServiceProvider client={client}><Banner /></ServiceProvider>)
`;
const html = (config: { host: string; token: string; key: string; delay?: number }) => `<!doctype html>
<html><head><meta charset="utf-8"><title>realtime flags</title><link rel="icon" href="data:,"></head>
<body><div id="root"></div>
<script>window.CONFIG = ${JSON.stringify(config)}</script>
<script>
  // the page's EventSources, to see whether one is open
  window.sources = []
  window.EventSource = class extends EventSource { constructor(url) { super(url); window.sources.push(this) } }
</script>
<script src="/app.js"></script></body></html>`;

let database: string;
beforeAll(async () => {
  const instances = await startInstances();
  chromium.cleanup(instances.stop);
  ({ a, b, database } = instances);
  const [host, token] = [b.url, a.token];
  site = await serveStatic(import.meta.dirname, {
    '/': html({ host, token, key: 'rt-banner' }),
    '/hidden/': html({ host, token, key: 'rt-hidden', delay: 1 }),
    '/app.js': await bundlePage(app),
  });
  chromium.cleanup(() => site.close());
});

/** Turns a flag on or off through instance A's REST API. */
const setActive = (flag: { id: number }, active: boolean) =>
  a.api(`/api/projects/${a.projectId}/feature_flags/${flag.id}/`, { method: 'PATCH', body: { active } });

/** Opens the page; resolves once it shows `off` and its stream answered (so a change from now on is heard). */
async function open(page: Page, path = '/') {
  const errors: Error[] = [];
  page.on('pageerror', (e) => errors.push(e));
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/flags/stream');
  await page.goto(site.url + path);
  await expect.poll(() => page.getByTestId('banner').textContent()).toBe('off');
  return { errors, stream };
}

describe(`realtime_flags in Chromium (${process.env.TEST_DATABASE_URL ? 'two instances on PostgreSQL' : 'one instance on SQLite'})`, () => {
  it('a flag turned on through instance A reaches the page streaming from instance B, and useFeatureFlagEnabled re-renders', async () => {
    const flag = await a.flag('rt-banner', { groups: [{ properties: [], rollout_percentage: 100 }] }, false);
    const page = await chromium.newPage();
    const { errors, stream } = await open(page);
    const res = await stream;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^text\/event-stream/);
    const flagRequests = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/flags/?')).length);
    const before = { renders: await page.evaluate(() => (window as any).renders), requests: await flagRequests() };
    // the moment the page shows the new value, on the page's clock (the same machine's as this process's)
    await page.evaluate(() => {
      const el = document.querySelector('[data-testid="banner"]')!;
      new MutationObserver(() => el.textContent === 'on' && ((window as any).shownAt ??= Date.now())).observe(el, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    const changedAt = Date.now();
    await setActive(flag, true);
    // service-js asks /flags only at start, on identify/group and on a notice: without the stream this never changes
    await expect.poll(() => page.getByTestId('banner').textContent(), { timeout: 10_000 }).toBe('on');
    const shownAt = await page.evaluate(() => (window as any).shownAt as number);
    console.log(`[${database}] flag change through A's API → shown by the page streaming from B: ${shownAt - changedAt} ms`);
    expect(await page.evaluate(() => (window as any).renders)).toBeGreaterThan(before.renders);
    // the notice made the client ask /flags again (once or more: a notice of the flag's creation may still be on its way)
    expect(await flagRequests()).toBeGreaterThan(before.requests);
    // and back off again
    await setActive(flag, false);
    await expect.poll(() => page.getByTestId('banner').textContent(), { timeout: 10_000 }).toBe('off');
    expect(errors).toEqual([]);
  });

  it('where streams are blocked the page still gets its flags, throws nothing, and reloadFeatureFlags still works', async () => {
    const flag = await a.flag('rt-blocked', { groups: [{ properties: [], rollout_percentage: 100 }] }, false);
    const page = await chromium.newPage();
    let attempts = 0;
    await page.route(
      (url) => url.pathname === '/flags/stream',
      (route) => {
        attempts++;
        return route.abort('blockedbyclient');
      },
    );
    const errors: Error[] = [];
    page.on('pageerror', (e) => errors.push(e));
    await page.goto(site.url + '/');
    await expect.poll(() => page.getByTestId('banner').textContent()).toBe('off');
    await expect.poll(() => attempts).toBeGreaterThan(0);
    await setActive(flag, true);
    await page.evaluate(() => (window as any).client.reloadFeatureFlags());
    await expect.poll(() => page.evaluate(() => (window as any).client.isFeatureEnabled('rt-blocked', { send_event: false }))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a tab hidden past realtime_flags_inactivity_delay_seconds closes its stream; back in view it reconnects and shows what changed', async () => {
    const flag = await a.flag('rt-hidden', { groups: [{ properties: [], rollout_percentage: 100 }] }, false);
    const page = await chromium.newPage();
    const { errors, stream } = await open(page, '/hidden/');
    expect((await stream).status()).toBe(200);
    const openSources = () => page.evaluate(() => (window as any).sources.filter((s: EventSource) => s.readyState !== EventSource.CLOSED).length);
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      }, hidden);
    expect(await openSources()).toBe(1);
    await setHidden(true);
    // the page's delay is 1 s
    await expect.poll(openSources, { timeout: 10_000 }).toBe(0);
    await setActive(flag, true);
    const reconnected = page.waitForResponse((r) => new URL(r.url()).pathname === '/flags/stream');
    await setHidden(false);
    expect((await reconnected).status()).toBe(200);
    await expect.poll(() => page.getByTestId('banner').textContent(), { timeout: 10_000 }).toBe('on');
    expect(await openSources()).toBe(1);
    expect(await page.evaluate(() => (window as any).sources.length)).toBe(2);
    expect(errors).toEqual([]);
  });
});
