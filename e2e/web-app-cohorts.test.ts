import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogIn, expectAccessibleLightAndDark, signUp, startWebApp, type WebApp } from './support/web-app';

// The cohorts pages of the web app in Chromium against a started service: a static cohort from pasted ids,
// a person-property cohort and a behavioral one made in the app, a flag released to a cohort through the flag form's
// cohort picker and answered by /flags, and deletes (refused with the service's 409 while a flag uses the cohort).
// Every page is scanned with axe, light and dark. The tests run in order and build on each other.
let app: WebApp;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
let projectId: number;
let context: BrowserContext;
let page: Page;
let vips: number;

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  await signUp(app.base, owner);
  // People with a plan, as an app identifies them.
  const batch = ['pro-1', 'pro-2', 'free-1'].map((id) => ({
    event: '$identify',
    distinct_id: id,
    properties: { $set: { plan: id.split('-')[0], email: `${id}@example.com` } },
    timestamp: new Date().toISOString(),
  }));
  const res = await fetch(`${app.base}/batch/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: app.svc.token, batch }),
  });
  expect(res.status).toBe(200);
  context = await app.newContext();
  await apiLogIn(context, app.base, owner.email, owner.password);
  page = await context.newPage();
});

afterAll(() => app?.stop());

/** Picks an option of a Mantine Select by the select's name and the option's text. */
async function choose(name: string, option: string, nth = 0) {
  await page.getByRole('combobox', { name, exact: true }).nth(nth).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const cohortIdOfPage = () => Number(new URL(page.url()).pathname.split('/').pop());

describe('cohorts in the web app', () => {
  it('creates a static cohort from pasted ids, from the empty list; its members are listed', async () => {
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Cohorts' }).click();
    await page.getByText('No cohorts yet').waitFor();
    await expectAccessibleLightAndDark(page, 'the cohorts list, empty');
    await page.getByRole('main').getByRole('link', { name: 'New cohort' }).click();
    await page.getByRole('heading', { name: 'New cohort', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('VIPs');
    await page.getByText('A list of distinct IDs').click();
    await page.getByRole('textbox', { name: 'Distinct IDs' }).fill('pro-1\nvip-x, vip-y\nvip-x');
    await page.getByText('3 distinct IDs').waitFor();
    await expectAccessibleLightAndDark(page, 'a new static cohort');
    await page.getByRole('button', { name: 'Create cohort' }).click();

    await page.waitForURL((url) => /\/cohorts\/\d+$/.test(url.pathname));
    vips = cohortIdOfPage();
    await page.getByRole('heading', { name: 'VIPs', level: 1 }).waitFor();
    const members = page.getByRole('table', { name: 'Members of the cohort' });
    await members.waitFor();
    expect((await members.locator('tbody tr').allTextContents()).sort()).toEqual(['pro-1pro-1@example.com', 'vip-xNot seen yet—', 'vip-yNot seen yet—']);
    // A member the service has seen links to their person.
    await members.getByRole('link', { name: 'pro-1' }).waitFor();
    await expectAccessibleLightAndDark(page, 'a static cohort, its members');
    expect(await app.svc.api(`/api/projects/${projectId}/cohorts/${vips}/`)).toMatchObject({ name: 'VIPs', is_static: true, count: 3 });

    // Ids are removed (and added) on its People tab.
    await page.getByRole('textbox', { name: 'Distinct IDs' }).fill('vip-y');
    await page.getByRole('button', { name: 'Remove from cohort' }).click();
    await page.getByText('2 people', { exact: true }).first().waitFor();
    expect((await app.svc.api(`/api/projects/${projectId}/cohorts/${vips}/`)).count).toBe(2);
  });

  it('creates a static cohort from an uploaded CSV file with a distinct_id column', async () => {
    await page.goto(`/project/${projectId}/cohorts/new`);
    await page.getByLabel('Name').fill('Imported');
    await page.getByText('A list of distinct IDs').click();
    await page.getByText('Upload a CSV file').click();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('plan,distinct_id\npro,csv-1\nfree,"csv,2"\n'),
    });
    await page.getByRole('button', { name: 'Create cohort' }).click();
    await page.waitForURL((url) => /\/cohorts\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Imported', level: 1 }).waitFor();
    const members = page.getByRole('table', { name: 'Members of the cohort' });
    await members.waitFor();
    expect((await members.locator('tbody td.mono').allTextContents()).map((t) => t.replace('Not seen yet', '')).sort()).toEqual(['csv,2', 'csv-1']);
    // Not needed by the tests after this one.
    await app.svc.api(`/api/projects/${projectId}/cohorts/${cohortIdOfPage()}/`, { method: 'PATCH', body: { deleted: true } });
  });

  it('creates a person-property cohort: everyone on the pro plan, counted and listed', async () => {
    await page.goto(`/project/${projectId}/cohorts/new`);
    await page.getByLabel('Name').fill('Pro plan');
    await page.getByRole('combobox', { name: 'Property' }).fill('plan');
    await choose('Operator', 'contains');
    await page.getByRole('textbox', { name: 'Value' }).fill('pro');
    await expectAccessibleLightAndDark(page, 'a new dynamic cohort');
    await page.getByRole('button', { name: 'Create cohort' }).click();
    await page.waitForURL((url) => /\/cohorts\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Pro plan', level: 1 }).waitFor();
    const members = page.getByRole('table', { name: 'Members of the cohort' });
    await members.waitFor();
    expect((await members.getByRole('link').allTextContents()).sort()).toEqual(['pro-1', 'pro-2']);
    await page.getByRole('tab', { name: 'Settings' }).click();
    expect(await page.getByRole('combobox', { name: 'Property' }).inputValue()).toBe('plan');
    await expectAccessibleLightAndDark(page, "a dynamic cohort's settings");

    await page.goto(`/project/${projectId}/cohorts`);
    const table = page.getByRole('table', { name: 'Cohorts' });
    await table.waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim())));
    expect(rows.map((r) => r.slice(0, 3)).sort()).toEqual([
      ['Pro plan', 'Person properties', '2'],
      ['VIPs', 'Static list', '2'],
    ]);
    await expectAccessibleLightAndDark(page, 'the cohorts list');
  });

  it('releases a flag to a cohort picked in its conditions; /flags answers for members only', async () => {
    await page.goto(`/project/${projectId}/feature_flags/new`);
    await page.getByRole('textbox', { name: 'Key', exact: true }).fill('vip-banner');
    await page.getByRole('switch', { name: /^Active/ }).check({ force: true });
    await page.getByRole('button', { name: 'Add filter' }).click();
    await choose('Of', 'Cohort');
    await choose('Cohort', 'VIPs');
    await expectAccessibleLightAndDark(page, 'the flag form with a cohort filter');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => /\/feature_flags\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'vip-banner', level: 1 }).waitFor();
    // The flag's page names the cohort.
    expect(await page.getByRole('combobox', { name: 'Cohort' }).inputValue()).toBe('VIPs');
    expect(await page.getByRole('combobox', { name: 'Operator' }).inputValue()).toBe('is in');

    const flag = (await app.svc.api(`/api/projects/${projectId}/feature_flags/?search=vip-banner`)).results[0];
    expect(flag.filters.groups[0].properties).toEqual([{ key: 'id', type: 'cohort', value: vips, operator: 'in' }]);
    const answer = async (id: string) => (await app.svc.flags({ distinct_id: id })).flags['vip-banner'].enabled as boolean;
    expect(await answer('vip-x')).toBe(true);
    expect(await answer('pro-1')).toBe(true);
    expect(await answer('vip-y')).toBe(false);
    expect(await answer('pro-2')).toBe(false);
  });

  it('refuses to delete a cohort a flag uses, saying which; deletes one nothing uses', async () => {
    await page.goto(`/project/${projectId}/cohorts/${vips}?tab=settings`);
    await page.getByRole('button', { name: 'Delete cohort' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete VIPs?' });
    await dialog.waitFor();
    await expectAccessibleLightAndDark(page, 'the confirmation to delete a cohort');
    await dialog.getByRole('button', { name: 'Delete cohort' }).click();
    await page.getByText('Could not delete the cohort').waitFor();
    await page.getByText(/used by flag "vip-banner"/).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/project/${projectId}/cohorts/${vips}`);

    // A behavioral cohort, made and deleted.
    await page.goto(`/project/${projectId}/cohorts/new`);
    await page.getByLabel('Name').fill('Buyers');
    await choose('Criterion', 'Did an event');
    await page.getByRole('combobox', { name: 'Event' }).fill('purchase');
    await page.getByRole('textbox', { name: 'At least (times)' }).fill('2');
    await page.getByRole('button', { name: 'Create cohort' }).click();
    await page.waitForURL((url) => /\/cohorts\/\d+$/.test(url.pathname));
    await page.getByText('Behavioral', { exact: true }).waitFor();
    const buyers = cohortIdOfPage();
    expect((await app.svc.api(`/api/projects/${projectId}/cohorts/${buyers}/`)).filters.properties.values[0].values[0]).toMatchObject({
      type: 'behavioral',
      key: 'purchase',
      operator: 'gte',
      operator_value: 2,
      time_value: 30,
      time_interval: 'day',
    });
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Delete cohort' }).click();
    await page.getByRole('dialog', { name: 'Delete Buyers?' }).getByRole('button', { name: 'Delete cohort' }).click();
    await page.waitForURL((url) => url.pathname === `/project/${projectId}/cohorts`);
    await page.getByRole('table', { name: 'Cohorts' }).waitFor();
    expect(await page.getByRole('table', { name: 'Cohorts' }).getByRole('link', { name: 'Buyers' }).count()).toBe(0);
  });
});
