import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogIn, expectAccessible, signUp, startWebApp, type WebApp } from './support/web-app';

// The Schedule tab of a flag's page in Chromium against a started service: schedule one change and a ramp,
// see a refusal next to its field, edit and cancel a change, see them in the History tab; each state scanned with axe,
// in light and dark.
let app: WebApp;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
let projectId: number;
let flagId: number;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  await signUp(app.base, owner);
  const flag = await app.svc.api(`/api/projects/${projectId}/feature_flags/`, {
    method: 'POST',
    body: { key: 'new-checkout', filters: { groups: [{ properties: [], rollout_percentage: 5 }] } },
  });
  flagId = flag.id;
  context = await app.newContext();
  await apiLogIn(context, app.base, owner.email, owner.password);
  page = await context.newPage();
});

afterAll(() => app?.stop());

/** `datetime-local` text for a time `days` from now. */
const local = (days: number) => {
  const at = new Date(Date.now() + days * 86_400_000);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const scheduled = () =>
  app.svc.api(`/api/projects/${projectId}/feature_flags/${flagId}/scheduled_changes/`) as Promise<{
    results: { status: string; payload: unknown; ramp_id: string | null }[];
  }>;
const table = () => page.getByRole('region', { name: 'Scheduled changes' }).getByRole('table');
const rows = () =>
  table()
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')));

describe("a flag's scheduled changes in the web app", () => {
  it('shows that nothing is scheduled, and refuses a time in the past next to the field', async () => {
    await page.goto(`/project/${projectId}/feature_flags/${flagId}`);
    await page.getByRole('tab', { name: 'Schedule' }).click();
    await page.getByText('Nothing scheduled').waitFor();
    await expectAccessible(page, 'the Schedule tab, nothing scheduled');

    await page.getByLabel('When').fill(local(-1));
    await page.getByRole('button', { name: 'Schedule change' }).click();
    await page.getByText('The scheduled time is in the past; give a time in the future.').waitFor();
    expect((await scheduled()).results).toEqual([]);
    await expectAccessible(page, 'the Schedule tab with an error');
  });

  it('schedules a change: turn off at 50 % rollout', async () => {
    await page.getByLabel('When').fill(local(2));
    await page.getByLabel('Status').selectOption('off');
    await page.getByLabel('Rollout (%)').fill('50');
    await page.getByRole('button', { name: 'Schedule change' }).click();
    await page.getByText('Scheduled the change.').waitFor();
    await table().waitFor();
    expect(await rows()).toEqual([[expect.any(String), 'Turn off, rollout 50 %', 'pending', 'Ada Lovelace', 'EditCancel']]);
    expect((await scheduled()).results).toMatchObject([{ status: 'pending', payload: { active: false, rollout_percentage: 50 }, ramp_id: null }]);
  });

  it('schedules a ramp of three steps, listed in time order with the earlier change', async () => {
    await page.locator('label', { hasText: /^Ramp$/ }).click();
    await page.getByLabel('Step 1: when').fill(local(1));
    await page.getByLabel('Step 2: when').fill(local(3));
    await page.getByLabel('Step 3: when').fill(local(7));
    await expectAccessible(page, 'the ramp form');
    await page.getByRole('button', { name: 'Schedule ramp' }).click();
    await page.getByText('Scheduled a ramp of 3 steps.').waitFor();
    await expect
      .poll(async () => (await rows()).map((row) => row[1]))
      .toEqual(['Rollout 10 %ramp', 'Turn off, rollout 50 %', 'Rollout 50 %ramp', 'Rollout 100 %ramp']);
    await expectAccessible(page, 'the Schedule tab with changes');
  });

  it('cancels a pending change after asking', async () => {
    const second = table().locator('tbody tr').nth(1);
    await second.getByRole('button', { name: /^Cancel the change on / }).click();
    await page.getByRole('dialog', { name: 'Cancel this scheduled change?' }).getByRole('button', { name: 'Cancel change' }).click();
    await page.getByText('Cancelled the scheduled change.').waitFor();
    await expect.poll(async () => (await rows())[1]?.[2]).toBe('cancelled');
    const statuses = (await scheduled()).results.map((change) => change.status);
    expect(statuses).toEqual(['pending', 'cancelled', 'pending', 'pending']);
  });

  it('edits a pending change in a dialog: a time in the past is refused there, a new rollout is saved', async () => {
    const first = table().locator('tbody tr').first();
    await first.getByRole('button', { name: /^Edit the change on / }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the scheduled change' });
    await expect.poll(() => dialog.getByLabel('Rollout (%)').inputValue()).toBe('10');
    // Scanned once it has faded in: mid-transition its text is pale.
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await expectAccessible(page, 'the edit dialog');
    await dialog.getByLabel('When').fill(local(-1));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('The scheduled time is in the past; give a time in the future.').waitFor();
    await expectAccessible(page, 'the edit dialog with an error');

    await dialog.getByLabel('When').fill(local(1.5));
    await dialog.getByLabel('Rollout (%)').fill('25');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved the scheduled change.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await rows())[0]?.[1]).toBe('Rollout 25 %ramp');
    expect((await scheduled()).results[0]).toMatchObject({ status: 'pending', payload: { rollout_percentage: 25 } });
  });

  it("shows scheduling, editing and cancelling in the flag's History tab", async () => {
    await page.getByRole('tab', { name: 'History' }).click();
    // The edit: the step's rollout before and after, named by the change.
    const [edited] = (await scheduled()).results as unknown as { id: number }[];
    const row = page.getByRole('row', { name: new RegExp(`^Scheduled change #${edited!.id} › rollout %`) }).first();
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([`Scheduled change #${edited!.id} › rollout %`, '10', '25']);
    await page.getByText('Ada Lovelace updated the flag').first().waitFor();
    await expectAccessible(page, 'the History tab with scheduled changes');
    await page.getByRole('tab', { name: 'Schedule' }).click();
  });

  it('passes axe in dark mode too', async () => {
    const dark = await app.newContext({ colorScheme: 'dark' });
    await apiLogIn(dark, app.base, owner.email, owner.password);
    const darkPage = await dark.newPage();
    await darkPage.goto(`/project/${projectId}/feature_flags/${flagId}?tab=schedule`);
    await darkPage.getByRole('region', { name: 'Scheduled changes' }).getByRole('table').waitFor();
    await expectAccessible(darkPage, 'the Schedule tab, dark');
    await darkPage
      .getByRole('button', { name: /^Edit the change on / })
      .first()
      .click();
    await darkPage.getByRole('dialog', { name: 'Edit the scheduled change' }).getByLabel('Rollout (%)').waitFor();
    await darkPage.waitForFunction(() => document.getAnimations().length === 0);
    await expectAccessible(darkPage, 'the edit dialog, dark');
  });
});
