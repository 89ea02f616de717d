import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogIn, expectAccessibleLightAndDark, signUp, startWebApp, type WebApp } from './support/web-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON */

// The personal API keys screen and the project's activity page, in Chromium against a started service: the owner sees
// every key (the first start's, which belongs to no user, among them) with its projects by name, makes a key with
// feature_flag:read alone, and reads who changed a flag, when, and each field before and after. The tests run in order.
let app: WebApp;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
let projectId: number;
let context: BrowserContext;
let page: Page;
let csrf: string;

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  await signUp(app.base, owner);
  context = await app.newContext();
  csrf = await apiLogIn(context, app.base, owner.email, owner.password);
  page = await context.newPage();
});

afterAll(() => app?.stop());

/** A call to the API with the owner's session (as the web app makes it). */
async function asOwner(method: string, path: string, data?: unknown): Promise<any> {
  const res = await context.request.fetch(`${app.base}${path}`, { method, data, headers: { origin: app.base, 'x-csrf-token': csrf } });
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
  return res.status() === 204 ? null : res.json();
}

/** Scans the page with axe in light and dark, the pointer resting on the page's empty corner (not on a link it clicked). */
async function scan(where: string) {
  await page.mouse.move(1270, 850);
  await expectAccessibleLightAndDark(page, where);
}

describe('personal API keys', () => {
  it("shows the owner every key with its projects by name: the first start's key (no user) and a key of another project", async () => {
    const other = await asOwner('POST', '/api/projects/', { name: 'Checkout app' });
    await asOwner('POST', '/api/personal_api_keys/', { label: 'Checkout deploy', scopes: ['feature_flag:write'], project_ids: [other.id] });

    await page.goto(`/project/${projectId}/settings/keys`);
    const table = page.getByRole('table', { name: 'Personal API keys' });
    const firstStart = table.getByRole('row').filter({ hasText: 'created at first start' });
    await firstStart.getByText('command line').waitFor();
    await firstStart.getByText('Every project').waitFor();
    await firstStart.getByText('Everything (*)').waitFor();
    const limited = table.getByRole('row').filter({ hasText: 'Checkout deploy' });
    await limited.getByRole('cell', { name: 'Checkout app', exact: true }).waitFor();
    await limited.getByRole('cell', { name: 'you', exact: true }).waitFor();
    await scan('the personal API keys');
  });

  it('makes a key with feature_flag:read alone, which reads flags and changes none', async () => {
    await page.goto(`/project/${projectId}/settings/keys`);
    await page.getByLabel('Label').fill('service-node on the checkout server');
    await page.getByRole('radiogroup', { name: 'Feature flags' }).getByText('Read', { exact: true }).click();
    // What a member's role lacks is greyed out; an owner may pick anything.
    expect(await page.getByRole('radiogroup', { name: 'Webhooks' }).getByRole('radio', { name: 'Read and write' }).isDisabled()).toBe(false);
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new key' });
    const secret = (await dialog.locator('code').textContent())!;
    await dialog.getByRole('button', { name: 'Done' }).click();

    const made = (await asOwner('GET', '/api/personal_api_keys/')).results.find((k: any) => k.label === 'service-node on the checkout server');
    expect(made).toMatchObject({ scopes: ['feature_flag:read'], project_ids: [projectId], user: { email: owner.email } });
    const withKey = (method: string, body?: unknown) =>
      fetch(`${app.base}/api/projects/${projectId}/feature_flags/`, {
        method,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await withKey('GET')).status).toBe(200);
    expect((await withKey('POST', { key: 'made-with-a-read-key' })).status).toBe(403);
    const row = page.getByRole('table', { name: 'Personal API keys' }).getByRole('row').filter({ hasText: 'service-node on the checkout server' });
    await row.getByText('feature_flag:read', { exact: true }).waitFor();
  });
});

describe('the activity page', () => {
  it('shows who changed a flag and each field before → after, filters by kind and by who, and pages', async () => {
    const flag = await asOwner('POST', `/api/projects/${projectId}/feature_flags/`, {
      key: 'checkout-v2',
      name: 'The new checkout',
      filters: { groups: [{ properties: [], rollout_percentage: 30 }] },
    });
    await asOwner('PATCH', `/api/projects/${projectId}/feature_flags/${flag.id}/`, {
      filters: { groups: [{ properties: [], rollout_percentage: 50 }] },
    });
    await app.svc.api(`/api/projects/${projectId}/feature_flags/${flag.id}/`, { method: 'PATCH', body: { active: false } });

    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    const changes = page.getByRole('region', { name: 'Changes' });
    await changes.getByText('API key “created at first start” updated feature flag checkout-v2').waitFor();
    const byOwner = changes.getByRole('listitem').filter({ hasText: 'Ada Lovelace updated feature flag checkout-v2' });
    // Each row reads field, before, after (the arrow between them is drawn for the eye only).
    const rollout = byOwner.getByRole('row').filter({ hasText: 'Condition 1 › rollout %' });
    expect(await rollout.getByRole('cell').allTextContents()).toEqual(['Condition 1 › rollout %', '30', '50']);
    const enabled = changes.getByRole('listitem').filter({ hasText: 'created at first start' }).getByRole('row').filter({ hasText: 'Enabled' });
    expect(await enabled.getByRole('cell').allTextContents()).toEqual(['Enabled', 'true', 'false']);
    // No raw JSON of the filters anywhere.
    expect(await changes.textContent()).not.toContain('"rollout_percentage"');
    await scan('the activity page');

    await page.getByLabel('Kind').selectOption({ label: 'Early access features' });
    await page.getByText('No changes match these filters').waitFor();
    expect(new URL(page.url()).searchParams.get('scope')).toBe('EarlyAccessFeature');
    await page.getByLabel('Kind').selectOption({ label: 'Feature flags' });
    await page.getByLabel('Changed by').selectOption({ label: 'Any personal API key' });
    await changes.getByText('API key “created at first start” updated feature flag checkout-v2').waitFor();
    await expect.poll(() => changes.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Changed by').selectOption({ label: `${owner.name} (${owner.email})` });
    await expect.poll(() => changes.getByRole('listitem').count()).toBe(2);
    expect(await changes.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Ada Lovelace updated feature flag checkout-v2'),
      expect.stringContaining('Ada Lovelace created feature flag checkout-v2'),
    ]);

    // 50 changes a page, newest first.
    for (let i = 1; i <= 50; i++)
      await asOwner('PATCH', `/api/projects/${projectId}/feature_flags/${flag.id}/`, { filters: { groups: [{ properties: [], rollout_percentage: i }] } });
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    const total = (await app.svc.api(`/api/projects/${projectId}/activity_log/?limit=1`)).count as number;
    await page.getByText(`1–50 of ${total} changes`).waitFor();
    await page.getByRole('button', { name: 'Older' }).click();
    await page.getByText(`51–${total} of ${total} changes`).waitFor();
    await changes.getByText('Ada Lovelace created feature flag checkout-v2').waitFor();
  });

  it("is linked from a flag's history", async () => {
    const flag = (await app.svc.api(`/api/projects/${projectId}/feature_flags/?limit=100`)).results.find((f: any) => f.key === 'checkout-v2');
    await page.goto(`/project/${projectId}/feature_flags/${flag.id}?tab=history`);
    await page.getByRole('link', { name: 'All changes in this project' }).click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get('scope')).toBe('FeatureFlag');
    expect(await page.getByLabel('Kind').inputValue()).toBe('FeatureFlag');
  });
});
