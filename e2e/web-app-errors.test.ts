import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutBundle, checkoutException, chunkLoadException, sendBatch } from './support/errors';
import { apiLogIn, signUp, startWebApp, type WebApp } from './support/web-app';

// The error tracking pages of the web app (issue 15) in Chromium against a started service: the first visit's
// instructions, then exceptions sent through /batch/ in posthog-js's wire shape (a minified bundle whose source map
// was uploaded, and an error without a stack) grouped into issues; the list's sort and search; an issue with its
// source-mapped stack, chart, steps and people; resolving it, its regression, and a merge. The tests build on each other.
let app: WebApp;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
let projectId: number;
let context: BrowserContext;
let page: Page;
let issues: string;

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  issues = `/api/projects/${projectId}/error_tracking/issues/`;
  await signUp(app.base, owner);
  context = await app.newContext();
  await apiLogIn(context, app.base, owner.email, owner.password);
  page = await context.newPage();
});

afterAll(() => app?.stop());

/** The cells of a table's body rows, as text. */
const rowsOf = (table: ReturnType<Page['getByRole']>) =>
  table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')));

/** The issue of a name, through the API. */
async function issueNamed(name: string) {
  const page = await app.svc.api(`${issues}?limit=100`);
  return (page.results as { id: string; name: string; status: string; occurrences: number; regressed_at: string | null }[]).find((i) => i.name === name);
}

