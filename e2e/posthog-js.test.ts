import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window and the service's JSON */

// The official posthog-js (the bundle with everything, loading nothing else; and the one that loads its remote config
// as a script, as the npm package does), pointed at the service unchanged.
// Headless Chromium looks like a bot to posthog-js, which then drops events: `opt_out_useragent_filter` is its switch for tests.
const posthogDist = join(dirname(createRequire(import.meta.url).resolve('posthog-js/package.json')), 'dist');

let svc: Service;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();
let flagKey: string;
let conceptId: string;
let conceptKey: string;

const page = (host: string, token: string, bundle = 'array.full.no-external.js') => `<!doctype html>
<html><head><meta charset="utf-8"><title>posthog-js page</title><link rel="icon" href="data:,"></head>
<body>
  <button data-attr="ph-button">Buy</button>
  <button id="pay">Pay</button>
  <button id="profile">Profile</button>
  <script src="/${bundle}"></script>
  <script>posthog.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(host)}, person_profiles: 'always', disable_session_recording: true, request_batching: false, opt_out_useragent_filter: true })</script>
  <script>
    // Errors thrown at fixed places and reported from a catch block with posthog.captureException, as an app would.
    let order = 1000
    function chargeCard(id) { throw new Error('Payment declined for order ' + id) }
    function loadProfile() { const profile = undefined; return profile.name }
    function report(fn) { try { fn() } catch (error) { posthog.captureException(error) } }
    document.getElementById('pay').onclick = () => report(() => chargeCard((order += 137)))
    document.getElementById('profile').onclick = () => report(loadProfile)
  </script>
</body></html>`;

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  await svc.flag('ph-on', { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"banner":"hi"}' } });
  await svc.flag('ph-half', { groups: [{ properties: [], rollout_percentage: 50 }] });
  await svc.flag('ph-variants', {
    groups: [{ properties: [], rollout_percentage: 100 }],
    multivariate: {
      variants: [
        { key: 'a', rollout_percentage: 50 },
        { key: 'b', rollout_percentage: 50 },
      ],
    },
  });
  const feature = await svc.api(`/api/projects/${svc.projectId}/early_access_feature/`, {
    method: 'POST',
    body: { name: 'PH beta', description: 'via posthog-js', stage: 'beta', payload: { tier: 'pro', steps: [1, 2] } },
  });
  flagKey = feature.feature_flag.key;
  const waitlist = await svc.api(`/api/projects/${svc.projectId}/early_access_feature/`, {
    method: 'POST',
    body: { name: 'PH concept', description: 'a waitlist', stage: 'concept' },
  });
  conceptId = waitlist.id;
  conceptKey = waitlist.feature_flag.key;
  site = await serveStatic(posthogDist, { '/': page(svc.url, svc.token), '/external': page(svc.url, svc.token, 'array.full.js') });
  chromium.cleanup(() => site.close());
});

async function open(): Promise<Page> {
  const p = await chromium.newPage();
  await p.goto(site.url);
  await p.waitForFunction(() => (window as any).posthog?.__loaded === true, undefined, { timeout: 15_000 });
  return p;
}

const flagsLoaded = (p: Page) => p.evaluate(() => new Promise<void>((resolve) => (window as any).posthog.onFeatureFlags(() => resolve())));

