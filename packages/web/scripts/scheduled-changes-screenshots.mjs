// Screenshots of a flag's Schedule tab, light and dark, into docs/screenshots/web-flag-schedule-<state>-<scheme>.png:
// nothing scheduled, a refusal next to its field, the ramp form, the list (pending, applied, cancelled), loading and
// a failed load (the list's request held, or answered 500, in the browser), the edit dialog of a pending change (and
// its refusal of a time in the past), and the History tab with the scheduling recorded.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/scheduled-changes-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ...
// On a service without accounts it creates the first one with those credentials. It makes two flags of its own
// (schedule-empty-<n>, schedule-demo-<n>); the demo flag gets a change applied two seconds after it is scheduled.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://localhost:8000' },
    email: { type: 'string', default: 'ada@example.com' },
    password: { type: 'string', default: 'correct horse' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
const { base, email, password } = args;
const out = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
fs.mkdirSync(out, { recursive: true });

async function session(context) {
  const setup = await (await context.request.get(`${base}/api/setup`)).json();
  const res = setup.needs_first_account
    ? await context.request.post(`${base}/api/signup`, { data: { email, password, name: 'Ada Lovelace' }, headers: { origin: base } })
    : await context.request.post(`${base}/api/login`, { data: { email, password }, headers: { origin: base } });
  if (!res.ok()) throw new Error(`could not log in: ${res.status()} ${await res.text()}`);
  return (await res.json()).csrf_token;
}

const DAY = 86_400_000;
/** A whole hour `days` from now. */
const inDays = (days) => {
  const at = new Date(Date.now() + days * DAY);
  at.setMinutes(0, 0, 0);
  return at.toISOString();
};

async function seed(context, csrf) {
  const headers = { origin: base, 'x-csrf-token': csrf };
  const call = async (method, url, data) => {
    const res = await context.request.fetch(`${base}${url}`, { method, data, headers });
    if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
    return res.status() === 204 ? undefined : res.json();
  };
  const project = (await call('GET', '/api/projects/')).results[0];
  const flags = `/api/projects/${project.id}/feature_flags/`;
  const n = Date.now().toString(36);
  const groups = [{ properties: [], rollout_percentage: 5 }];
  const empty = await call('POST', flags, { key: `schedule-empty-${n}`, name: 'New checkout', filters: { groups } });
  const demo = await call('POST', flags, { key: `schedule-demo-${n}`, name: 'New checkout, ramped up', filters: { groups } });
  const changes = `${flags}${demo.id}/scheduled_changes/`;
  await call('POST', changes, { scheduled_at: new Date(Date.now() + 2_000).toISOString(), payload: { rollout_percentage: 5, active: true } });
  await call('POST', changes, { ramp: [1, 3, 7].map((days, i) => ({ scheduled_at: inDays(days), rollout_percentage: [10, 50, 100][i] })) });
  const [cancelled] = (await call('POST', changes, { scheduled_at: inDays(2), payload: { active: false } })).results;
  await call('DELETE', `${changes}${cancelled.id}/`);
  const ramp = (await call('GET', changes)).results.filter((change) => change.ramp_id);
  await call('PATCH', `${changes}${ramp[1].id}/`, { payload: { rollout_percentage: 40 } });
  // The first change is applied by the service's job once due.
  for (let i = 0; i < 100; i++) {
    const { results } = await call('GET', changes);
    if (results[0].status !== 'pending') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { project, empty, demo };
}

const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const csrfContext = await browser.newContext();
const seeded = await seed(csrfContext, await session(csrfContext));
await csrfContext.close();
for (const scheme of ['light', 'dark']) {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 860 } });
  await session(context);
  const { project, empty, demo } = seeded;
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${scheme}] page error: ${error.message}`));
  const tab = (flag) => `/project/${project.id}/feature_flags/${flag.id}?tab=schedule`;
  const list = (p) => p.getByRole('region', { name: 'Scheduled changes' });
  const shots = [
    ['empty', tab(empty), (p) => p.getByText('Nothing scheduled')],
    [
      'error-in-the-past',
      tab(empty),
      async (p) => {
        await p.getByText('Nothing scheduled').waitFor();
        const yesterday = new Date(Date.now() - DAY);
        await p.getByLabel('When').fill(new Date(yesterday.getTime() - yesterday.getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
        await p.getByRole('button', { name: 'Schedule change' }).click();
        return p.getByText('The scheduled time is in the past');
      },
    ],
    [
      'ramp-form',
      tab(empty),
      async (p) => {
        await p.getByText('Nothing scheduled').waitFor();
        await p.locator('label', { hasText: /^Ramp$/ }).click();
        return p.getByLabel('Step 3: when');
      },
    ],
    ['list', tab(demo), (p) => list(p).getByRole('table')],
    [
      'edit',
      tab(demo),
      async (p) => {
        await list(p)
          .getByRole('button', { name: /^Edit the change on / })
          .first()
          .click();
        return p.getByRole('dialog', { name: 'Edit the scheduled change' }).getByLabel('Rollout (%)');
      },
    ],
    [
      'edit-error',
      tab(demo),
      async (p) => {
        await list(p)
          .getByRole('button', { name: /^Edit the change on / })
          .first()
          .click();
        const dialog = p.getByRole('dialog', { name: 'Edit the scheduled change' });
        const yesterday = new Date(Date.now() - DAY);
        await dialog.getByLabel('When').fill(new Date(yesterday.getTime() - yesterday.getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
        await dialog.getByRole('button', { name: 'Save' }).click();
        return dialog.getByText('The scheduled time is in the past');
      },
    ],
    ['history', `/project/${project.id}/feature_flags/${demo.id}?tab=history`, (p) => p.getByText(/Scheduled change #/)],
    [
      'loading',
      tab(demo),
      async (p) => {
        await p.route('**/scheduled_changes/?*', () => {}); // never answered
        return list(p).locator('.mantine-Skeleton-root');
      },
    ],
    [
      'load-error',
      tab(demo),
      async (p) => {
        await p.unroute('**/scheduled_changes/?*');
        await p.route('**/scheduled_changes/?*', (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ type: 'server_error', code: 'error', detail: 'Something went wrong.', attr: null }),
          }),
        );
        return p.getByText('Could not load the scheduled changes');
      },
    ],
  ];
  for (const [name, url, ready] of shots) {
    if (name === 'loading' || name === 'load-error') {
      // Set up the interception before the page loads.
      const locator = await ready(page);
      await page.goto(`${base}${url}`);
      await locator.first().waitFor();
    } else {
      await page.goto(`${base}${url}`);
      await (await ready(page)).first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, `web-flag-schedule-${name}-${scheme}.png`), fullPage: true });
    console.log(`web-flag-schedule-${name}-${scheme}.png`);
  }
  await context.close();
}
await browser.close();
