import { rmSync } from 'node:fs';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { buildExampleApp } from './support/example-app';
import { startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- events and pages' JSON */

// The example app (examples/react-app), built with Vite against a freshly started service, in Chromium.
let svc: Service;
let app: { url: string; close: () => Promise<void> };
let dist: string;
const chromium = chromiumPerFile();
let bannerFlagId: number;
let conceptId: string;

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  const banner = await svc.flag('new-banner', {
    groups: [{ properties: [], rollout_percentage: 100 }],
    payloads: { true: JSON.stringify({ title: 'Hello from the service' }) },
  });
  bannerFlagId = banner.id;
  await svc.flag('checkout-experiment', {
    groups: [{ properties: [], rollout_percentage: 100 }],
    multivariate: {
      variants: [
        { key: 'control', rollout_percentage: 0 },
        { key: 'test', rollout_percentage: 100 },
      ],
    },
  });
  await svc.api(`/api/projects/${svc.projectId}/early_access_feature/`, {
    method: 'POST',
    body: { name: 'Dark mode', description: 'A darker theme', stage: 'beta' },
  });
  const concept = await svc.api(`/api/projects/${svc.projectId}/early_access_feature/`, {
    method: 'POST',
    body: { name: 'AI assistant', description: 'Answers questions about your data', stage: 'concept' },
  });
  expect(concept.feature_flag.key).toBe('ai-assistant');
  conceptId = concept.id;
  dist = await buildExampleApp({ APP_PUBLIC_SERVICE_KEY: svc.token, APP_PUBLIC_SERVICE_HOST: svc.url });
  chromium.cleanup(() => rmSync(dist, { recursive: true, force: true }));
  app = await serveStatic(dist);
  chromium.cleanup(() => app.close());
});

const isFlags = (url: string) => new URL(url).pathname === '/flags/';

/** The distinct id the app shows once the client is initialized. */
async function distinctIdOf(page: Page): Promise<string> {
  const el = page.getByTestId('distinct-id');
  await expect.poll(async () => (await el.textContent()) ?? '…', { timeout: 10_000 }).not.toBe('…');
  return (await el.textContent())!;
}

/**
 * Holds the page's `/flags` requests until `release()` (at most 10 s), so a test can look at the page
 * while the answer is still on its way. `pending` tells whether one was made and is not answered yet.
 */
async function holdFlags(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
    setTimeout(r, 10_000).unref(); // never hold a page longer than that
  });
  const state = { requested: 0, answered: 0 };
  await page.route(
    (url) => isFlags(url.toString()),
    async (route: Route) => {
      if (route.request().method() === 'OPTIONS') return route.continue();
      state.requested++;
      await gate;
      await route.continue();
      state.answered++;
    },
  );
  return { release, pending: () => state.requested > 0 && state.answered === 0 };
}

/** Records the HTML of #root at its first render (the first paint of the app), before anything else changes it. */
const recordFirstPaint = `
  window.__firstPaint = null
  new MutationObserver((_, observer) => {
    const root = document.getElementById('root')
    if (root && root.childElementCount && window.__firstPaint == null) {
      window.__firstPaint = root.innerHTML
      observer.disconnect()
    }
  }).observe(document, { childList: true, subtree: true })
`;