describe('error tracking in the web app', () => {
  it('tells a new project how to send its first errors', async () => {
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Errors' }).click();
    await page.getByRole('heading', { name: 'Errors', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No errors yet' }).waitFor();
    const code = (await page.locator('pre, code').allTextContents()).join('\n');
    expect(code).toContain('capture_exceptions: true');
    expect(code).toContain('service.captureException(error');
    expect(code).toContain(`SERVICE_PROJECT_ID=${projectId}`);
    expect(code).toContain('npx service sourcemaps upload --release 1.4.2 --dir dist');
    await page.getByRole('button', { name: 'Copy the upload command' }).waitFor();
  });

  it('groups exceptions from /batch/ into issues; the list sorts and searches them', async () => {
    await app.svc.api(`/api/projects/${projectId}/error_tracking/sourcemaps/`, {
      method: 'POST',
      body: { release: checkoutBundle.release, url: checkoutBundle.url, map: checkoutBundle.map },
    });
    await sendBatch(app.base, app.svc.token, [
      checkoutException('ada', 50),
      checkoutException('ada', 30),
      checkoutException('bob', 10),
      chunkLoadException('carol', 5),
    ]);

    await page.goto(`/project/${projectId}/error_tracking`);
    const table = page.getByRole('table', { name: 'Error issues' });
    await table.waitFor();
    // Last seen first (the default): the chunk error came last.
    let rows = await rowsOf(table);
    expect(rows).toHaveLength(2);
    expect(rows[0]![0]).toContain('ChunkLoadError');
    expect(rows[0]![0]).toContain('Loading chunk 7 failed');
    expect(rows[0]!.slice(1, 3)).toEqual(['1', '1']);
    expect(rows[1]![0]).toContain('TypeError');
    expect(rows[1]![0]).toContain('Active');
    expect(rows[1]!.slice(1, 3)).toEqual(['3', '2']);

    await page.getByLabel('Sort by').selectOption('occurrences');
    await expect.poll(() => new URL(page.url()).searchParams.get('order_by')).toBe('occurrences');
    await expect.poll(async () => (await rowsOf(table))[0]?.[0]).toContain('TypeError');

    await page.getByLabel('Search').fill('chunk');
    await expect.poll(async () => (await rowsOf(table)).length).toBe(1);
    rows = await rowsOf(table);
    expect(rows[0]![0]).toContain('ChunkLoadError');
    await page.getByLabel('Search').fill('no such error anywhere');
    await page.getByText('No issue matches these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect.poll(async () => (await rowsOf(table)).length).toBe(2);
  });

  it('shows an issue: its source-mapped stack with context, chart, steps, people and occurrences', async () => {
    // The whole row is the link: a click on its last cell (which the link's box covers) opens the issue.
    const lastSeen = await page
      .getByRole('table', { name: 'Error issues' })
      .locator('tbody tr')
      .filter({ hasText: 'TypeError' })
      .locator('td')
      .last()
      .boundingBox();
    await page.mouse.click(lastSeen!.x + lastSeen!.width / 2, lastSeen!.y + lastSeen!.height / 2);
    await page.getByRole('heading', { name: 'TypeError', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'Occurrences' }).getByText('3', { exact: true }).waitFor();
    await page.getByRole('group', { name: 'People affected' }).getByText('2', { exact: true }).waitFor();

    // The throw site in the original file, its source with the error line marked, and where it was in the bundle.
    const stack = page.getByRole('list', { name: 'Stack of TypeError, most recent call first' });
    await stack.waitFor();
    await page.getByText("Cannot read properties of undefined (reading 'percent')").first().waitFor();
    await page.getByText('source-mapped', { exact: true }).waitFor();
    const throwSite = stack.locator('li.frame').first();
    expect(await throwSite.textContent()).toMatch(/src\/cart\/total\.ts:11:\d+/);
    expect(await throwSite.getAttribute('class')).toContain('frame-in-app');
    expect(await page.locator('mark.source-error').first().textContent()).toContain('coupon.percent');
    expect(await stack.locator('pre.source').first().textContent()).toContain('function applyCoupon');
    await page.getByText(`minified: ${checkoutBundle.url}:1:230`).waitFor();
    // The library's frame is folded away until asked for.
    expect(await stack.getByText(/mitt-lite\/index\.js/).count()).toBe(0);
    await stack.getByRole('button', { name: 'Show 1 library frame' }).click();
    await stack.getByText(/node_modules\/mitt-lite\/index\.js:11/).waitFor();

    await page.getByRole('img', { name: /^Occurrences per day over the last 14 days: 3 in all/ }).waitFor();
    await page.getByText('Checkout clicked').waitFor();
    await page.getByText('Clicked "Apply coupon"').waitFor();
    const contextRows = await rowsOf(page.getByRole('table', { name: 'Context of the occurrence' }));
    expect(contextRows.flat()).toEqual(expect.arrayContaining(['https://shop.example.com/checkout', '1.4.2', 'web 0.1.0', 'Chrome 142']));

    const people = await rowsOf(page.getByRole('table', { name: 'People affected' }));
    expect(people.map((r) => [r[0], r[2]])).toEqual([
      ['ada', '2'],
      ['bob', '1'],
    ]);
    const occurrences = page.getByRole('table', { name: 'Occurrences of this issue' });
    expect((await rowsOf(occurrences)).map((r) => r[1])).toEqual(['bob', 'ada', 'ada']);
    // An older occurrence's stack can be opened in place of the latest.
    await occurrences
      .getByRole('button', { name: /^Show the stack of the occurrence of ada/ })
      .last()
      .click();
    await page.getByRole('heading', { name: 'Occurrence', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Back to the latest' }).click();
    await page.getByRole('heading', { name: 'Latest occurrence' }).waitFor();
  });

  it('resolves the issue; a new occurrence reopens it as a regression', async () => {
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.getByRole('button', { name: 'Reopen' }).waitFor();
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    expect((await issueNamed('TypeError'))?.status).toBe('resolved');

    // Gone from the active list, there under Resolved.
    await page.getByRole('link', { name: 'Errors' }).first().click();
    const table = page.getByRole('table', { name: 'Error issues' });
    await expect.poll(async () => (await rowsOf(table)).map((r) => r[0]).join()).not.toContain('TypeError');
    await page.locator('label', { hasText: 'Resolved' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('resolved');
    await expect.poll(async () => (await rowsOf(table)).map((r) => r[0])).toEqual([expect.stringContaining('TypeError')]);

    await sendBatch(app.base, app.svc.token, [checkoutException('dave', 1)]);
    const regressed = await issueNamed('TypeError');
    expect(regressed).toMatchObject({ status: 'active', occurrences: 4 });
    expect(regressed?.regressed_at).toBeTruthy();
    await page.locator('label', { hasText: 'Active' }).click();
    await table.getByText('Regressed').waitFor();
    await table.getByRole('link', { name: 'TypeError' }).click();
    await page.getByText('Regression:', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Resolve' }).waitFor();
  });

  it('merges another issue into this one', async () => {
    const chunk = await issueNamed('ChunkLoadError');
    expect(chunk).toBeTruthy();
    await page.getByRole('button', { name: 'Merge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge issues into this one' });
    await dialog.getByRole('checkbox', { name: /ChunkLoadError/ }).check();
    await dialog.getByRole('button', { name: 'Merge 1 issue' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('group', { name: 'Occurrences' }).getByText('5', { exact: true }).waitFor();
    expect(await issueNamed('ChunkLoadError')).toBeUndefined();
    expect((await issueNamed('TypeError'))?.occurrences).toBe(5);
  });
});
