// Screenshots of the cohorts pages and the flag form's cohort picker, light and dark, into
// docs/screenshots/web-cohorts-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/cohorts-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. On a project without cohorts it
// seeds 60 people (plans, purchases, a checkout flag's variants through /batch/ as the SDKs send them), a static
// cohort, a person-property one, a behavioral one, a flag-variant one, and a flag released to a cohort. The empty
// list is that of a project of its own; the loading and error states are the list's, with the API held or failing,
// and a cohort's page of an id that does not exist.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values: args, positionals: only } = parseArgs({
  allowPositionals: true,
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

const PLANS = ['free', 'free', 'pro', 'team'];

async function seed(context, csrf) {
  const headers = { origin: base, 'x-csrf-token': csrf };
  const call = async (method, url, data) => {
    const res = await context.request.fetch(`${base}${url}`, { method, data, headers });
    if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
    return res.status() === 204 ? null : res.json();
  };
  const projects = (await call('GET', '/api/projects/')).results;
  const project = projects[0];
  const empty = projects.find((p) => p.name === 'Mobile app') ?? (await call('POST', '/api/projects/', { name: 'Mobile app' }));
  const p = `/api/projects/${project.id}`;
  const find = async () => {
    const cohorts = (await call('GET', `${p}/cohorts/?limit=100`)).results;
    const flags = (await call('GET', `${p}/feature_flags/?limit=100`)).results;
    return {
      project,
      empty,
      static: cohorts.find((c) => c.name === 'Beta testers')?.id,
      pro: cohorts.find((c) => c.name === 'Paying customers')?.id,
      buyers: cohorts.find((c) => c.name === 'Repeat buyers')?.id,
      variant: cohorts.find((c) => c.name === 'Saw the one-page checkout')?.id,
      flag: flags.find((f) => f.key === 'beta-banner')?.id,
      count: cohorts.length,
    };
  };
  const existing = await find();
  if (existing.count > 0) return existing;

  const day = 86_400_000;
  const now = Date.now();
  const batch = [];
  for (let i = 0; i < 60; i++) {
    const id = `user-${100 + i}`;
    const at = (days) => new Date(now - days * day).toISOString();
    batch.push({ event: '$identify', distinct_id: id, timestamp: at(20), properties: { $set: { plan: PLANS[i % 4], email: `${id}@example.com` } } });
    for (let k = 0; k < i % 4; k++) batch.push({ event: 'purchase', distinct_id: id, timestamp: at(k * 3 + 1), properties: { amount: 20 + k } });
    batch.push({
      event: '$feature_flag_called',
      distinct_id: id,
      timestamp: at(2),
      properties: { $feature_flag: 'one-page-checkout', $feature_flag_response: i % 2 ? 'test' : 'control' },
    });
  }
  const res = await context.request.post(`${base}/batch/`, { data: { api_key: project.api_token, batch } });
  if (!res.ok()) throw new Error(`/batch/: ${res.status()} ${await res.text()}`);

  await call('POST', `${p}/feature_flags/`, {
    key: 'one-page-checkout',
    active: true,
    filters: {
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
    },
  });
  const ids = Array.from({ length: 12 }, (_, i) => `user-${100 + i * 3}`).concat(['lin@partner.example', 'qa-bot-7']);
  const beta = await call('POST', `${p}/cohorts/`, {
    name: 'Beta testers',
    description: 'People who signed up for the beta programme.',
    is_static: true,
    distinct_ids: ids,
  });
  const and = (...values) => ({ properties: { type: 'OR', values: [{ type: 'AND', values }] } });
  await call('POST', `${p}/cohorts/`, {
    name: 'Paying customers',
    filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro', 'team'] }] }] } },
  });
  const behavioral = { type: 'behavioral', value: 'performed_event', event_type: 'events', operator: 'gte', time_interval: 'day' };
  await call('POST', `${p}/cohorts/`, {
    name: 'Repeat buyers',
    description: 'Bought at least twice in the last 30 days.',
    filters: and({ ...behavioral, key: 'purchase', operator_value: 2, time_value: 30 }, { key: 'id', type: 'cohort', value: beta.id, operator: 'not_in' }),
  });
  await call('POST', `${p}/cohorts/`, {
    name: 'Saw the one-page checkout',
    filters: and({
      ...behavioral,
      key: '$feature_flag_called',
      operator_value: 1,
      time_value: 14,
      event_filters: [
        { key: '$feature_flag', type: 'event', operator: 'exact', value: 'one-page-checkout' },
        { key: '$feature_flag_response', type: 'event', operator: 'exact', value: 'test' },
      ],
    }),
  });
  await call('POST', `${p}/feature_flags/`, {
    key: 'beta-banner',
    name: 'The banner inviting beta testers to try new things',
    active: true,
    filters: {
      groups: [
        { properties: [{ key: 'id', type: 'cohort', value: beta.id, operator: 'in' }], rollout_percentage: 100 },
        { properties: [{ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }], rollout_percentage: 10 },
      ],
    },
  });
  return find();
}

