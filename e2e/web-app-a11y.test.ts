import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutBundle, checkoutException, chunkLoadException, sendBatch } from './support/errors';
import { apiLogIn, expectAccessible, startWebApp, type WebApp } from './support/web-app';

// axe-core on every page of the web app (and their tabs, sections and error states), in light and dark: no serious
// or critical violation. A failure lists every violation found (rule, targets), not only the first.
let app: WebApp;
let page: Page;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
let projectId: number;
let flagId: number;
let featureId: string;
const failures: string[] = [];

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  const p = `/api/projects/${projectId}`;
  const flag = await app.svc.api(`${p}/feature_flags/`, {
    method: 'POST',
    body: {
      key: 'new-checkout',
      name: 'The redesigned checkout, released to 30% of users in Europe first',
      filters: {
        groups: [{ properties: [{ key: 'country', type: 'person', operator: 'exact', value: ['DE', 'FR'] }], rollout_percentage: 30 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'test', rollout_percentage: 50 },
          ],
        },
        payloads: { test: '{"steps":2}' },
      },
    },
  });
  flagId = flag.id;
  await app.svc.flag('dark-mode-editor', { groups: [{ properties: [], rollout_percentage: 0 }] }, false);
  const feature = await app.svc.api(`${p}/early_access_feature/`, {
    method: 'POST',
    body: { name: 'AI summaries', description: 'Summaries of long threads.', stage: 'beta', documentation_url: 'https://docs.example.com/ai' },
  });
  featureId = feature.id;
  await app.svc.api(`${p}/early_access_feature/`, { method: 'POST', body: { name: 'Calendar sync', stage: 'concept' } });
  await app.svc.api(`${p}/early_access_feature/${featureId}/enrollments/`, { method: 'POST', body: { distinct_id: 'grace', enrolled: true } });
  await app.svc.api(`${p}/early_access_feature/${featureId}/enrollments/`, { method: 'POST', body: { distinct_id: 'linus', enrolled: false } });
  const res = await fetch(`${app.base}/batch/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      api_key: app.svc.token,
      batch: ['$pageview', 'signed_up', '$feature_flag_called'].map((event, i) => ({
        event,
        distinct_id: 'grace',
        properties: {
          $current_url: 'https://shop.example.com/',
          $feature_flag: 'new-checkout',
          $feature_flag_response: 'test',
          $set: { email: 'grace@example.com', country: 'DE' },
        },
        timestamp: new Date(Date.now() - i * 60_000).toISOString(),
      })),
    }),
  });
  expect(res.status).toBe(200);
  await app.svc.waitForEvents('signed_up', 'grace');
});

/**
 * Scans the page as it is now in light and then dark (the app follows `prefers-color-scheme`), collecting what axe finds.
 * Transitions are turned off first, so no colour is caught half-way.
 */
async function scan(where: string, target: Page = page) {
  await target.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  for (const scheme of ['light', 'dark'] as const) {
    await target.emulateMedia({ colorScheme: scheme });
    await target.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
    try {
      await expectAccessible(target, `${where} (${scheme})`);
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
}

/** Opens a path of the app and waits for what shows that the page has loaded. */
async function open(path: string, ready: (page: Page) => Locator) {
  await page.goto(path);
  await ready(page).first().waitFor();
}

/** Fails with the violations the test's scans found. */
function expectNoViolations(from: number) {
  const found = failures.slice(from);
  if (found.length) throw new Error(found.join('\n'));
}

afterAll(() => app?.stop());

describe('accessibility (axe-core, light and dark) of every page of the web app', () => {
  it('the first-account, login and invite pages', async () => {
    const from = failures.length;
    const context = await app.newContext();
    const anonymous = await context.newPage();
    await anonymous.goto('/signup');
    await anonymous.getByRole('button', { name: 'Create account' }).waitFor();
    await scan('the first-account page', anonymous);
    await anonymous.getByRole('button', { name: 'Create account' }).click();
    await anonymous.getByText('Enter your email address.').waitFor();
    await scan('the first-account page with an error', anonymous);

    const signup = await context.request.post(`${app.base}/api/signup`, { data: owner, headers: { origin: app.base } });
    expect(signup.status()).toBe(201);
    const csrf = (await signup.json()).csrf_token as string;
    const invite = await context.request.post(`${app.base}/api/organization/invites/`, {
      data: { role: 'member', email: 'mel@example.com' },
      headers: { origin: app.base, 'x-csrf-token': csrf },
    });
    expect(invite.status()).toBe(201);
    const { url } = await invite.json();
    await context.clearCookies();

    await anonymous.goto('/login');
    await anonymous.getByRole('button', { name: 'Log in' }).waitFor();
    await scan('the login page', anonymous);
    await anonymous.getByLabel('Email').fill(owner.email);
    await anonymous.getByLabel('Password', { exact: true }).fill('wrong password');
    await anonymous.getByRole('button', { name: 'Log in' }).click();
    await anonymous.getByText('Invalid email or password.').waitFor();
    await scan('the login page with an error', anonymous);
    await anonymous.goto(`/login?next=${encodeURIComponent(`/project/${projectId}/events`)}`);
    await anonymous.getByText('Your session ended.', { exact: false }).waitFor();
    await scan('the login page after a lost session', anonymous);

    await anonymous.goto(url);
    await anonymous.getByRole('button', { name: 'Join' }).waitFor();
    await scan('the invite page', anonymous);
    await anonymous.goto('/invite/not-a-token');
    await anonymous.getByText('This invite link does not work').waitFor();
    await scan('the invite page of a bad link', anonymous);
    await context.close();

    const owned = await app.newContext();
    await apiLogIn(owned, app.base, owner.email, owner.password);
    page = await owned.newPage();
    expectNoViolations(from);
  });

  it('the feature flag pages', async () => {
    const from = failures.length;
    await open(`/project/${projectId}/feature_flags`, (p) => p.getByRole('table', { name: 'Feature flags' }));
    await scan('the feature flags list');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Feature flags' }).hover();
    await scan("the navigation, the current page's link under the pointer");
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Events' }).hover();
    await scan("the navigation, another page's link under the pointer");
    await open(`/project/${projectId}/feature_flags?search=nothing-matches`, (p) => p.getByText('No flag matches these filters'));
    await scan('the feature flags list without matches');

    await open(`/project/${projectId}/feature_flags/new`, (p) => p.getByRole('heading', { name: 'New feature flag' }));
    await scan('the new feature flag page');
    await page.getByRole('textbox', { name: 'Key', exact: true }).fill('bad key');
    await page.getByLabel('Payload when true (JSON, optional)').fill('{oops');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('no spaces', { exact: false }).waitFor();
    await scan('the new feature flag page with errors');

    const flag = `/project/${projectId}/feature_flags/${flagId}`;
    await open(flag, (p) => p.getByRole('textbox', { name: 'Key', exact: true }));
    await scan('a feature flag (Settings tab)');
    await page.getByRole('tab', { name: 'Test a user' }).click();
    await page.getByLabel('Distinct ID').fill('grace');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByText('Reason', { exact: true }).waitFor();
    await scan('a feature flag (Test a user tab, with a result)');
    await page.getByRole('tab', { name: 'Usage' }).click();
    await page.getByText(/Evaluations in the last 30 days/).waitFor();
    await page.waitForLoadState('networkidle');
    await scan('a feature flag (Usage tab)');
    await page.getByRole('tab', { name: 'History' }).click();
    await page.waitForLoadState('networkidle');
    await page.getByRole('tabpanel').first().waitFor();
    await scan('a feature flag (History tab)');
    expectNoViolations(from);
  });

  it('the early access pages', async () => {
    const from = failures.length;
    await open(`/project/${projectId}/early_access`, (p) => p.getByRole('link', { name: 'AI summaries' }));
    await scan('the early access list');
    await open(`/project/${projectId}/early_access/new`, (p) => p.getByRole('heading', { name: 'New early access feature' }));
    await scan('the new early access feature page');
    await page.getByLabel('Documentation URL').fill('not a link');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Give the feature a name', { exact: false }).waitFor();
    await scan('the new early access feature page with an error');

    await open(`/project/${projectId}/early_access/${featureId}`, (p) => p.getByRole('table', { name: 'People who opted in' }));
    await page.waitForLoadState('networkidle');
    await scan('an early access feature (People tab)');
    await page.getByRole('radio', { name: 'Opted out' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('table', { name: 'People who opted out' }).waitFor();
    await scan('an early access feature (People tab, opted out)');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Save' }).waitFor();
    await scan('an early access feature (Settings tab)');
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.getByRole('button', { name: 'Copy the React snippet' }).waitFor();
    await scan('an early access feature (Code tab)');
    expectNoViolations(from);
  });

  it('the experiments pages', async () => {
    const from = failures.length;
    await open(`/project/${projectId}/experiments`, (p) => p.getByText('No experiments yet'));
    await scan('the experiments list, empty');
    await open(`/project/${projectId}/experiments/new`, (p) => p.getByRole('button', { name: 'Create experiment' }));
    await scan('the new experiment page');
    await page.getByRole('button', { name: 'Add secondary metric' }).click();
    await page.getByRole('button', { name: 'Create experiment' }).click();
    await page.getByText('Give the experiment a name', { exact: false }).waitFor();
    await scan('the new experiment page with an error');
    const p = `/api/projects/${projectId}/experiments/`;
    const body = { feature_flag_key: 'one-page-checkout', metrics: [{ kind: 'conversion', event: 'signed_up' }], status: 'running' };
    const experiment = await app.svc.api(p, { method: 'POST', body: { name: 'One-page checkout', ...body } });
    await app.svc.api(p, { method: 'POST', body: { name: 'Pricing copy', feature_flag_key: 'pricing-copy' } });
    const exposures = ['control', 'test'].map((variant, i) => ({
      event: '$feature_flag_called',
      distinct_id: `exp-${i}`,
      properties: { $feature_flag: 'one-page-checkout', $feature_flag_response: variant },
    }));
    expect((await fetch(`${app.base}/batch/`, { method: 'POST', body: JSON.stringify({ api_key: app.svc.token, batch: exposures }) })).status).toBe(200);
    await open(`/project/${projectId}/experiments`, (p) => p.getByRole('table', { name: 'Experiments' }));
    await scan('the experiments list');
    await open(`/project/${projectId}/experiments/${experiment.id}`, (p) => p.getByRole('table', { name: /^Results of/ }));
    await page.waitForLoadState('networkidle');
    await scan('an experiment with results');
    await page.getByRole('button', { name: 'Ship variant' }).click();
    await page.getByRole('dialog', { name: 'Ship a variant' }).waitFor();
    await scan('an experiment, shipping a variant');
    await page.keyboard.press('Escape');
    expectNoViolations(from);
  });

  it('the events, people and person pages', async () => {
    const from = failures.length;
    await open(`/project/${projectId}/events`, (p) => p.getByRole('table', { name: 'Events' }));
    await scan('the events page');
    await page.getByRole('button', { name: 'signed_up' }).click();
    await page.getByRole('table', { name: 'Properties of signed_up' }).waitFor();
    await scan('the events page with an event open');
    const where = encodeURIComponent(JSON.stringify([{ key: '$current_url', value: 'https://shop.example.com/' }]));
    await open(`/project/${projectId}/events?event=signed_up&properties=${where}`, (p) => p.getByRole('img', { name: /^signed_up per day/ }));
    await page.getByRole('table', { name: 'Events' }).waitFor();
    await scan('the events page filtered by an event and a property, with its chart');

    await open(`/project/${projectId}/persons`, (p) => p.getByRole('table', { name: 'People' }));
    await scan('the people page');
    await open(`/project/${projectId}/persons/grace`, (p) => p.getByRole('table', { name: 'Person properties' }));
    await scan('a person (Properties tab)');
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('table', { name: 'Events of this person' }).waitFor();
    await scan('a person (Events tab)');
    await page.getByRole('tab', { name: 'Feature flags' }).click();
    await page.getByRole('table', { name: 'Feature flag values of this person' }).waitFor();
    await scan('a person (Feature flags tab)');
    await page.getByRole('tab', { name: 'Early access' }).click();
    await page.getByRole('link', { name: 'AI summaries' }).waitFor();
    await scan('a person (Early access tab)');
    await open(`/project/${projectId}/nowhere`, (p) => p.getByText('Page not found'));
    await scan('the page-not-found page');
    expectNoViolations(from);
  });

  it('every section of the settings', async () => {
    const from = failures.length;
    await open(`/project/${projectId}/settings/project`, (p) => p.getByRole('button', { name: 'Copy the project token' }));
    await scan('the settings (Project)');
    await open(`/project/${projectId}/settings/projects`, (p) => p.getByRole('table', { name: 'Projects' }));
    await scan('the settings (Projects)');
    await open(`/project/${projectId}/settings/members`, (p) => p.getByRole('table', { name: 'Pending invites' }));
    await scan('the settings (Members)');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    await page.getByRole('dialog', { name: 'Invite link' }).waitFor();
    await scan('the settings (Members, a new invite link)');
    await page.getByRole('button', { name: 'Done' }).click();
    await open(`/project/${projectId}/settings/account`, (p) => p.getByRole('form', { name: 'Change password' }));
    await scan('the settings (Account)');
    await open(`/project/${projectId}/settings/keys`, (p) => p.getByRole('button', { name: 'Create key' }));
    await scan("the settings (Personal API keys, the first start's)");
    await page.getByLabel('Label').fill('Deploy script');
    await page.getByRole('radiogroup', { name: 'Feature flags' }).getByText('Read', { exact: true }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'Your new key' }).waitFor();
    await scan('the settings (Personal API keys, a new key)');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('table', { name: 'Personal API keys' }).waitFor();
    await scan('the settings (Personal API keys)');
    await open(`/project/${projectId}/settings/webhooks`, (p) => p.getByRole('button', { name: 'Add webhook' }));
    await page.waitForLoadState('networkidle');
    await scan('the settings (Webhooks, none)');
    await page.getByLabel('URL').fill('https://example.com/hooks/service');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('dialog', { name: 'Signing secret' }).waitFor();
    await scan('the settings (Webhooks, a new secret)');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByText('Nothing was sent yet.').waitFor();
    await scan('the settings (Webhooks)');
    expectNoViolations(from);
    // Eleven pages and dialogs scanned in turn: longer than one page's test.
  }, 90_000);

  it('the error tracking list (empty, with issues, without matches)', async () => {
    const from = failures.length;
    await open(`/project/${projectId}/error_tracking`, (p) => p.getByRole('heading', { name: 'No errors yet' }));
    await scan('the errors list, empty (how to start)');
    await app.svc.api(`/api/projects/${projectId}/error_tracking/sourcemaps/`, {
      method: 'POST',
      body: { release: checkoutBundle.release, url: checkoutBundle.url, map: checkoutBundle.map },
    });
    await sendBatch(app.base, app.svc.token, [checkoutException('grace', 20), checkoutException('linus', 5), chunkLoadException('grace', 2)]);
    await open(`/project/${projectId}/error_tracking`, (p) => p.getByRole('table', { name: 'Error issues' }));
    await scan('the errors list');
    await open(`/project/${projectId}/error_tracking?search=nothing-matches`, (p) => p.getByText('No issue matches these filters'));
    await scan('the errors list without matches');
    expectNoViolations(from);
  });

  it('an error issue', async () => {
    const from = failures.length;
    await page.goto(`/project/${projectId}/error_tracking`);
    await page.getByRole('table', { name: 'Error issues' }).getByRole('link', { name: 'TypeError' }).click();
    await page.getByRole('img', { name: /^Occurrences per day/ }).waitFor();
    await page.getByRole('table', { name: 'Occurrences of this issue' }).waitFor();
    await page.getByRole('button', { name: 'Show 1 library frame' }).click();
    await page.waitForLoadState('networkidle');
    await scan('an error issue (source-mapped stack, library frames open)');
    await page.getByRole('button', { name: 'Merge…' }).click();
    await page.getByRole('dialog', { name: 'Merge issues into this one' }).getByRole('checkbox').first().waitFor();
    await scan('an error issue, merging');
    await page.keyboard.press('Escape');
    expectNoViolations(from);
  });
});
