import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogIn, descriptionOf, signUp, startWebApp, type WebApp } from './support/web-app';

// The experiments pages of the web app (issue 14) in Chromium against a started service: create an experiment in the
// app, assign people through /flags, send exposures and conversions through /batch/ as an app would, read the exact
// counts in the results, switch the method, and ship a variant. The tests run in order and build on each other.
let app: WebApp;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
let projectId: number;
let experimentId: string;
let context: BrowserContext;
let page: Page;
/** distinct id → variant, as /flags assigned them. */
const assigned = new Map<string, string>();

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  await signUp(app.base, owner);
  context = await app.newContext();
  await apiLogIn(context, app.base, owner.email, owner.password);
  page = await context.newPage();
});

afterAll(() => app?.stop());

/** The cells of a table's body rows, as text. */
const rowsOf = (table: ReturnType<Page['getByRole']>) =>
  table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')));

describe('experiments in the web app', () => {
  it('creates an experiment from the empty list: API errors appear next to their field, then it runs', async () => {
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Experiments' }).click();
    await page.getByText('No experiments yet').waitFor();
    await page.getByRole('main').getByRole('link', { name: 'New experiment' }).first().click();
    await page.getByRole('heading', { name: 'New experiment', level: 1 }).waitFor();

    await page.getByLabel('Name').fill('One-page checkout');
    // Unsaved: leaving asks first, and Stay keeps the form as it was.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Feature flags' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe(`/project/${projectId}/experiments/new`);
    const key = page.getByRole('textbox', { name: 'Feature flag key' });
    expect(await key.inputValue()).toBe('one-page-checkout');
    // No control variant: the API refuses it, and says so next to the variants.
    await page.getByLabel('Variant 1 key').fill('baseline');
    await page.getByRole('group', { name: 'Primary metric' }).getByLabel('Event').fill('purchase');
    await page.getByRole('button', { name: 'Create experiment' }).click();
    await page.getByRole('alert').filter({ hasText: 'needs a variant with the key "control"' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/project/${projectId}/experiments/new`);

    // A blank secondary metric's event is named by the form itself, next to that metric.
    await page.getByLabel('Variant 1 key').fill('control');
    await page.getByRole('button', { name: 'Add secondary metric' }).click();
    await page.getByRole('button', { name: 'Create experiment' }).click();
    const secondaryEvent = page.getByRole('group', { name: 'Secondary metric 1' }).getByLabel('Event');
    expect(await descriptionOf(secondaryEvent)).toContain('Enter the event this metric counts');
    await page.getByRole('group', { name: 'Secondary metric 1' }).getByLabel('Kind').selectOption('mean');
    await secondaryEvent.fill('purchase');
    await page.getByRole('group', { name: 'Secondary metric 1' }).getByLabel('Property to sum').fill('amount');
    await page.getByLabel('Launch now').check();
    await page.getByRole('button', { name: 'Create experiment' }).click();

    await page.waitForURL((url) => /\/experiments\/\d+$/.test(url.pathname));
    experimentId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { name: 'One-page checkout', level: 1 }).waitFor();
    await page.getByText('Running', { exact: true }).waitFor();
    await page.getByText('No exposures yet').waitFor();

    const stored = await app.svc.api(`/api/projects/${projectId}/experiments/${experimentId}/`);
    expect(stored).toMatchObject({
      status: 'running',
      feature_flag_key: 'one-page-checkout',
      variants: [
        { key: 'control', rollout_percentage: 50 },
        { key: 'test', rollout_percentage: 50 },
      ],
      metrics: [
        { kind: 'conversion', event: 'purchase', window_days: 14 },
        { kind: 'mean', event: 'purchase', property: 'amount' },
      ],
    });

    // The list links to it, and its address can be shared.
    await page.goto(`/project/${projectId}/experiments`);
    await page.getByRole('table', { name: 'Experiments' }).getByRole('link', { name: 'One-page checkout' }).click();
    await page.getByRole('heading', { name: 'One-page checkout', level: 1 }).waitFor();
  });

  it('shows the exact exposures and conversions of people assigned by /flags and captured through /batch/', async () => {
    const batch: object[] = [];
    const at = (offset: number) => new Date(Date.now() + offset).toISOString();
    for (let i = 0; i < 40; i++) {
      const id = `shopper-${i}`;
      const answer = await app.svc.flags({ distinct_id: id });
      const variant = answer.flags['one-page-checkout'].variant as string;
      assigned.set(id, variant);
      batch.push({
        event: '$feature_flag_called',
        distinct_id: id,
        properties: { $feature_flag: 'one-page-checkout', $feature_flag_response: variant },
        timestamp: at(0),
      });
      // Every third person buys, after the exposure.
      if (i % 3 === 0) batch.push({ event: 'purchase', distinct_id: id, properties: { amount: 10 + i }, timestamp: at(1000) });
    }
    // Someone who saw both variants is left out (and counted).
    for (const variant of ['control', 'test'])
      batch.push({
        event: '$feature_flag_called',
        distinct_id: 'both',
        properties: { $feature_flag: 'one-page-checkout', $feature_flag_response: variant },
        timestamp: at(0),
      });
    const res = await fetch(`${app.base}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: app.svc.token, batch }),
    });
    expect(res.status).toBe(200);

    const expected = (variant: string) => {
      const ids = [...assigned].filter(([, v]) => v === variant).map(([id]) => id);
      return { exposed: ids.length, converted: ids.filter((id) => Number(id.split('-')[1]) % 3 === 0).length };
    };
    const control = expected('control');
    const test = expected('test');
    expect(control.exposed).toBeGreaterThan(0);
    expect(test.exposed).toBeGreaterThan(0);

    await page.goto(`/project/${projectId}/experiments/${experimentId}`);
    const table = page.getByRole('table', { name: 'Results of Conversion to purchase within 14 days' });
    await table.waitFor();
    const rows = await rowsOf(table);
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ['control', String(control.exposed), String(control.converted)],
      ['test', String(test.exposed), String(test.converted)],
    ]);
    await page.getByText('People exposed').locator('..').getByText('40', { exact: true }).waitFor();
    await page.getByText('Excluded (saw several variants)').locator('..').getByText('1', { exact: true }).waitFor();
    await page.getByRole('img', { name: /^Lift against control of Conversion to purchase within 14 days/ }).waitFor();
    await page.getByRole('table', { name: 'Results of Mean amount of purchase per person' }).waitFor();
    await page.getByRole('columnheader', { name: 'Chance to be best' }).first().waitFor();

    // The method is in the address: a shared link shows the same numbers.
    await page.locator('label', { hasText: 'Frequentist' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('method')).toBe('frequentist');
    await page.getByRole('columnheader', { name: 'p-value' }).first().waitFor();
    await page.locator('label', { hasText: 'Sequential' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('interval')).toBe('sequential');
    await page.getByText('Lift against control, 95 % always-valid interval').first().waitFor();
    const shared = page.url();
    const other = await context.newPage();
    await other.goto(shared);
    await other.getByRole('columnheader', { name: 'p-value' }).first().waitFor();
    expect(await other.getByRole('switch', { name: 'Sequential' }).isChecked()).toBe(true);
    await other.close();
  });

  it("'Ship variant' rolls the chosen variant out to everyone and completes the experiment", async () => {
    await page.goto(`/project/${projectId}/experiments/${experimentId}`);
    await page.getByRole('button', { name: 'Ship variant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ship a variant' });
    await dialog.getByRole('radio', { name: 'test' }).check();
    await dialog.getByRole('button', { name: 'Ship test to everyone' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Complete', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Stop experiment' }).count()).toBe(0);
    const stored = await app.svc.api(`/api/projects/${projectId}/experiments/${experimentId}/`);
    expect(stored.status).toBe('complete');
    // Everyone, including people who had control, now gets the shipped variant.
    const controlPerson = [...assigned].find(([, v]) => v === 'control')![0];
    for (const id of [controlPerson, 'somebody-new']) expect((await app.svc.flags({ distinct_id: id })).flags['one-page-checkout'].variant).toBe('test');
  });

  it('a draft on a live flag leaves it as it is; the flag shows it; launching shows what changes and asks first', async () => {
    const variants = [
      { key: 'control', rollout_percentage: 50 },
      { key: 'compact', rollout_percentage: 50 },
    ];
    const flag = await app.svc.api(`/api/projects/${projectId}/feature_flags/`, {
      method: 'POST',
      body: { key: 'compact-nav', active: true, filters: { groups: [{ properties: [], rollout_percentage: 100 }], multivariate: { variants } } },
    });
    const ids = Array.from({ length: 12 }, (_, i) => `reader-${i}`);
    const served = async () => Promise.all(ids.map(async (id) => (await app.svc.flags({ distinct_id: id })).flags['compact-nav'].variant));
    const before = await served();
    expect(before).not.toContain(null);

    // From the flag's page: an experiment starts from its variants and split.
    await page.goto(`/project/${projectId}/feature_flags/${flag.id}`);
    await page.getByRole('link', { name: 'Start an experiment on this flag' }).click();
    await page.getByRole('heading', { name: 'New experiment', level: 1 }).waitFor();
    // once the flag has loaded (under load it may come after the heading)
    await expect.poll(() => page.getByLabel('Variant 2 key').inputValue()).toBe('compact');
    await page.getByLabel('Name').fill('Compact navigation');
    await page.getByRole('group', { name: 'Primary metric' }).getByLabel('Event').fill('purchase');
    // Event names the project has are offered.
    await page.getByRole('option', { name: 'purchase' }).waitFor();
    await page.getByLabel('Variant 1 share (%)').fill('60');
    await page.getByLabel('Variant 2 share (%)').fill('40');
    await page.getByRole('button', { name: 'Create experiment' }).click();
    await page.waitForURL((url) => /\/experiments\/\d+$/.test(url.pathname));
    await page.getByText('Draft', { exact: true }).waitFor();

    // The draft changed nothing: the flag is on, with its split, for the same people.
    expect(await served()).toEqual(before);
    // Another experiment cannot take the flag: the picker says which experiment has it.
    await page.goto(`/project/${projectId}/experiments/new`);
    await page.getByText('An existing flag').click();
    await page.getByRole('combobox', { name: 'Existing flag' }).click();
    const taken = page.getByRole('option', { name: 'compact-nav (in experiment "Compact navigation")' });
    expect(await taken.getAttribute('aria-disabled')).toBe('true');
    await page.goBack();
    await page.getByText('Draft', { exact: true }).waitFor();
    expect((await app.svc.api(`/api/projects/${projectId}/feature_flags/${flag.id}/`)).filters.multivariate.variants).toEqual(variants);
    await page.getByRole('link', { name: 'compact-nav' }).click();
    await page.getByRole('region', { name: 'Used by' }).getByRole('link', { name: 'Compact navigation' }).waitFor();
    await page.getByRole('region', { name: 'Used by' }).getByRole('link', { name: 'Compact navigation' }).click();

    // Launching says exactly what changes, and nothing changes until it is confirmed.
    await page.getByRole('button', { name: 'Launch experiment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Launch Compact navigation' });
    const changes = dialog.getByRole('table', { name: 'Changes to the flag compact-nav' });
    expect(await rowsOf(changes)).toEqual([['Variants', 'control 50 %, compact 50 %', 'control 60 %, compact 40 %']]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await app.svc.api(`/api/projects/${projectId}/feature_flags/${flag.id}/`)).filters.multivariate.variants).toEqual(variants);
    await page.getByRole('button', { name: 'Launch experiment' }).first().click();
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    await page.getByText('Running', { exact: true }).waitFor();
    expect((await app.svc.api(`/api/projects/${projectId}/feature_flags/${flag.id}/`)).filters.multivariate.variants).toEqual([
      { key: 'control', rollout_percentage: 60 },
      { key: 'compact', rollout_percentage: 40 },
    ]);
  });

  it('charts exposures of a single day on an axis of days around it, not of years', async () => {
    await page.goto(`/project/${projectId}/experiments/${experimentId}`);
    const chart = page.getByRole('img', { name: /^People exposed per day/ });
    await chart.waitFor();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await expect.poll(() => chart.locator('.uplot').getAttribute('data-days')).toBe(`${day(-1)}/${day(1)}`);
  });
});
