// Screenshots of the Replays pages, light and dark, into docs/screenshots/web-replays-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/replays-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. On a project without recordings it
// turns recording on and sends six sessions through /s/ as posthog-js does: the checkout recorded with rrweb in
// Chromium (packages/web/test/fixtures/replay-session.json) at other times and for other people, with their
// pageviews, clicks, custom events and an exception through /batch/. The empty list is that of a project of its own.
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
const recording = JSON.parse(fs.readFileSync(new URL('../test/fixtures/replay-session.json', import.meta.url), 'utf8'));

async function session(context) {
  const setup = await (await context.request.get(`${base}/api/setup`)).json();
  const res = setup.needs_first_account
    ? await context.request.post(`${base}/api/signup`, { data: { email, password, name: 'Ada Lovelace' }, headers: { origin: base } })
    : await context.request.post(`${base}/api/login`, { data: { email, password }, headers: { origin: base } });
  if (!res.ok()) throw new Error(`could not log in: ${res.status()} ${await res.text()}`);
  return (await res.json()).csrf_token;
}

const PEOPLE = [
  ['grace', 'grace@example.com'],
  ['linus', 'linus@example.org'],
  ['anon-5f2c', null],
  ['ada', 'ada@example.com'],
  ['margaret', 'margaret@example.com'],
  ['anon-9e1d', null],
];

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
  const existing = await call('GET', `${p}/session_recordings/?limit=10`);
  if (existing.count > 0) return { project, empty, sessionId: existing.results.find((r) => r.exception_count > 0)?.id ?? existing.results[0].id };

  await call('PATCH', `${p}/session_recording_settings/`, {
    enabled: true,
    sample_rate: 0.5,
    minimum_duration_ms: 2000,
    console_logs: true,
    block_selector: '.chat-widget',
    url_blocklist: [{ url: '/settings/billing', matching: 'regex' }],
  });
  const first = recording[0].timestamp;
  const last = recording.at(-1).timestamp;
  let withError;
  for (const [i, [distinctId, mail]] of PEOPLE.entries()) {
    // Each session the same checkout, started i × 3 h 10 min ago.
    const shift = Date.now() - i * 11_400_000 - (last - first) - first;
    const sessionId = `0192c4a8-${String(1000 + i)}-7000-8000-${String(i).padStart(12, '0')}`;
    const events = recording.map((e) => ({ ...e, timestamp: e.timestamp + shift }));
    const at = (ms) => new Date(first + shift + ms).toISOString();
    const snap = (part, n) => ({
      event: '$snapshot',
      uuid: `${sessionId.slice(0, 24)}${String(n).padStart(12, '0')}`,
      distinct_id: distinctId,
      timestamp: new Date(part[0].timestamp).toISOString(),
      properties: { $session_id: sessionId, $window_id: `w-${i}`, $snapshot_data: part, $snapshot_bytes: JSON.stringify(part).length },
    });
    // Two batches, as the recorder sends every few seconds.
    const half = Math.ceil(events.length / 2);
    for (const [n, part] of [events.slice(0, half), events.slice(half)].entries()) {
      const res = await context.request.post(`${base}/s/?token=${project.api_token}`, { data: snap(part, n) });
      if (!res.ok()) throw new Error(`/s/: ${res.status()} ${await res.text()}`);
    }
    const props = (extra) => ({ $session_id: sessionId, $window_id: `w-${i}`, $current_url: 'https://shop.example.com/checkout', ...extra });
    const batch = [
      {
        event: '$pageview',
        distinct_id: distinctId,
        timestamp: at(40),
        properties: props({ $pathname: '/checkout', ...(mail ? { $set: { email: mail } } : {}) }),
      },
      { event: '$autocapture', distinct_id: distinctId, timestamp: at(1_160), properties: props({ $event_type: 'click', $el_text: 'Add a blue mug' }) },
      { event: 'added_to_cart', distinct_id: distinctId, timestamp: at(1_210), properties: props({ product: 'blue-mug' }) },
      { event: '$autocapture', distinct_id: distinctId, timestamp: at(last - first - 60), properties: props({ $event_type: 'click', $el_text: 'Pay now' }) },
      {
        event: '$pageview',
        distinct_id: distinctId,
        timestamp: at(last - first - 40),
        properties: props({ $pathname: '/checkout/done', $current_url: 'https://shop.example.com/checkout/done' }),
      },
    ];
    if (i % 3 === 1) {
      withError = sessionId;
      batch.push({
        event: '$exception',
        distinct_id: distinctId,
        timestamp: at(last - first - 10),
        properties: props({
          $exception_list: [{ type: 'TypeError', value: "Cannot read properties of undefined (reading 'total')", mechanism: { handled: false } }],
        }),
      });
    }
    const res = await context.request.post(`${base}/batch/`, { data: { api_key: project.api_token, batch } });
    if (!res.ok()) throw new Error(`/batch/: ${res.status()} ${await res.text()}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return { project, empty, sessionId: withError };
}

const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
for (const scheme of ['light', 'dark']) {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
  const csrf = await session(context);
  const { project, empty, sessionId } = await seed(context, csrf);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${scheme}] page error: ${error.message}`));
  const shot = async (name, url, prepare, full = false) => {
    if (only.length && !only.includes(name)) return;
    await page.goto(`${base}${url}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    if (prepare) await prepare();
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, `web-replays-${name}-${scheme}.png`), fullPage: full });
  };
  const pid = project.id;
  await shot('empty', `/project/${empty.id}/replays`, () => page.getByText('No recordings yet').waitFor());
  await shot('list', `/project/${pid}/replays`, () => page.getByRole('table', { name: 'Recordings' }).waitFor());
  await shot('player', `/project/${pid}/replays/${sessionId}`, async () => {
    await page.frameLocator('.replay-frame iframe').getByRole('heading', { name: 'Checkout' }).waitFor();
    // At the click on "Add a blue mug" (from the event list, so no tooltip covers the timeline).
    await page
      .getByRole('list', { name: 'Events of the session' })
      .getByRole('button', { name: /Add a blue mug/ })
      .click();
    await page.frameLocator('.replay-frame iframe').getByText('One item in your cart.').waitFor();
  });
  await shot('person', `/project/${pid}/persons/grace`, async () => {
    await page.getByRole('tab', { name: 'Recordings' }).click();
    await page.getByRole('table', { name: 'Recordings' }).waitFor();
  });
  await shot(
    'settings',
    `/project/${pid}/settings/project`,
    async () => {
      await page.getByRole('form', { name: 'Session replay settings' }).waitFor();
    },
    true,
  );
  await context.close();
}
await browser.close();
console.log(`wrote ${out}web-replays-*.png`);
