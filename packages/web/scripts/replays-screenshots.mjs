// Screenshots of the Replays pages, light and dark, into docs/screenshots/web-replays-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/replays-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. On a project without recordings it
// turns recording on and sends six sessions through /s/ as posthog-js does: the checkout recorded with rrweb in
// Chromium (packages/web/test/fixtures/replay-session.json) at other times and for other people, with their
// pageviews, clicks, custom events and an exception through /batch/. The empty list is that of a project of its own.
import fs from 'node:fs';
import { SCHEMES, api, base, launch, open, projects, send, session, shooter } from './shots.mjs';

const recording = JSON.parse(fs.readFileSync(new URL('../test/fixtures/replay-session.json', import.meta.url), 'utf8'));

const PEOPLE = [
  ['grace', 'grace@example.com'],
  ['linus', 'linus@example.org'],
  ['anon-5f2c', null],
  ['ada', 'ada@example.com'],
  ['margaret', 'margaret@example.com'],
  ['anon-9e1d', null],
];

async function seed(context, csrf) {
  const call = api(context, csrf);
  const { project, empty } = await projects(call);
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
    await send(context, project.api_token, batch);
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return { project, empty, sessionId: withError };
}

const browser = await launch();
for (const scheme of SCHEMES) {
  const { context, page } = await open(browser, scheme, 900);
  const { project, empty, sessionId } = await seed(context, await session(context));
  const shot = shooter(page, scheme, 'web-replays', { heading: true, full: false });
  const pid = project.id;
  await shot('empty', `/project/${empty.id}/replays`, (p) => p.getByText('No recordings yet'));
  await shot('list', `/project/${pid}/replays`, (p) => p.getByRole('table', { name: 'Recordings' }));
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
  await shot('settings', `/project/${pid}/settings/project`, (p) => p.getByRole('form', { name: 'Session replay settings' }), { full: true });
  await context.close();
}
await browser.close();
