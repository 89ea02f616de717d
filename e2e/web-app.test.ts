import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogIn, descriptionOf, logIn, overflowsSideways, startWebApp, type WebApp } from './support/web-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- the API's JSON */

// The web app (packages/web) served by a started service, in Chromium: the owner's first visit, flags, early access,
// members, keys, bad input and lost sessions. The tests run in order and build on each other (one service per file).
let app: WebApp;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const viewer = { name: 'Vic Viewer', email: 'vic@example.com', password: 'viewer password 1' };
let projectId: number;
let flagId: string;

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
});

/** A page of a new context logged in as the owner (through the API: logging in through the page is tested once). */
async function ownerPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.newContext();
  await apiLogIn(context, app.base, owner.email, owner.password);
  return { context, page: await context.newPage() };
}

/** The path and query of the page's address. */
const where = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/** Waits until the page's address has this path (and query, when given). */
async function waitForPath(page: Page, path: string | RegExp) {
  await page.waitForURL((url) =>
    typeof path === 'string' ? url.pathname + (path.includes('?') ? url.search : '') === path : path.test(url.pathname + url.search),
  );
}

afterAll(() => app?.stop());

describe('the web app of a started service', () => {
  it("sends the first visitor to create the owner's account, then logs in with it", async () => {
    const context = await app.newContext();
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Create the first account' }).waitFor();
    expect(where(page)).toBe('/signup');
    await page.getByLabel('Name').fill(owner.name);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await waitForPath(page, `/project/${projectId}/feature_flags`);
    await page.getByRole('heading', { name: 'Feature flags', level: 1 }).waitFor();
    await context.close();

    // A new visitor (no session) is sent to the login page, never to the first-account form again.
    const other = await app.newPage();
    await other.goto(`/project/${projectId}/early_access`);
    await other.getByRole('button', { name: 'Log in' }).waitFor();
    expect(new URL(other.url()).pathname).toBe('/login');
    await logIn(other, owner.email, 'wrong password');
    await other.getByRole('alert').filter({ hasText: 'Invalid email or password.' }).waitFor();
    await logIn(other, owner.email, owner.password);
    await waitForPath(other, `/project/${projectId}/early_access`);
    await other.getByRole('heading', { name: 'Early access', level: 1 }).waitFor();
    for (const name of ['Feature flags', 'Early access', 'Events', 'People', 'Settings'])
      await other.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).waitFor();
    await other.context().close();
  });

  it('says how long an address waits after 5 wrong passwords for an email', async () => {
    const page = await app.newPage();
    for (let i = 0; i < 6; i++) {
      const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/login');
      await logIn(page, 'nobody@example.com', 'wrong password');
      await answered;
    }
    await page
      .getByRole('alert')
      .filter({ hasText: /^Too many wrong passwords for this email from your address\. Try again in 30 seconds\.$/ })
      .waitFor();
    await page.context().close();
  });

  it("creates a flag, off until turned on, with a condition and variants; asks before unsaved changes are lost; 'Test a user' agrees with /flags, in words", async () => {
    // A person with properties, whose names the condition editor then suggests.
    const identify = await fetch(`${app.base}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: app.svc.token, batch: [{ event: '$identify', distinct_id: 'ada-1', $set: { email: 'ada@example.com', plan: 'pro' } }] }),
    });
    expect(identify.status).toBe(200);
    await app.svc.waitForEvents('$identify', 'ada-1');

    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('link', { name: 'New feature flag' }).click();
    await page.getByRole('heading', { name: 'New feature flag' }).waitFor();
    const active = page.getByRole('switch', { name: /^Active/ });
    expect(await active.isChecked()).toBe(false);
    await page.getByRole('textbox', { name: 'Key', exact: true }).fill('new-checkout');
    await page.getByLabel('Description').fill('The redesigned checkout, for our own people first');

    // Leaving with unsaved changes asks; Stay keeps them.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Events' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Stay' }).click();
    expect(where(page)).toBe(`/project/${projectId}/feature_flags/new`);
    expect(await page.getByRole('textbox', { name: 'Key', exact: true }).inputValue()).toBe('new-checkout');

    await page.getByRole('button', { name: 'Add filter' }).click();
    const property = page.getByRole('combobox', { name: 'Property' });
    await property.fill('e');
    await page.getByRole('option', { name: 'email' }).click();
    expect(await property.inputValue()).toBe('email');
    await page.getByRole('combobox', { name: 'Values' }).fill('ada@example.com');
    await page.getByRole('combobox', { name: 'Values' }).press('Enter');
    await page.getByLabel('Rollout percentage').fill('100');
    await page.getByRole('switch', { name: 'Multiple variants' }).check();
    await page.getByLabel('Variant 1 percentage').fill('0');
    await page.getByLabel('Variant 2 percentage').fill('100');
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, new RegExp(`^/project/${projectId}/feature_flags/\\d+$`));
    flagId = new URL(page.url()).pathname.split('/').pop()!;

    const saved = await app.svc.api(`/api/projects/${projectId}/feature_flags/${flagId}/`);
    expect(saved.key).toBe('new-checkout');
    expect(saved.active).toBe(false);
    expect(saved.filters.groups).toEqual([
      expect.objectContaining({
        properties: [expect.objectContaining({ key: 'email', operator: 'exact', value: 'ada@example.com' })],
        rollout_percentage: 100,
      }),
    ]);
    expect(saved.filters.multivariate.variants.map((v: any) => [v.key, v.rollout_percentage])).toEqual([
      ['control', 0],
      ['test', 100],
    ]);

    const test = async (distinctId: string, properties: object, words: string) => {
      const answer = (await app.svc.flags({ distinct_id: distinctId, person_properties: properties })).flags['new-checkout'];
      await page.getByLabel('Distinct ID').fill(distinctId);
      await page.getByLabel('Person properties (JSON, optional)').fill(JSON.stringify(properties));
      await page.getByRole('button', { name: 'Evaluate' }).click();
      const result = page.locator('[aria-live="polite"]').filter({ hasText: words });
      await result.getByText(String(answer.variant ?? answer.enabled), { exact: true }).waitFor();
      expect(await result.getByText(words, { exact: true }).getAttribute('title')).toBe(answer.reason.code);
    };
    await page.getByRole('tab', { name: 'Test a user' }).click();
    await test('ada-1', { email: 'ada@example.com' }, 'The flag is off');

    // Turned on and saved, it answers by its conditions.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await active.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved new-checkout.').waitFor();
    expect((await app.svc.api(`/api/projects/${projectId}/feature_flags/${flagId}/`)).active).toBe(true);
    await page.getByRole('tab', { name: 'Test a user' }).click();
    await test('ada-1', { email: 'ada@example.com' }, 'Matched condition set 1');
    await test('bob-2', { email: 'bob@example.com' }, 'No condition set matched');
    expect((await app.svc.flags({ distinct_id: 'ada-1', person_properties: { email: 'ada@example.com' } })).flags['new-checkout'].variant).toBe('test');
    await context.close();
  });

  it('creates an early access feature, opts a person in from the app, and their flag is on', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Early access' }).click();
    await page.getByRole('link', { name: 'New early access feature' }).first().click();
    await page.getByLabel('Name').fill('Dark mode');
    await page.getByLabel('Description').fill('A darker theme for late nights.');
    await page.getByRole('combobox', { name: 'Stage' }).click();
    await page.getByRole('option', { name: 'Beta' }).click();
    await page.getByLabel('Documentation URL').fill('https://docs.example.com/dark-mode');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Dark mode', level: 1 }).waitFor();
    const featureId = new URL(page.url()).pathname.split('/').pop()!;
    const feature = await app.svc.api(`/api/projects/${projectId}/early_access_feature/${featureId}/`);
    expect(feature).toMatchObject({ name: 'Dark mode', stage: 'beta', documentation_url: 'https://docs.example.com/dark-mode' });
    const key = feature.feature_flag.key as string;
    expect((await app.svc.flags({ distinct_id: 'grace' })).flags[key].enabled).toBe(false);

    await page.getByLabel('Opt a person in or out').fill('grace');
    await page.getByRole('button', { name: 'Opt in', exact: true }).click();
    // Nobody sent an event as grace yet: the app asks first.
    await page.getByRole('dialog', { name: 'Nobody with the distinct id grace has been seen' }).getByRole('button', { name: 'Opt in anyway' }).click();
    // The chart of the feature's own choices redraws at once, one day on an axis of days (not years).
    const chart = page.getByRole('img', { name: 'Opt-ins and opt-outs per day: 1 opted in, 0 opted out' });
    await chart.waitFor();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await expect.poll(() => chart.locator('.uplot').getAttribute('data-days')).toBe(`${day(-1)}/${day(1)}`);
    await page.getByRole('table', { name: 'People who opted in' }).getByRole('link', { name: 'grace', exact: true }).click();
    await waitForPath(page, `/project/${projectId}/persons/grace`);
    await page.getByRole('tab', { name: 'Feature flags' }).click();
    const row = page.getByRole('table', { name: 'Feature flag values of this person' }).getByRole('row').filter({ hasText: key });
    await row.getByText('true', { exact: true }).waitFor();
    expect((await app.svc.flags({ distinct_id: 'grace' })).flags[key].enabled).toBe(true);
    await page.getByRole('tab', { name: 'Early access' }).click();
    await page.getByText('Opted in', { exact: true }).waitFor();
    await context.close();
  });

  it('early access: says what is wrong at the first Save, asks before taking the feature away, and links the flag a deleted feature left', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/early_access/new`);
    await page.getByLabel('Name').fill('Offline mode');
    const payload = page.getByLabel('Payload (JSON object, optional)');
    await payload.fill('[1, 2]');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => descriptionOf(payload)).toMatch(/The payload must be a JSON object/);
    await payload.fill('{"banner": true}');
    expect(await descriptionOf(payload)).not.toMatch(/must be a JSON object/);
    await page.getByRole('combobox', { name: 'Stage' }).click();
    await page.getByRole('option', { name: 'Beta' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Offline mode', level: 1 }).waitFor();
    const featureId = new URL(page.url()).pathname.split('/').pop()!;
    const key = (await app.svc.api(`/api/projects/${projectId}/early_access_feature/${featureId}/`)).feature_flag.key as string;

    // Enter opts in; a distinct id nobody was seen with is asked about first, one that sent an event is not.
    const sent = await fetch(`${app.base}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: app.svc.token, batch: [{ event: '$pageview', distinct_id: 'margaret', properties: {} }] }),
    });
    expect(sent.status).toBe(200);
    await app.svc.waitForEvents('$pageview', 'margaret');
    const person = page.getByLabel('Opt a person in or out');
    await person.fill('nobody-yet');
    await person.press('Enter');
    await page.getByRole('dialog', { name: 'Nobody with the distinct id nobody-yet has been seen' }).getByRole('button', { name: 'Opt in anyway' }).click();
    const optedIn = page.getByRole('table', { name: 'People who opted in' });
    await optedIn.getByRole('link', { name: 'nobody-yet', exact: true }).waitFor();
    await person.fill('margaret');
    await person.press('Enter');
    await optedIn.getByRole('link', { name: 'margaret', exact: true }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await app.svc.flags({ distinct_id: 'margaret' })).flags[key].enabled).toBe(true);

    // Out of beta takes the feature away from them: the app asks, and Cancel keeps it.
    await page.getByRole('radio', { name: 'Draft' }).focus();
    await page.keyboard.press('Space');
    const move = page.getByRole('dialog', { name: 'Move Offline mode to Draft?' });
    await move.getByRole('button', { name: 'Cancel' }).click();
    await move.waitFor({ state: 'hidden' });
    expect((await app.svc.api(`/api/projects/${projectId}/early_access_feature/${featureId}/`)).stage).toBe('beta');

    // Unsaved settings: leaving asks first.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Description').fill('Keep working without a connection.');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Events' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Stay' }).click();
    expect(await page.getByLabel('Description').inputValue()).toBe('Keep working without a connection.');

    // Deleted, then made again under the same name: the error names the flag it left, which the picker then links.
    await page.getByRole('button', { name: 'Delete feature' }).click();
    await page.getByRole('dialog', { name: 'Delete Offline mode?' }).getByRole('button', { name: 'Delete feature' }).click();
    await waitForPath(page, `/project/${projectId}/early_access`);
    await page.goto(`/project/${projectId}/early_access/new`);
    const name = page.getByLabel('Name');
    await name.fill('Offline mode');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => descriptionOf(name))
      .toMatch(new RegExp(`there is already a feature flag ${key} \\(id \\d+\\)\\. To use it for this feature, link it`));
    await page.getByRole('combobox', { name: 'Feature flag' }).click();
    expect(await page.getByRole('option', { name: 'new-checkout' }).count()).toBe(0); // it has variants
    await page.getByRole('option', { name: key }).click();
    expect(await descriptionOf(name)).not.toMatch(/already/);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Offline mode', level: 1 }).waitFor();
    await context.close();
  });

  it('invites a member as a viewer, who joins with the link and cannot save', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/settings/members`);
    await page.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'viewer' }).click();
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite link' });
    const url = (await dialog.locator('code').textContent())!;
    expect(url).toMatch(new RegExp(`^${app.base}/invite/\\S+$`));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Pending invites' }).getByRole('cell', { name: 'viewer' }).waitFor();

    const guest = await app.newContext();
    const joining = await guest.newPage();
    await joining.goto(url);
    await joining.getByRole('heading', { name: /^Join / }).waitFor();
    await joining.getByText('You were invited as viewer').waitFor();
    await joining.getByLabel('Name').fill(viewer.name);
    await joining.getByLabel('Email').fill(viewer.email);
    await joining.getByLabel('Password', { exact: true }).fill(viewer.password);
    await joining.getByRole('button', { name: 'Join' }).click();
    await waitForPath(joining, `/project/${projectId}/feature_flags`);
    await joining.getByRole('link', { name: 'new-checkout' }).waitFor();
    await joining.getByRole('alert').filter({ hasText: 'Your role is viewer' }).waitFor();
    expect(await joining.getByRole('link', { name: 'New feature flag' }).count()).toBe(0);
    expect(await joining.getByRole('switch', { name: 'Active: new-checkout' }).isDisabled()).toBe(true);

    await joining.getByRole('link', { name: 'new-checkout' }).click();
    await joining.getByRole('textbox', { name: 'Key', exact: true }).waitFor();
    expect(await joining.getByRole('textbox', { name: 'Key', exact: true }).isDisabled()).toBe(true);
    expect(await joining.getByRole('button', { name: 'Save' }).count()).toBe(0);
    // Nor can the viewer save through the API with their session.
    const me = await (await guest.request.get(`${app.base}/api/users/@me`)).json();
    expect(me.role).toBe('viewer');
    const refused = await guest.request.patch(`${app.base}/api/projects/${projectId}/feature_flags/${flagId}/`, {
      data: { name: 'changed by a viewer' },
      headers: { origin: app.base, 'x-csrf-token': me.csrf_token },
    });
    expect(refused.status()).toBe(403);
    await guest.close();

    // The owner sees the new member; the link is used up.
    await page.reload();
    await page.getByRole('table', { name: 'Members' }).getByText(viewer.email).waitFor();
    await page.getByText('No pending invites.').waitFor();
    await context.close();
  });

  it('creates a personal API key, shows it once, and revokes it', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/settings`);
    await page.getByRole('tab', { name: 'Personal API keys' }).click();
    await page.getByLabel('Label').fill('Deploy script');
    await page.getByRole('radiogroup', { name: 'Feature flags' }).getByText('Read and write', { exact: true }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new key' });
    const secret = (await dialog.locator('code').textContent())!;
    const asKey = () => fetch(`${app.base}/api/users/@me`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await asKey()).status).toBe(200);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('table', { name: 'Personal API keys' }).getByRole('row').filter({ hasText: 'Deploy script' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke Deploy script?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key revoked: requests made with it now fail.').waitFor();
    await row.waitFor({ state: 'detached' });
    // The first start's key stays: the owner sees it, though it belongs to no user.
    await page.getByRole('table', { name: 'Personal API keys' }).getByRole('row').filter({ hasText: 'created at first start' }).waitFor();
    expect((await asKey()).status).toBe(401);
    await context.close();
  });

  it('keeps bad input from breaking a page or being saved', async () => {
    const { context, page } = await ownerPage();
    const posts: string[] = [];
    page.on('request', (r) => r.method() !== 'GET' && posts.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await page.goto(`/project/${projectId}/feature_flags/new`);

    // A payload that is not JSON: an error at the field, nothing sent.
    await page.getByRole('textbox', { name: 'Key', exact: true }).fill('bad-payload');
    const payload = page.getByLabel('Payload when true (JSON, optional)');
    await payload.fill('{"discount": 10,');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => descriptionOf(payload)).toMatch(/Not valid JSON/);
    expect(await payload.getAttribute('aria-invalid')).toBe('true');
    expect(posts).toEqual([]);
    await payload.fill('');

    // A key with spaces: the error is next to Key, nothing sent.
    const key = page.getByRole('textbox', { name: 'Key', exact: true });
    await key.fill('new checkout');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => descriptionOf(key)).toMatch(/no spaces/);
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    expect(posts).toEqual([]);

    // A key the API refuses (taken): the API's own error, next to Key.
    await key.fill('new-checkout');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => descriptionOf(key)).toMatch(/There is already a feature flag with this key\./);
    expect(posts).toEqual([`POST /api/projects/${projectId}/feature_flags/`]);
    expect(where(page)).toBe(`/project/${projectId}/feature_flags/new`);

    // 10,000 characters in a description (one unbroken word): saved, and no page scrolls sideways.
    const long = 'x'.repeat(10_000);
    await key.fill('long-description');
    await page.getByLabel('Description').fill(long);
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, new RegExp(`^/project/${projectId}/feature_flags/\\d+$`));
    await page.getByRole('heading', { name: 'long-description', level: 1 }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('link', { name: 'long-description' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);

    // 10,000 characters typed into an early access feature's name: the form keeps what the API takes.
    await page.goto(`/project/${projectId}/early_access/new`);
    await page.getByLabel('Name').fill(`Long${'y'.repeat(9_996)}`);
    await page.getByLabel('Description').fill(long);
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, new RegExp(`^/project/${projectId}/early_access/[0-9a-f-]{36}$`));
    const stored = await app.svc.api(`/api/projects/${projectId}/early_access_feature/${new URL(page.url()).pathname.split('/').pop()}/`);
    expect(stored.name).toMatch(/^Longy+$/);
    expect(stored.description).toBe(long);
    await page.getByRole('heading', { name: stored.name, level: 1 }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await page.goto(`/project/${projectId}/early_access`);
    await page.getByRole('link', { name: /^Longyyy/ }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await context.close();
  });

  it('sends a user whose session ended elsewhere to the login page, and back to where they were', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/persons`);
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();

    // Logging out in another tab ends the session for this one too.
    const other = await context.newPage();
    await other.goto(`/project/${projectId}/settings`);
    await other.getByRole('button', { name: 'Log out' }).click();
    await other.getByRole('button', { name: 'Log in' }).waitFor();

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Events' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByText('Your session ended. Log in to go back to where you were.').waitFor();
    await logIn(page, owner.email, owner.password);
    await waitForPath(page, `/project/${projectId}/events`);
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();

    // A session cookie that is gone (cleared): the same, from a reload of a deep link with a query.
    await page.goto(`/project/${projectId}/feature_flags/${flagId}?tab=test`);
    await page.getByRole('tab', { name: 'Test a user', selected: true }).waitFor();
    await context.clearCookies();
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await logIn(page, owner.email, owner.password);
    await waitForPath(page, `/project/${projectId}/feature_flags/${flagId}?tab=test`);
    await page.getByRole('tab', { name: 'Test a user', selected: true }).waitFor();
    await context.close();
  });

  it('filters events by a property value: the list, its count and the chart follow, and the address keeps the filter', async () => {
    const purchases = [
      { distinct_id: 'buyer-1', properties: { plan: 'pro', amount: 30 } },
      { distinct_id: 'buyer-2', properties: { plan: 'free', amount: 5 } },
      { distinct_id: 'buyer-3', properties: { plan: 'pro', amount: 12 } },
    ].map((e, i) => ({ event: 'purchase', ...e, timestamp: new Date(Date.now() - i * 60_000).toISOString() }));
    const res = await fetch(`${app.base}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: app.svc.token, batch: purchases }),
    });
    expect(res.status).toBe(200);
    await app.svc.waitForEvents('purchase', 'buyer-3');

    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/events?event=purchase`);
    const table = page.getByRole('table', { name: 'Events' });
    const people = () => table.locator('tbody tr td:nth-child(2)').allTextContents();
    const shows = (names: string[]) => expect.poll(people, { timeout: 10_000 }).toEqual(names);
    await table.waitFor();
    await shows(['buyer-1', 'buyer-2', 'buyer-3']);
    await page.getByRole('button', { name: 'Add property filter' }).click();
    const property = page.getByRole('combobox', { name: 'Property 1' });
    await property.fill('pl');
    await page.getByRole('option', { name: 'plan', exact: true }).click();
    await page.getByRole('textbox', { name: 'Value of property 1' }).fill('pro');
    await shows(['buyer-1', 'buyer-3']);
    await page.getByText('2 events match').waitFor();
    // The chart counts the same events: its legend gives the series' total (`purchase` then `2`).
    await page
      .getByRole('img', { name: 'purchase per day, last 30 days, with these properties' })
      .locator('.u-legend')
      .filter({ hasText: /purchase2$/ })
      .waitFor();
    await expect
      .poll(() => JSON.parse(new URL(page.url()).searchParams.get('properties') ?? 'null'), { timeout: 10_000 })
      .toEqual([{ key: 'plan', value: 'pro' }]);

    // The address alone gives the same page (a link, a reload); a number is matched as text.
    const amount = encodeURIComponent(JSON.stringify([{ key: 'amount', value: '12' }]));
    await page.goto(`/project/${projectId}/events?event=purchase&properties=${amount}`);
    await shows(['buyer-3']);
    expect(await page.getByRole('textbox', { name: 'Value of property 1' }).inputValue()).toBe('12');
    await page.getByRole('button', { name: 'Remove property filter 1' }).click();
    await shows(['buyer-1', 'buyer-2', 'buyer-3']);
    await expect.poll(() => new URL(page.url()).searchParams.get('properties'), { timeout: 10_000 }).toBeNull();
    await context.close();
  });

  it("says the app was updated, with a Reload button, when a page's code cannot be loaded", async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('heading', { name: 'Feature flags', level: 1 }).waitFor();
    await page.route(/\/assets\/events-page-[^/]+\.js$/, (route) => route.abort());
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Events' }).click();
    const message = page.getByRole('alert').filter({ hasText: 'The app was updated' });
    await message.waitFor();
    await page.unroute(/\/assets\/events-page-[^/]+\.js$/);
    await message.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await context.close();
  });

  it('switches between light and dark, and keeps the choice', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.locator('html[data-mantine-color-scheme="light"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Use the dark theme' }).click();
    await page.locator('html[data-mantine-color-scheme="dark"]').waitFor({ state: 'attached' });
    await page.reload();
    await page.getByRole('button', { name: 'Use the light theme' }).waitFor();
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await context.close();
  });

  it('logs out: the session ends and the app is behind the login page again', async () => {
    const { context, page } = await ownerPage();
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(where(page)).toBe('/login');
    expect((await context.request.get(`${app.base}/api/users/@me`)).status()).toBe(401);
    expect((await context.cookies()).filter((c) => c.name === 'service_session')).toEqual([]);
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });
});
