import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './support/browser';
import { root } from './support/service';
import { apiLogIn, expectAccessible, signUp, startWebApp, type WebApp } from './support/web-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window and the service's JSON */

// The web app's Replays in Chromium against a started service: the official posthog-js (its bundle with the
// recorder, default options) records a checkout on a page of its own to the service's /s/; the recording is listed,
// plays in the app's player to the same text as the page had, with the session's pageview and clicks on its timeline;
// the settings section reads and saves the project's settings; the replay is reached from the session's error and the
// person's page; a recording is deleted; and service-js (its script-tag build, which fetches its recorder from the
// service) records the same checkout, which plays to the same text. The tests build on each other.
const posthogDist = join(dirname(createRequire(import.meta.url).resolve('posthog-js/package.json')), 'dist');
/** service-js's build (`npm test -w e2e` builds it first): its script-tag bundle fetches the recorder from the service. */
const serviceJsDist = join(root, 'packages', 'js', 'dist');
const PASSWORD = 'hunter2-never-stored';

/** The shop's page, with the client's script: posthog-js (`/array.full.js`) or service-js (`/service.iife.js`). */
const shop = (client: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout</title><link rel="icon" href="data:,">
<style>body{font:16px system-ui;margin:24px}#cart li{margin:4px 0}</style></head>
<body>
  <h1>Checkout</h1>
  <p id="status">Your cart is empty.</p>
  <ul id="cart"></ul>
  <label>Email <input id="email" type="email"></label>
  <label>Password <input id="password" type="password"></label>
  <button id="add">Add a blue mug</button>
  <button id="pay">Pay now</button>
  ${client}
  <script>
    const client = window.posthog ?? window.service
    document.getElementById('add').onclick = () => {
      const li = document.createElement('li')
      li.textContent = 'Blue mug × 1 — €12.00'
      document.getElementById('cart').append(li)
      document.getElementById('status').textContent = 'One item in your cart.'
    }
    document.getElementById('pay').onclick = () => {
      document.getElementById('status').textContent = 'Paid: your order 1042 is on its way.'
      document.getElementById('cart').replaceChildren()
      client.capture('order_paid', { order: 1042 })
      client.captureException(new Error('Receipt printer offline'))
    }
  </script>
</body></html>`;

let app: WebApp;
let site: { url: string; close: () => Promise<void> };
let serviceSite: { url: string; close: () => Promise<void> };
let context: BrowserContext;
let page: Page;
let projectId: number;
let sessionId: string;
/** The text of the shop's page at the end of the recorded session. */
let recordedText: string;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  const init = (global: string) =>
    `<script>${global}.init(${JSON.stringify(app.svc.token)}, { api_host: ${JSON.stringify(app.base)}, person_profiles: 'always', request_batching: false, opt_out_useragent_filter: true })</script>`;
  site = await serveStatic(posthogDist, { '/': shop(`<script src="/array.full.js"></script>${init('posthog')}`) });
  serviceSite = await serveStatic(serviceJsDist, { '/': shop(`<script src="/service.iife.js"></script>${init('window.service')}`) });
  await signUp(app.base, owner);
  context = await app.newContext();
  await apiLogIn(context, app.base, owner.email, owner.password);
  page = await context.newPage();
});

afterAll(async () => {
  await site?.close();
  await serviceSite?.close();
  await app?.stop();
});

const snapshotsOf = async (id: string) => {
  const res = await fetch(`${app.base}/api/projects/${projectId}/session_recordings/${encodeURIComponent(id)}/snapshots/`, {
    headers: { authorization: `Bearer ${app.svc.key}` },
  });
  return res.ok ? res.text() : '';
};

describe('Replays in the web app', () => {
  it('shows a new project how to start recording', async () => {
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Replays' }).click();
    await page.getByRole('heading', { name: 'Replays', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No recordings yet' }).waitFor();
    await expectAccessible(page, 'the empty list of recordings');
    await page.getByRole('link', { name: 'Turn on recording' }).click();
    const form = page.getByRole('form', { name: 'Session replay settings' });
    await form.waitFor();
    expect(await form.getByRole('switch', { name: /^Record sessions/ }).isChecked()).toBe(false);
    expect(await page.getByTestId('replay-storage').textContent()).toBe('0 recordings take 0 B on disk; each is kept for 30 days after it ends.');
    await expectAccessible(page, 'the session replay settings');
  });

  it('saves the settings from the form: recording on, half of the sessions', async () => {
    const form = page.getByRole('form', { name: 'Session replay settings' });
    await form.getByRole('switch', { name: /^Record sessions/ }).check({ force: true });
    await form.getByRole('textbox', { name: /^Sessions recorded/ }).fill('50');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await app.svc.api(`/api/projects/${projectId}/session_recording_settings/`)).enabled).toBe(true);
    const saved = await app.svc.api(`/api/projects/${projectId}/session_recording_settings/`);
    expect(saved.sample_rate).toBe(0.5);
    // Every session, for the recording below.
    await app.svc.api(`/api/projects/${projectId}/session_recording_settings/`, { method: 'PATCH', body: { sample_rate: 1 } });
  });

  it('records a checkout with posthog-js, the password never stored', async () => {
    const shopPage = await context.newPage();
    await shopPage.goto(site.url);
    await shopPage.waitForFunction(() => (window as any).posthog?.sessionRecordingStarted?.() === true, undefined, { timeout: 20_000 });
    await shopPage.evaluate(() => (window as any).posthog.identify('ada-shopper', { email: 'ada.shopper@example.com' }));
    await shopPage.click('#email');
    await shopPage.keyboard.type('ada.shopper@example.com');
    await shopPage.click('#password');
    await shopPage.keyboard.type(PASSWORD);
    await shopPage.click('#add');
    await shopPage.getByText('One item in your cart.').waitFor();
    await shopPage.click('#pay');
    await shopPage.getByText('Paid: your order 1042').waitFor();
    recordedText = normalize(await shopPage.locator('body').innerText());
    sessionId = await shopPage.evaluate(() => (window as any).posthog.get_session_id());
    // posthog-js sends its buffer every few seconds: the last change is stored once the snapshots have it.
    await expect.poll(() => snapshotsOf(sessionId), { timeout: 20_000, interval: 500 }).toContain('1042 is on its way');
    await shopPage.close();
    const stored = await snapshotsOf(sessionId);
    expect(stored).not.toContain(PASSWORD);
  });

  it('lists the recording, and plays it in the player to the same text as the page had', async () => {
    await page.goto(`/project/${projectId}/replays`);
    const table = page.getByRole('table', { name: 'Recordings' });
    await table.waitFor();
    await table.getByRole('link').first().click();
    await page.waitForURL(new RegExp(`/replays/${sessionId}$`));
    const frame = page.frameLocator('.replay-frame iframe');
    await frame.getByRole('heading', { name: 'Checkout' }).waitFor();
    expect(normalize(await frame.locator('#status').innerText())).toBe('Your cart is empty.');

    // The session's events on the timeline: its pageview and the clicks.
    const markers = page.getByRole('group', { name: 'Events on the timeline' }).getByRole('button');
    await expect.poll(async () => (await markers.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).join(' | ')).toMatch(/Pageview/);
    expect((await markers.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).join(' | ')).toMatch(/Click/);
    await page.getByRole('list', { name: 'Events of the session' }).getByText('order_paid').waitFor();

    // To the end of the recording: the replayed page reads as the page did.
    await page.getByRole('slider', { name: 'Position in the recording' }).focus();
    await page.keyboard.press('End');
    await expect.poll(async () => normalize(await frame.locator('body').innerText())).toBe(recordedText);
    await expectAccessible(page, 'the replay player');

    // From the start, played: the clock runs and the page changes as it did.
    await page.getByRole('slider', { name: 'Position in the recording' }).focus();
    await page.keyboard.press('Home');
    await expect.poll(async () => normalize(await frame.locator('#status').innerText())).toBe('Your cart is empty.');
    await page.locator('label', { hasText: '8×' }).click();
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => normalize(await frame.locator('#status').innerText()), { timeout: 20_000 }).toBe('Paid: your order 1042 is on its way.');
  });

  it("is reached from the session's error and from the person's page", async () => {
    await expect.poll(async () => (await app.svc.api(`/api/projects/${projectId}/error_tracking/issues/`)).count, { timeout: 15_000 }).toBe(1);
    await page.goto(`/project/${projectId}/error_tracking`);
    await page
      .getByRole('table', { name: 'Error issues' })
      .getByRole('row', { name: /Receipt printer offline/ })
      .getByRole('link')
      .click();
    await page.getByRole('link', { name: 'Watch the session' }).click();
    await page.waitForURL(new RegExp(`/replays/${sessionId}\\?at=`));
    await page.frameLocator('.replay-frame iframe').getByRole('heading', { name: 'Checkout' }).waitFor();

    await page.goto(`/project/${projectId}/persons/ada-shopper`);
    await page.getByRole('tab', { name: 'Recordings' }).click();
    await page.getByRole('table', { name: 'Recordings' }).getByRole('link').first().click();
    await page.waitForURL(new RegExp(`/replays/${sessionId}$`));
  });

  it('deletes the recording', async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this recording?' }).getByRole('button', { name: 'Delete recording' }).click();
    await page.waitForURL(new RegExp(`/project/${projectId}/replays$`));
    await page.getByRole('heading', { name: 'No recordings yet' }).waitFor();
    expect(await snapshotsOf(sessionId)).toBe('');
    // Recording is on: the empty list says sessions are on their way.
    await page.getByText(/^Recording is on:/).waitFor();
  });

  it('plays a session recorded by service-js (its script-tag build and recorder) to the same text as the page had', async () => {
    const shopPage = await context.newPage();
    await shopPage.goto(serviceSite.url);
    await shopPage.waitForFunction(() => (window as any).service?.sessionRecordingStarted?.() === true, undefined, { timeout: 20_000 });
    await shopPage.click('#password');
    await shopPage.keyboard.type(PASSWORD);
    await shopPage.click('#add');
    await shopPage.getByText('One item in your cart.').waitFor();
    await shopPage.click('#pay');
    await shopPage.getByText('Paid: your order 1042').waitFor();
    const text = normalize(await shopPage.locator('body').innerText());
    const id: string = await shopPage.evaluate(() => (window as any).service.get_session_id());
    await expect.poll(() => snapshotsOf(id), { timeout: 20_000, interval: 500 }).toContain('1042 is on its way');
    await shopPage.close();
    expect(await snapshotsOf(id)).not.toContain(PASSWORD);

    await page.goto(`/project/${projectId}/replays/${id}`);
    const frame = page.frameLocator('.replay-frame iframe');
    await frame.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByRole('slider', { name: 'Position in the recording' }).focus();
    await page.keyboard.press('End');
    await expect.poll(async () => normalize(await frame.locator('body').innerText())).toBe(text);
  });
});
