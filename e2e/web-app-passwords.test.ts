import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogIn, expectAccessibleLightAndDark, logIn, startWebApp, type WebApp } from './support/web-app';

// A forgotten password has a way back, in Chromium against a started service: the owner changes theirs in
// Settings → Account (their other sessions end) and logs in with the new one; the owner makes a reset link for a
// member, who sets a new password with it and logs in; the used link is refused. The tests run in order.
let app: WebApp;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery', next: 'a much newer passphrase' };
const member = { name: 'Grace Hopper', email: 'grace@example.com', password: 'grace first password', next: 'grace second password' };
let projectId: number;
/** The link the owner made for the member, once made. */
let resetUrl: string;

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: app.base, ...headers }, body: JSON.stringify(body) });
  expect((await post('/api/signup', owner)).status).toBe(201);
  const invite = await app.svc.api('/api/organization/invites/', { method: 'POST', body: { role: 'member', email: member.email } });
  const token = (invite.url as string).split('/invite/')[1];
  expect((await post(`/api/invites/${token}/accept`, member)).status).toBe(201);
});

afterAll(() => app?.stop());

/** A new visitor's page: own cookies, no session. */
async function visitor(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.newContext();
  return { context, page: await context.newPage() };
}

/** Whether the context's session is still one (GET /api/users/@me answers 200). */
const signedIn = async (context: BrowserContext) => (await context.request.get(`${app.base}/api/users/@me`)).status() === 200;

describe("changing one's password in Settings → Account", () => {
  it('refuses a mismatched confirmation, a wrong current password and a common new one, next to each field', async () => {
    const { context, page } = await visitor();
    await apiLogIn(context, app.base, owner.email, owner.password);
    await page.goto(`/project/${projectId}/settings/account`);
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(owner.password);
    await form.getByLabel('New password', { exact: true }).fill(owner.next);
    await form.getByLabel('Confirm new password').fill('something else entirely');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('This is not the same as the new password.').waitFor();

    await form.getByLabel('Current password').fill('not my password at all');
    await form.getByLabel('Confirm new password').fill(owner.next);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('The current password is wrong.').waitFor();

    await form.getByLabel('Current password').fill(owner.password);
    await form.getByLabel('New password', { exact: true }).fill('iloveyou');
    await form.getByLabel('Confirm new password').fill('iloveyou');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText(/one of the most common ones/).waitFor();
    await expectAccessibleLightAndDark(page, 'Settings → Account with an error');
    await context.close();
    // Nothing changed.
    const check = await app.newContext();
    await apiLogIn(check, app.base, owner.email, owner.password);
    await check.close();
  });

  it('changes it: this session goes on, the other one ends, and only the new password logs in', async () => {
    const { context, page } = await visitor();
    await apiLogIn(context, app.base, owner.email, owner.password);
    const elsewhere = await app.newContext();
    await apiLogIn(elsewhere, app.base, owner.email, owner.password);

    await page.goto(`/project/${projectId}/settings`);
    await page.getByRole('tab', { name: 'Account' }).click();
    const form = page.getByRole('form', { name: 'Change password' });
    await page.getByText(owner.email).first().waitFor();
    await expectAccessibleLightAndDark(page, 'Settings → Account');
    await form.getByLabel('Current password').fill(owner.password);
    await form.getByLabel('New password', { exact: true }).fill(owner.next);
    await form.getByLabel('Confirm new password').fill(owner.next);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. Your other sessions have ended.').waitFor();
    expect(await form.getByLabel('Current password').inputValue()).toBe('');
    expect(await signedIn(context)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
    await elsewhere.close();
    await context.close();

    const fresh = await visitor();
    await logIn(fresh.page, owner.email, owner.password);
    await fresh.page.getByText('Invalid email or password.').waitFor();
    await logIn(fresh.page, owner.email, owner.next);
    await fresh.page.waitForURL((url) => url.pathname === `/project/${projectId}/feature_flags`);
    await fresh.context.close();
  });
});

describe('a password reset link', () => {
  it('is made by the owner for a member in Settings → Members and shown once, ready to copy', async () => {
    const { context, page } = await visitor();
    await apiLogIn(context, app.base, owner.email, owner.next);
    await page.goto(`/project/${projectId}/settings/members`);
    // No link for oneself: one's own password is changed under Account.
    await page.getByRole('table', { name: 'Members' }).getByText(member.email).waitFor();
    expect(await page.getByRole('button', { name: `Reset password of ${owner.email}` }).count()).toBe(0);
    await page.getByRole('button', { name: `Reset password of ${member.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Password reset link' });
    resetUrl = (await dialog.locator('code').textContent())!;
    expect(resetUrl).toMatch(new RegExp(`^${app.base}/reset-password/[\\w-]{43}$`));
    await dialog.getByText(`Send this link to ${member.email} yourself`).waitFor();
    await dialog.getByRole('button', { name: 'Copy the password reset link' }).waitFor();
    await expectAccessibleLightAndDark(page, 'Settings → Members, a new password reset link');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });

  it("sets the member's password: the member opens it, sets a new one, is logged in, and later logs in with it", async () => {
    const before = await app.newContext();
    await apiLogIn(before, app.base, member.email, member.password);
    const { context, page } = await visitor();
    await page.goto(resetUrl);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByText(`For ${member.email}.`).waitFor();
    await expectAccessibleLightAndDark(page, 'the reset page');
    await page.getByLabel('New password', { exact: true }).fill(member.next);
    await page.getByLabel('Confirm new password').fill(member.next);
    await page.getByRole('button', { name: 'Set password and log in' }).click();
    await page.waitForURL((url) => url.pathname === `/project/${projectId}/feature_flags`);
    await page.getByRole('heading', { name: 'Feature flags', level: 1 }).waitFor();
    expect(await signedIn(before)).toBe(false);
    await before.close();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await logIn(page, member.email, member.password);
    await page.getByText('Invalid email or password.').waitFor();
    await logIn(page, member.email, member.next);
    await page.waitForURL((url) => url.pathname === `/project/${projectId}/feature_flags`);
    await context.close();
  });

  it('once used, is refused with a way to the login page', async () => {
    const { context, page } = await visitor();
    await page.goto(resetUrl);
    await page.getByRole('heading', { name: 'This password reset link does not work' }).waitFor();
    await page
      .getByRole('alert')
      .getByText(/Ask an admin for a new one/)
      .waitFor();
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await expectAccessibleLightAndDark(page, 'the reset page of a used link');
    await page.getByRole('link', { name: 'Go to the login page' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await context.close();
  });
});
