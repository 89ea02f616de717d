import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { bundlePage } from './support/bundle';
import { startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window */

// The official OpenFeature web SDK with its OFREP provider and React SDK, bundled with esbuild as an app would be, in
// Chromium against a started service: no vendor SDK, the OFREP endpoints and the flag stream the bulk answer names.
let svc: Service;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();
let liveFlag: { id: number };

/** The page: the provider set up as OpenFeature's docs show, React components reading flags through the hooks. */
const app = `
import { OpenFeature } from '@openfeature/web-sdk'
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider'
import { OpenFeatureProvider, useBooleanFlagDetails, useBooleanFlagValue, useObjectFlagValue, useStringFlagDetails } from '@openfeature/react-sdk'
import { createRoot } from 'react-dom/client'
const { host, token } = window.CONFIG
window.OpenFeature = OpenFeature
window.renders = 0
function Flags() {
  const bool = useBooleanFlagDetails('of-bool', false)
  const variant = useStringFlagDetails('of-variant', 'none')
  const object = useObjectFlagValue('of-object', { color: 'default' })
  const live = useBooleanFlagValue('of-live', false)
  window.renders++
  return (
    <dl>
      <dt>bool</dt><dd data-testid="bool">{String(bool.value)} {bool.reason}</dd>
      <dt>variant</dt><dd data-testid="variant">{variant.value} {variant.variant}</dd>
      <dt>object</dt><dd data-testid="object">{object.color}</dd>
      <dt>live</dt><dd data-testid="live">{live ? 'on' : 'off'}</dd>
    </dl>
  )
}
OpenFeature.setContext({ targetingKey: 'of-user-1', plan: 'pro' })
  .then(() => OpenFeature.setProviderAndWait(new OFREPWebProvider({ baseUrl: host, headers: [['Authorization', 'Bearer ' + token]], cacheMode: 'disabled' })))
  // a provider that cannot start rejects here; the app goes on with the callers' defaults
  .catch((e) => (window.failure = e.name))
  .finally(() => (window.ready = true))
createRoot(document.getElementById('root')).render(<OpenFeatureProvider suspendUntilReady={false}><Flags /></OpenFeatureProvider>)
`;
const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>OpenFeature web</title><link rel="icon" href="data:,"></head>
<body><div id="root"></div><script src="/config.js"></script><script src="/app.js"></script></body></html>`;
const config = (token: string) => `window.CONFIG = ${JSON.stringify({ host: svc.url, token })}`;

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  const all = { groups: [{ properties: [], rollout_percentage: 100 }] };
  // the context's attributes are person properties: `plan` targets
  await svc.flag('of-bool', { groups: [{ properties: [{ key: 'plan', value: ['pro'], operator: 'exact', type: 'person' }], rollout_percentage: 100 }] });
  await svc.flag('of-variant', {
    ...all,
    multivariate: {
      variants: [
        { key: 'control', rollout_percentage: 50 },
        { key: 'test', rollout_percentage: 50 },
      ],
    },
  });
  await svc.flag('of-object', { ...all, payloads: { true: JSON.stringify({ color: 'teal' }) } });
  await svc.flag('of-off', all, false);
  liveFlag = await svc.flag('of-live', all, false);
  site = await serveStatic(import.meta.dirname, { '/': html, '/config.js': config(svc.token), '/app.js': await bundlePage(app) });
  chromium.cleanup(() => site.close());
});

/** The page's OpenFeature client's details of a flag (through the SDK, not the hooks). */
const details = (page: Page, method: string, key: string, fallback: unknown) =>
  page.evaluate(([m, k, d]) => (window as any).OpenFeature.getClient()[m as string](k, d), [method, key, fallback] as const);

async function open(page: Page, path = '/') {
  const errors: Error[] = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(site.url + path);
  await expect.poll(() => page.evaluate(() => (window as any).ready === true)).toBe(true);
  return errors;
}

describe('@openfeature/web-sdk + @openfeature/ofrep-web-provider + @openfeature/react-sdk in Chromium', () => {
  it('values, variants, objects and reasons through the React hooks and the client', async () => {
    const page = await chromium.newPage();
    const errors = await open(page);
    await expect.poll(() => page.getByTestId('bool').textContent()).toBe('true TARGETING_MATCH');
    await expect.poll(() => page.getByTestId('variant').textContent()).toMatch(/^(control|test) \1$/);
    await expect.poll(() => page.getByTestId('object').textContent()).toBe('teal');
    expect(await page.getByTestId('live').textContent()).toBe('off');
    const variant = (await page.getByTestId('variant').textContent())!.split(' ')[0];
    expect(await details(page, 'getStringDetails', 'of-variant', 'none')).toMatchObject({ value: variant, variant, reason: 'SPLIT', flagKey: 'of-variant' });
    // the same answer /flags gives this person (the same evaluator)
    expect((await svc.flags({ distinct_id: 'of-user-1', person_properties: { plan: 'pro' } })).flags['of-variant'].variant).toBe(variant);
    // a disabled flag answers false, a missing one the caller's default with OFREP's error code
    expect(await details(page, 'getBooleanDetails', 'of-off', true)).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(await details(page, 'getBooleanDetails', 'of-missing', true)).toMatchObject({ value: true, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    // a flag of another type than asked: the default, with TYPE_MISMATCH
    expect(await details(page, 'getNumberDetails', 'of-bool', 7)).toMatchObject({ value: 7, errorCode: 'TYPE_MISMATCH' });
    expect(errors).toEqual([]);
  });

  it('a change made through the API arrives through the stream the bulk answer names, and useBooleanFlagValue re-renders', async () => {
    const page = await chromium.newPage();
    const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/flags/stream');
    const errors = await open(page);
    await expect.poll(() => page.getByTestId('bool').textContent()).toBe('true TARGETING_MATCH');
    expect((await stream).status()).toBe(200);
    const renders = await page.evaluate(() => (window as any).renders);
    await svc.api(`/api/projects/${svc.projectId}/feature_flags/${liveFlag.id}/`, { method: 'PATCH', body: { active: true } });
    // polling is off (the provider's default): only the stream's notice makes the provider fetch again
    await expect.poll(() => page.getByTestId('live').textContent(), { timeout: 10_000 }).toBe('on');
    expect(await page.evaluate(() => (window as any).renders)).toBeGreaterThan(renders);
    expect(await details(page, 'getBooleanDetails', 'of-live', false)).toMatchObject({ value: true });
    expect(errors).toEqual([]);
  });

  it('a wrong token: the provider errors, every flag is the caller default, nothing throws into the page', async () => {
    const page = await chromium.newPage();
    await page.route(`${site.url}/config.js`, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: config('phc_not_a_project_token_0000000000000000') }),
    );
    const errors = await open(page);
    expect(await page.evaluate(() => (window as any).failure)).toBe('ProviderFatalError');
    expect(await page.evaluate(() => (window as any).OpenFeature.getClient().providerStatus)).toMatch(/^(ERROR|FATAL)$/);
    expect(await page.getByTestId('bool').textContent()).toMatch(/^false /);
    expect(await details(page, 'getBooleanDetails', 'of-bool', false)).toMatchObject({ value: false, reason: 'ERROR' });
    expect(errors).toEqual([]);
  });
});
