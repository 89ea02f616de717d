// Screenshots of every page of the web app, light and dark, into docs/screenshots/web-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. It seeds a few flags, early access
// features and events when the project has no flags yet.
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

const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});

async function session(context) {
  const setup = await (await context.request.get(`${base}/api/setup`)).json();
  const res = setup.needs_first_account
    ? await context.request.post(`${base}/api/signup`, { data: { email, password, name: 'Ada Lovelace' }, headers: { origin: base } })
    : await context.request.post(`${base}/api/login`, { data: { email, password }, headers: { origin: base } });
  if (!res.ok()) throw new Error(`could not log in: ${res.status()} ${await res.text()}`);
  return (await res.json()).csrf_token;
}

async function seed(context, csrf) {
  const headers = { origin: base, 'x-csrf-token': csrf };
  const call = async (method, url, data) => {
    const res = await context.request.fetch(`${base}${url}`, { method, data, headers });
    if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
    return res.status() === 204 ? null : res.json();
  };
  const project = (await call('GET', '/api/projects/')).results[0];
  const p = `/api/projects/${project.id}`;
  if ((await call('GET', `${p}/early_access_feature/`)).count > 0) return project;
  if ((await call('GET', `${p}/feature_flags/`)).count === 0) {
    await call('POST', `${p}/feature_flags/`, {
      key: 'new-checkout',
      name: 'The redesigned checkout, released to 30% of users in Europe first',
      filters: {
        groups: [{ properties: [{ key: 'country', type: 'person', operator: 'exact', value: ['DE', 'FR', 'NL'] }], rollout_percentage: 30 }],
        payloads: { true: '{"steps":2}' },
      },
    });
    await call('POST', `${p}/feature_flags/`, {
      key: 'pricing-page-test',
      name: 'Which pricing page sells more',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'annual-first', rollout_percentage: 25 },
            { key: 'monthly-first', rollout_percentage: 25 },
          ],
        },
      },
    });
    await call('POST', `${p}/feature_flags/`, {
      key: 'dark-mode-editor',
      name: 'Dark theme in the editor',
      active: false,
      filters: { groups: [{ properties: [], rollout_percentage: 0 }] },
    });
    await call('POST', `${p}/feature_flags/`, {
      key: 'search-v2',
      name: '',
      filters: { groups: [{ properties: [{ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }], rollout_percentage: 100 }] },
    });
  }
  await call('POST', `${p}/early_access_feature/`, {
    name: 'AI summaries',
    description: 'Summaries of long threads, written by a model.',
    stage: 'beta',
    documentation_url: 'https://docs.example.com/ai-summaries',
  });
  await call('POST', `${p}/early_access_feature/`, { name: 'Offline mode', description: 'Keep working without a connection.', stage: 'alpha' });
  await call('POST', `${p}/early_access_feature/`, { name: 'Calendar sync', description: 'Two-way sync with Google and Outlook calendars.', stage: 'concept' });
  const now = Date.now();
  const batch = [];
  const people = ['ada@example.com', 'grace@example.com', 'linus@example.org', 'anon-7f3a'];
  for (let i = 0; i < 40; i++) {
    const who = people[i % people.length];
    batch.push({
      event: ['$pageview', 'signed_up', '$feature_flag_called', 'checkout_completed'][i % 4],
      distinct_id: who,
      timestamp: new Date(now - i * 3_600_000 * 7).toISOString(),
      properties: {
        $current_url: `https://shop.example.com/${['', 'pricing', 'checkout', 'cart'][i % 4]}`,
        $feature_flag: 'new-checkout',
        $feature_flag_response: i % 3 === 0,
        $browser: 'Chrome',
        $set: { email: who.includes('@') ? who : undefined, country: ['DE', 'US', 'FR'][i % 3], plan: i % 2 ? 'pro' : 'free' },
      },
    });
  }
  await context.request.post(`${base}/batch/`, { data: { api_key: project.api_token, batch } });
  return project;
}

const pages = (pid) => [
  ['flags', `/project/${pid}/feature_flags`],
  ['flag-new', `/project/${pid}/feature_flags/new`],
  ['flag-edit', `/project/${pid}/feature_flags/2`],
  [
    'flag-test',
    `/project/${pid}/feature_flags/1?tab=test`,
    async (page) => {
      await page.getByLabel('Distinct ID').fill('ada@example.com');
      await page.getByRole('button', { name: 'Evaluate' }).click();
      await page.getByText('Reason').waitFor();
    },
  ],
  ['flag-usage', `/project/${pid}/feature_flags/1?tab=usage`],
  ['early-access', `/project/${pid}/early_access`],
  ['early-access-new', `/project/${pid}/early_access/new`],
  [
    'early-access-feature',
    null,
    async (page) => {
      await page.goto(`${base}/project/${pid}/early_access`);
      await page.getByRole('link', { name: 'AI summaries' }).first().click();
      await page.getByRole('heading', { name: 'AI summaries' }).waitFor();
    },
  ],
  ['events', `/project/${pid}/events`],
  ['people', `/project/${pid}/persons`],
  ['person', `/project/${pid}/persons/${encodeURIComponent('ada@example.com')}`],
  ['settings', `/project/${pid}/settings/project`],
  ['settings-members', `/project/${pid}/settings/members`],
  ['settings-keys', `/project/${pid}/settings/keys`],
  ['settings-webhooks', `/project/${pid}/settings/webhooks`],
];

for (const scheme of ['light', 'dark']) {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 860 } });
  const csrf = await session(context);
  const project = await seed(context, csrf);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${scheme}] page error: ${error.message}`));
  page.on('console', (msg) => msg.type() === 'error' && console.error(`[${scheme}] console: ${msg.text()}`));
  if (!only.length || only.includes('login')) {
    const anonymous = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 860 } });
    const login = await anonymous.newPage();
    await login.goto(`${base}/login`);
    await login.getByRole('button', { name: 'Log in' }).waitFor();
    await login.screenshot({ path: path.join(out, `web-login-${scheme}.png`) });
    await anonymous.close();
  }
  for (const [name, url, act] of pages(project.id)) {
    if (only.length && !only.includes(name)) continue;
    if (url) await page.goto(`${base}${url}`);
    await page.waitForLoadState('networkidle');
    if (act) await act(page);
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, `web-${name}-${scheme}.png`), fullPage: true });
    console.log(`web-${name}-${scheme}.png`);
  }
  await context.close();
}
await browser.close();