const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
for (const scheme of ['light', 'dark']) {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
  const csrf = await session(context);
  const ids = await seed(context, csrf);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${scheme}] page error: ${error.message}`));
  const shot = async (name, url, prepare, full = false) => {
    if (only.length && !only.includes(name)) return;
    await page.goto(`${base}${url}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    if (prepare) await prepare();
    // A full-page shot of a page scrolled by the steps above would draw the fixed header halfway down.
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, `web-cohorts-${name}-${scheme}.png`), fullPage: full });
    console.log(`web-cohorts-${name}-${scheme}.png`);
  };
  const pid = ids.project.id;
  const list = `/project/${pid}/cohorts`;
  await shot('list', list, () => page.getByRole('table', { name: 'Cohorts' }).waitFor());
  await shot('empty', `/project/${ids.empty.id}/cohorts`, () => page.getByText('No cohorts yet').waitFor());
  // The list's loading and error states: its request held, then answered 500.
  await page.route('**/api/projects/*/cohorts/?*', () => undefined);
  await shot('loading', list, () => page.locator('[aria-busy="true"]').first().waitFor());
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.route('**/api/projects/*/cohorts/?*', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ type: 'server_error', code: 'error', detail: 'The database did not answer.', attr: null }),
    }),
  );
  await shot('error', list, () => page.getByText('Could not load the cohorts').waitFor());
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await shot('missing', `${list}/999999`, () => page.getByText('Could not load this cohort').waitFor());
  await shot('static', `${list}/${ids.static}`, () => page.getByRole('table', { name: 'Members of the cohort' }).waitFor(), true);
  await shot('dynamic', `${list}/${ids.pro}`, () => page.getByRole('table', { name: 'Members of the cohort' }).waitFor());
  await shot('behavioral-settings', `${list}/${ids.buyers}?tab=settings`, () => page.getByRole('group', { name: 'Group 1' }).waitFor());
  await shot('variant-settings', `${list}/${ids.variant}?tab=settings`, () => page.getByRole('combobox', { name: 'Variant' }).waitFor());
  await shot('history', `${list}/${ids.static}?tab=history`, () =>
    page
      .getByText(/created/i)
      .first()
      .waitFor(),
  );
  await shot(
    'new',
    `${list}/new`,
    async () => {
      await page.getByLabel('Name').fill('Engaged pro users');
      await page.getByRole('combobox', { name: 'Property' }).fill('plan');
      await page.getByRole('combobox', { name: 'Values' }).fill('pro');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Add criterion' }).click();
      await page.getByRole('combobox', { name: 'Criterion' }).nth(1).click();
      await page.getByRole('option', { name: 'Did an event' }).click();
      await page.getByRole('combobox', { name: 'Event' }).fill('purchase');
      await page.getByRole('button', { name: 'Add a group (or)' }).click();
      await page.getByRole('combobox', { name: 'Criterion' }).nth(2).click();
      await page.getByRole('option', { name: 'Is in a cohort' }).click();
      await page.getByRole('combobox', { name: 'Cohort' }).click();
      await page.getByRole('option', { name: 'Beta testers' }).click();
    },
    true,
  );
  await shot('new-static', `${list}/new`, async () => {
    await page.getByLabel('Name').fill('Enterprise pilots');
    await page.getByText('A list of distinct IDs').click();
    await page.getByRole('textbox', { name: 'Distinct IDs' }).fill('acme-ops-1\nacme-ops-2\nglobex-admin, initech-7');
  });
  await shot('new-errors', `${list}/new`, async () => {
    await page.getByRole('combobox', { name: 'Criterion' }).click();
    await page.getByRole('option', { name: 'Got a flag variant' }).click();
    await page.getByRole('button', { name: 'Create cohort' }).click();
    await page.getByText('Pick a flag.').waitFor();
  });
  await shot('delete-in-use', `${list}/${ids.static}?tab=settings`, async () => {
    await page.getByRole('button', { name: 'Delete cohort' }).click();
    await page.getByRole('dialog', { name: 'Delete Beta testers?' }).getByRole('button', { name: 'Delete cohort' }).click();
    await page.getByText(/used by flag "beta-banner"/).waitFor();
  });
  await shot('flag', `/project/${pid}/feature_flags/${ids.flag}`, () => page.getByRole('combobox', { name: 'Cohort' }).waitFor(), true);
  await context.close();
}
await browser.close();
console.log(`wrote ${out}web-cohorts-*.png`);
