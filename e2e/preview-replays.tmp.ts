// Temporary preview (not committed): the Replays pages over mocked replay API answers, light and dark.
import { readFileSync } from 'node:fs';
import { apiLogIn, axeViolations, startWebApp } from './support/web-app';

const events = JSON.parse(readFileSync('../packages/web/test/fixtures/replay-session.json', 'utf8'));
const start = events[0].timestamp;
const end = events.at(-1).timestamp;
const app = await startWebApp();
const pid = app.svc.projectId;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
await fetch(`${app.base}/api/signup`, { method: 'POST', headers: { 'content-type': 'application/json', origin: app.base }, body: JSON.stringify(owner) });
const rec = (i: number) => ({
  id: `0192c4a8-0000-7000-8000-00000000000${i}`,
  distinct_id: i % 3 ? `user-${100 + i}` : `anon-${i}`,
  person: i % 3 ? { id: `p${i}`, name: ['ada@example.com', 'grace@example.com', 'linus@example.org'][i % 3] } : null,
  start_time: new Date(Date.now() - i * 3_700_000).toISOString(),
  end_time: new Date(Date.now() - i * 3_600_000).toISOString(),
  duration: [62, 185, 1_240, 45, 3_725, 600][i % 6],
  active_seconds: 30,
  click_count: 3 * i + 2,
  keypress_count: 40 * i,
  console_log_count: 2,
  console_warn_count: 1,
  console_error_count: i % 2,
  exception_count: i === 1 ? 2 : 0,
  start_url: ['https://shop.test/checkout', 'https://shop.test/', 'https://shop.test/products/blue-mug?ref=newsletter&utm_source=mail'][i % 3],
  event_count: 20,
  size_bytes: 40_000 * i,
  ongoing: i === 0,
});
const list = Array.from({ length: 6 }, (_, i) => rec(i));
const detail = { ...list[1], duration: (end - start) / 1000, urls: ['https://shop.test/checkout', 'https://shop.test/checkout/done'], skipped_count: 0, block_count: 2 };
const at = (ms: number) => new Date(start + ms).toISOString();
const sessionEvents = [
  { uuid: 'a', event: '$pageview', timestamp: at(50), properties: { $pathname: '/checkout' } },
  { uuid: 'b', event: '$autocapture', timestamp: at(1200), properties: { $event_type: 'click', $el_text: 'Add a blue mug' } },
  { uuid: 'c', event: 'added_to_cart', timestamp: at(1300), properties: {} },
  { uuid: 'd', event: '$autocapture', timestamp: at(end - start - 600), properties: { $event_type: 'click', $el_text: 'Pay now' } },
  { uuid: 'e', event: '$pageview', timestamp: at(end - start - 500), properties: { $pathname: '/checkout/done' } },
  { uuid: 'f', event: '$exception', timestamp: at(end - start - 300), properties: { $exception_types: ['TypeError'], $exception_message: "Cannot read properties of undefined (reading 'total')" } },
];
const settings = {
  enabled: true, sample_rate: 0.5, minimum_duration_ms: 2000, linked_flag: null, mask_all_text: false, mask_text_selector: null, block_selector: '.chat-widget',
  console_logs: true, network_timings: false, record_canvas: false, url_triggers: [], url_blocklist: [{ url: '/settings/billing', matching: 'regex' }], event_triggers: [],
  retention_days: 30, storage: { bytes: 48_234_496, sessions: 1_204 },
};
const out = process.env.OUT ?? '/tmp/replay-preview';
for (const scheme of ['light', 'dark'] as const) {
  const context = await app.newContext({ colorScheme: scheme });
  await apiLogIn(context, app.base, owner.email, owner.password);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror', e.message));
  const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route(/session_recordings\/\?/, (r) => r.fulfill(json({ count: new URL(r.request().url()).searchParams.get('url') ? 0 : list.length, next: null, previous: null, results: new URL(r.request().url()).searchParams.get('url') ? [] : list })));
  await page.route(/session_recordings\/[^/?]+\/$/, (r) => r.fulfill(json(detail)));
  await page.route(/session_recordings\/[^/?]+\/snapshots\/$/, (r) => r.fulfill(json(events)));
  await page.route(/session_recordings\/[^/?]+\/events\/$/, (r) => r.fulfill(json({ results: sessionEvents })));
  await page.route(/session_recording_settings\/$/, (r) => r.fulfill(json(settings)));
  await page.goto(`/project/${pid}/replays`);
  await page.getByRole('table', { name: 'Recordings' }).waitFor();
  await page.screenshot({ path: `${out}/list-${scheme}.png` });
  await page.goto(`/project/${pid}/replays?url=nothing`);
  await page.getByText('No recording matches').waitFor();
  await page.screenshot({ path: `${out}/list-empty-${scheme}.png` });
  await page.goto(`/project/${pid}/replays/${list[1].id}`);
  await page.locator('.replay-frame iframe').waitFor();
  await page.waitForTimeout(800);
  await page.getByRole('button', { name: /^0:01: Click/ }).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${out}/player-${scheme}.png` });
  const text = await page.frameLocator('.replay-frame iframe').locator('body').innerText();
  console.log(scheme, 'frame text:', JSON.stringify(text));

  if (scheme === 'light') console.log('axe player', JSON.stringify((await axeViolations(page)).map((v) => [v.id, v.nodes?.map((n) => [n.html, n.failureSummary])])));
  await page.goto(`/project/${pid}/settings/project`);
  await page.getByRole('form', { name: 'Session replay settings' }).waitFor();
  await page.locator('#session-replay').scrollIntoViewIfNeeded();
  await page.locator('#session-replay').screenshot({ path: `${out}/settings-${scheme}.png` });
  if (scheme === 'light') console.log('axe settings', JSON.stringify((await axeViolations(page)).map((v) => [v.id, v.nodes?.length])));
  await context.close();
}
await app.stop();
