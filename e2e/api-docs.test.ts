import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile } from './support/browser';
import { startService, type Service } from './support/service';

// The API reference (swagger-ui at /api/docs) under the page's own Content-Security-Policy.
let svc: Service;
const chromium = chromiumPerFile();

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
});

describe('/api/docs in Chromium', () => {
  it('renders every operation with no CSP violation or console error, and "Try it out" calls the service with the key', async () => {
    const page = await chromium.newPage();
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP ${e.effectiveDirective} ${e.blockedURI}`)));
    await page.goto(`${svc.url}/api/docs`);
    const spec = await (await fetch(`${svc.url}/api/schema/`)).json();
    const count = Object.values(spec.paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0);
    await expect.poll(() => page.locator('.opblock').count()).toBe(count);
    await expect.poll(() => page.locator('.opblock-summary-description', { hasText: 'List feature flags' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    await page.locator('.modal-ux input').fill(svc.key);
    await page.locator('.modal-ux .auth-btn-wrapper .authorize').click();
    await page.locator('.modal-ux .btn-done').click();
    const list = page.locator('#operations-projects-projects_list');
    await list.locator('.opblock-summary').click();
    await list.getByRole('button', { name: 'Try it out' }).click();
    await list.getByRole('button', { name: 'Execute' }).click();
    await expect.poll(() => list.locator('.live-responses-table .response .response-col_status').first().textContent()).toBe('200');
    expect(problems).toEqual([]);
  });
});