describe('example React app against a started service', () => {
  it('shows the feature behind ServiceFeature (with its payload) when the flag is on, and the fallback once it is off', async () => {
    const page = await chromium.newPage();
    await page.goto(app.url);
    await expect.poll(() => page.getByTestId('new-banner').textContent()).toContain('Hello from the service');
    expect(await page.getByTestId('old-banner').count()).toBe(0);
    await expect.poll(() => page.getByTestId('checkout').getAttribute('data-variant')).toBe('test');

    await svc.api(`/api/projects/${svc.projectId}/feature_flags/${bannerFlagId}/`, { method: 'PATCH', body: { active: false } });
    try {
      const answer = page.waitForResponse((r) => isFlags(r.url()) && r.request().method() === 'POST');
      await page.reload();
      expect((await (await answer).json()).featureFlags['new-banner']).toBeFalsy();
      await page.getByTestId('old-banner').waitFor();
      expect(await page.getByTestId('new-banner').count()).toBe(0);
    } finally {
      await svc.api(`/api/projects/${svc.projectId}/feature_flags/${bannerFlagId}/`, { method: 'PATCH', body: { active: true } });
    }
    await page.reload();
    await page.getByTestId('new-banner').waitFor();
  });

  it('with /flags delayed, bootstrapped flags (window.__SERVICE_BOOTSTRAP__) are in the first paint', async () => {
    const page = await chromium.newPage();
    const flags = await holdFlags(page);
    await page.addInitScript(recordFirstPaint);
    await page.addInitScript(() => {
      (window as any).__SERVICE_BOOTSTRAP__ = {
        featureFlags: { 'new-banner': true, 'checkout-experiment': 'control' },
        featureFlagPayloads: { 'new-banner': { title: 'Bootstrapped title' } },
      };
    });
    await page.goto(app.url);
    await expect.poll(() => page.evaluate(() => (window as any).__firstPaint)).not.toBeNull();
    const firstPaint: string = await page.evaluate(() => (window as any).__firstPaint);
    expect(firstPaint).toContain('data-testid="new-banner"');
    expect(firstPaint).toContain('Bootstrapped title');
    expect(firstPaint).toContain('data-variant="control"');
    expect(firstPaint).not.toContain('old-banner');
    await expect.poll(() => flags.pending()).toBe(true); // the client asked, the answer has not come yet
    expect(await page.getByTestId('checkout').getAttribute('data-variant')).toBe('control');

    flags.release();
    await expect.poll(() => page.getByTestId('checkout').getAttribute('data-variant')).toBe('test'); // fetched values replace bootstrapped ones
    await expect.poll(() => page.getByTestId('new-banner').textContent()).toContain('Hello from the service');
  });

  it('with /flags delayed, a ?bootstrap= flag that is off shows the fallback first, then the fetched value', async () => {
    const page = await chromium.newPage();
    const flags = await holdFlags(page);
    await page.addInitScript(recordFirstPaint);
    await page.goto(`${app.url}/?bootstrap=${encodeURIComponent(JSON.stringify({ featureFlags: { 'new-banner': false } }))}`);
    await expect.poll(() => page.evaluate(() => (window as any).__firstPaint)).not.toBeNull();
    const firstPaint: string = await page.evaluate(() => (window as any).__firstPaint);
    expect(firstPaint).toContain('data-testid="old-banner"');
    expect(firstPaint).not.toContain('data-testid="new-banner"');
    await expect.poll(() => flags.pending()).toBe(true);
    flags.release();
    await page.getByTestId('new-banner').waitFor();
  });

  it('stores $pageview, an $autocapture click with its data-attr, $feature_view and $feature_interaction in the service', async () => {
    const page = await chromium.newPage();
    await page.goto(app.url);
    const id = await distinctIdOf(page);
    await page.getByTestId('new-banner').waitFor(); // visible: $feature_view
    await page.getByTestId('banner-cta').click(); // inside the feature: $feature_interaction (and an $autocapture)
    await page.locator('[data-attr="signup-button"]').click();
    await page.getByText('Not captured').click(); // svc-no-capture: nothing

    const [pageviews, views, interactions, signups] = await Promise.all([
      svc.waitForEvents('$pageview', id),
      svc.waitForEvents('$feature_view', id),
      svc.waitForEvents('$feature_interaction', id),
      svc.waitForEvents('signup_clicked', id),
    ]);
    expect(pageviews).toHaveLength(1);
    expect(pageviews[0].properties).toMatchObject({ $current_url: `${app.url}/`, $lib: 'web', token: svc.token });
    expect(views).toHaveLength(1);
    expect(views[0].properties).toMatchObject({ feature_flag: 'new-banner', $set: { '$feature_view/new-banner': true } });
    expect(interactions).toHaveLength(1);
    expect(interactions[0].properties).toMatchObject({ feature_flag: 'new-banner', $set: { '$feature_interaction/new-banner': true } });
    expect(signups[0].properties).toMatchObject({ from: 'example' });

    const clicks = await svc.waitForEvents('$autocapture', id, (e) => e.some((x) => String(x.properties.$elements_chain).includes('signup-button')));
    const signupClick = clicks.find((e) => String(e.properties.$elements_chain).includes('signup-button'))!;
    expect(signupClick.properties.$event_type).toBe('click');
    expect(signupClick.properties.$elements_chain).toMatch(/^button[^;]*attr__data-attr="signup-button"/);
    expect(clicks.some((e) => String(e.properties.$elements_chain).includes('Not captured'))).toBe(false);

    // Flags the hooks used, once each (useActiveFeatureFlags reads without reporting).
    const called = await svc.waitForEvents('$feature_flag_called', id, (e) => e.length >= 4);
    expect(called.map((e) => e.properties.$feature_flag).sort()).toEqual(['ai-assistant', 'checkout-experiment', 'dark-mode', 'new-banner']);
  });

  it('opting in to a beta feature ("Try it") turns its flag on, also after a reload', async () => {
    const page = await chromium.newPage();
    await page.goto(app.url);
    const id = await distinctIdOf(page);
    const toggle = page.getByRole('switch', { name: 'Try it: Dark mode' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('data-testid')).toBe('enroll-dark-mode');
    await expect.poll(() => page.getByTestId('flag-dark-mode').textContent()).toBe('off');
    expect(await toggle.isChecked()).toBe(false);

    await toggle.check();
    await expect.poll(() => page.getByTestId('flag-dark-mode').textContent()).toBe('on');
    expect(await page.getByTestId('active-flags').textContent()).toContain('dark-mode');
    const [update] = await svc.waitForEvents('$feature_enrollment_update', id);
    expect(update.properties).toMatchObject({ $feature_flag: 'dark-mode', $feature_enrollment: true, $set: { '$feature_enrollment/dark-mode': true } });

    // After a reload the service itself says the flag is on (its enrollment condition matches).
    const answer = page.waitForResponse((r) => isFlags(r.url()) && r.request().method() === 'POST');
    await page.reload();
    expect((await (await answer).json()).featureFlags['dark-mode']).toBe(true);
    await expect.poll(() => page.getByTestId('flag-dark-mode').textContent()).toBe('on');
    await expect.poll(() => page.getByTestId('enroll-dark-mode').isChecked()).toBe(true);

    // Opting out turns it off again.
    await page.getByTestId('enroll-dark-mode').uncheck();
    await expect.poll(() => page.getByTestId('flag-dark-mode').textContent()).toBe('off');
    const again = page.waitForResponse((r) => isFlags(r.url()) && r.request().method() === 'POST');
    await page.reload();
    expect((await (await again).json()).featureFlags['dark-mode']).toBe(false);
  });

  it('registering interest in a concept feature records it and leaves the flag off until the feature is released', async () => {
    const page = await chromium.newPage();
    await page.goto(app.url);
    const id = await distinctIdOf(page);
    const register = page.getByRole('button', { name: 'Register interest in AI assistant' });
    await register.waitFor();
    expect(await register.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => page.getByTestId('flag-ai-assistant').textContent()).toBe('off');

    await register.click();
    await expect.poll(() => register.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('status').filter({ hasText: "You're on the list" }).count()).toBe(1);
    expect(await page.getByTestId('flag-ai-assistant').textContent()).toBe('off');
    const [update] = await svc.waitForEvents('$feature_enrollment_update', id);
    expect(update.properties).toMatchObject({
      $feature_flag: 'ai-assistant',
      $feature_enrollment: true,
      $feature_enrollment_stage: 'concept',
      $set: { '$feature_enrollment/ai-assistant': true },
    });

    // After a reload: still registered, and the service keeps the flag off while the feature is a concept.
    const answer = page.waitForResponse((r) => isFlags(r.url()) && r.request().method() === 'POST');
    await page.reload();
    expect((await (await answer).json()).featureFlags['ai-assistant']).toBe(false);
    await expect.poll(() => page.getByRole('button', { name: 'Register interest in AI assistant' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('flag-ai-assistant').textContent()).toBe('off');

    // Released to beta: the registered person gets the flag, and the app offers "Try it" (on).
    await svc.api(`/api/projects/${svc.projectId}/early_access_feature/${conceptId}/`, { method: 'PATCH', body: { stage: 'beta' } });
    try {
      const released = page.waitForResponse((r) => isFlags(r.url()) && r.request().method() === 'POST');
      await page.reload();
      expect((await (await released).json()).featureFlags['ai-assistant']).toBe(true);
      const tryIt = page.getByRole('switch', { name: 'Try it: AI assistant' });
      await expect.poll(() => tryIt.isChecked()).toBe(true);
      await expect.poll(() => page.getByTestId('flag-ai-assistant').textContent()).toBe('on');
    } finally {
      await svc.api(`/api/projects/${svc.projectId}/early_access_feature/${conceptId}/`, { method: 'PATCH', body: { stage: 'concept' } });
    }
  });
});