describe('posthog-js against the service', () => {
  it('loads its remote config from the script /array/<token>/config.js, with no failed request and no console error', async () => {
    const p = await chromium.newPage();
    const failures: string[] = [];
    const configs: string[] = [];
    p.on('console', (m) => m.type() === 'error' && failures.push(`${m.text()} ${m.location().url}`));
    p.on('requestfailed', (r) => failures.push(`failed: ${r.url()}`));
    p.on('request', (r) => new URL(r.url()).pathname.startsWith('/array/') && configs.push(new URL(r.url()).pathname));
    await p.goto(`${site.url}/external`);
    await p.waitForFunction(() => (window as any).posthog?.__loaded === true, undefined, { timeout: 15_000 });
    await flagsLoaded(p);
    expect(await p.evaluate(() => (window as any).posthog.isFeatureEnabled('ph-on'))).toBe(true);
    // The script set the config where posthog-js reads it, so it never asked for the JSON one.
    expect(await p.evaluate((token) => (window as any)._POSTHOG_REMOTE_CONFIG?.[token]?.config?.token, svc.token)).toBe(svc.token);
    expect(configs).toEqual([`/array/${svc.token}/config.js`]);
    expect(failures).toEqual([]);
  });

  it('sends its pageview and custom events, which are stored', async () => {
    const p = await open();
    const distinctId: string = await p.evaluate(() => (window as any).posthog.get_distinct_id());
    const [pageview] = await svc.waitForEvents('$pageview', distinctId);
    expect(pageview.properties).toMatchObject({ $lib: 'web' });
    await p.evaluate(() => (window as any).posthog.capture('bought', { amount: 3 }));
    const [bought] = await svc.waitForEvents('bought', distinctId);
    expect(bought.properties).toMatchObject({ amount: 3, $lib: 'web' });
  });

  it('gets the flags and payloads our /flags gives its distinct id', async () => {
    const p = await open();
    await flagsLoaded(p);
    const distinctId: string = await p.evaluate(() => (window as any).posthog.get_distinct_id());
    const ours = await svc.flags({ distinct_id: distinctId });
    for (const key of ['ph-on', 'ph-half', 'ph-variants']) {
      const theirs = await p.evaluate((k) => (window as any).posthog.getFeatureFlag(k), key);
      expect(theirs, key).toBe(ours.featureFlags[key]);
    }
    expect(await p.evaluate(() => (window as any).posthog.getFeatureFlagPayload('ph-on'))).toEqual({ banner: 'hi' });
  });

  it('lists early access features and opts in: the service then turns the flag on for that person', async () => {
    const p = await open();
    await flagsLoaded(p);
    const features: any[] = await p.evaluate(
      () => new Promise((resolve) => (window as any).posthog.getEarlyAccessFeatures((list: any[]) => resolve(list), true)),
    );
    expect(features.map((f) => f.flagKey)).toContain(flagKey);
    expect(features.map((f) => f.flagKey)).not.toContain(conceptKey); // the default stage is beta
    expect(features.find((f) => f.flagKey === flagKey)).toMatchObject({ name: 'PH beta', stage: 'beta', payload: { tier: 'pro', steps: [1, 2] } });
    const distinctId: string = await p.evaluate(() => (window as any).posthog.get_distinct_id());
    expect((await svc.flags({ distinct_id: distinctId })).featureFlags[flagKey]).toBe(false);
    await p.evaluate((k) => (window as any).posthog.updateEarlyAccessFeatureEnrollment(k, true), flagKey);
    await svc.waitForEvents('$feature_enrollment_update', distinctId);
    expect((await svc.flags({ distinct_id: distinctId })).featureFlags[flagKey]).toBe(true);
  });

  it('registers interest in a concept feature (stage passed as posthog-js does): the flag stays off until the feature is released', async () => {
    const p = await open();
    await flagsLoaded(p);
    const features: any[] = await p.evaluate(
      () => new Promise((resolve) => (window as any).posthog.getEarlyAccessFeatures((list: any[]) => resolve(list), true, ['concept'])),
    );
    expect(features.map((f) => [f.flagKey, f.stage])).toEqual([[conceptKey, 'concept']]);
    const distinctId: string = await p.evaluate(() => (window as any).posthog.get_distinct_id());
    await p.evaluate((k) => (window as any).posthog.updateEarlyAccessFeatureEnrollment(k, true, 'concept'), conceptKey);
    const [update] = await svc.waitForEvents('$feature_enrollment_update', distinctId);
    expect(update.properties).toMatchObject({ $feature_flag: conceptKey, $feature_enrollment: true, $feature_enrollment_stage: 'concept' });
    expect((await svc.flags({ distinct_id: distinctId })).featureFlags[conceptKey]).toBe(false);
    await svc.api(`/api/projects/${svc.projectId}/early_access_feature/${conceptId}/`, { method: 'PATCH', body: { stage: 'beta' } });
    expect((await svc.flags({ distinct_id: distinctId })).featureFlags[conceptKey]).toBe(true);
  });

  it('its captureException events group into issues: the same error (another order number) from two people in one, a different error in another', async () => {
    const first = await open();
    await first.click('#pay'); // Payment declined for order 1137
    const firstId: string = await first.evaluate(() => (window as any).posthog.get_distinct_id());
    await svc.waitForEvents('$exception', firstId);
    const second = await open();
    await second.click('#pay'); // Payment declined for order 1137 again (a new page): the same error...
    await second.click('#pay'); // ...and order 1274: the same error (same type and stack; the number does not split it)
    await second.click('#profile'); // TypeError: a different error
    const secondId: string = await second.evaluate(() => (window as any).posthog.get_distinct_id());
    expect(secondId).not.toBe(firstId);
    await svc.waitForEvents('$exception', secondId, (events) => events.length === 3);

    const { results } = await svc.api(`/api/projects/${svc.projectId}/error_tracking/issues/?order_by=occurrences`);
    expect(results).toEqual([
      expect.objectContaining({ name: 'Error', description: 'Payment declined for order 1137', status: 'active', occurrences: 3, people: 2 }),
      expect.objectContaining({ name: 'TypeError', description: expect.stringContaining("reading 'name'"), occurrences: 1, people: 1 }),
    ]);
    // Its stack as posthog-js sent it: the throw site last, in the page's own script.
    const payment = await svc.api(`/api/projects/${svc.projectId}/error_tracking/issues/${results[0].id}/`);
    expect(payment.latest_event.properties.$exception_list[0]).toMatchObject({ type: 'Error', value: 'Payment declined for order 1274' });
    const frames = payment.latest_event.properties.$exception_list[0].stacktrace.frames;
    expect(frames.at(-1)).toMatchObject({ function: 'chargeCard', filename: `${site.url}/`, in_app: true });
  });
});
