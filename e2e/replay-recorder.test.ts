import { rmSync } from 'node:fs';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { buildExampleApp } from './support/example-app';
import { root, startService, type Service } from './support/service';
import { join } from 'node:path';

/* eslint-disable @typescript-eslint/no-explicit-any -- rrweb events and the API's JSON */

// service-js's session replay recorder in the example app (examples/react-app), built with Vite against a freshly
// started service whose project records, in Chromium; what it stored is read back through the recordings API.
let svc: Service;
let app: { url: string; close: () => Promise<void> };
/** A page with the script-tag build (packages/js/dist/service.iife.js), which fetches the recorder from the service. */
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();

const PASSWORD = 'correct-horse-battery-9';
const NAME = 'Ada Lovelace';

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  await svc.api(`/api/projects/${svc.projectId}/session_recording_settings/`, { method: 'PATCH', body: { enabled: true } });
  const dist = await buildExampleApp({ APP_PUBLIC_SERVICE_KEY: svc.token, APP_PUBLIC_SERVICE_HOST: svc.url });
  chromium.cleanup(() => rmSync(dist, { recursive: true, force: true }));
  app = await serveStatic(dist);
  chromium.cleanup(() => app.close());
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Script tag</title></head><body>
    <h1>Script tag page</h1><label>Secret <input type="password" id="pw"></label>
    <script src="/service.iife.js"></script>
    <script>window.service.init(${JSON.stringify(svc.token)}, { api_host: ${JSON.stringify(svc.url)} })</script></body></html>`;
  site = await serveStatic(join(root, 'packages', 'js', 'dist'), { '/': html });
  chromium.cleanup(() => site.close());
}, 120_000);

const isSnapshots = (r: Request) => new URL(r.url()).pathname === '/s/' && r.method() === 'POST';

/** The distinct id the app shows once the client is initialized. */
async function distinctIdOf(page: Page): Promise<string> {
  const el = page.getByTestId('distinct-id');
  await expect.poll(async () => (await el.textContent()) ?? '…', { timeout: 10_000 }).not.toBe('…');
  return (await el.textContent())!;
}

/** The recording of this person, once the list has it. */
async function recordingOf(distinctId: string): Promise<any> {
  let found: any;
  await expect
    .poll(
      async () => {
        const list = await svc.api(`/api/projects/${svc.projectId}/session_recordings/?distinct_id=${encodeURIComponent(distinctId)}`);
        found = list.results.find((r: any) => r.distinct_id === distinctId);
        return !!found;
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
  return found;
}

/** A recording's stored rrweb events, polled until `until` holds of them. */
async function snapshotsOf(sessionId: string, until: (events: any[]) => boolean): Promise<any[]> {
  let events: any[] = [];
  await expect
    .poll(
      async () => {
        events = await svc.api(`/api/projects/${svc.projectId}/session_recordings/${sessionId}/snapshots/`);
        return until(events);
      },
      { timeout: 45_000, interval: 500 },
    )
    .toBe(true);
  return events;
}

/** The nodes of a serialized rrweb tree, depth first. */
function* nodes(n: any): Generator<any> {
  yield n;
  for (const c of n.childNodes ?? []) yield* nodes(c);
}

describe('session replay: the service-js recorder in the example app', () => {
  it('records a session (typing, clicks, navigation) to /s/; the password and the svc-no-capture note never reach the service; a failed send is sent again', async () => {
    const page = await chromium.newPage();
    // The first two batches fail (network error): the queue keeps them and sends them again.
    let failed = 0;
    const accepted: string[] = [];
    await page.route(
      (url) => new URL(url).pathname === '/s/',
      async (route) => {
        if (route.request().method() === 'POST' && failed < 2) {
          failed++;
          return route.abort('failed');
        }
        const res = await route.fetch();
        if (route.request().method() === 'POST' && res.ok()) accepted.push(route.request().url());
        return route.fulfill({ response: res });
      },
    );
    await page.goto(app.url);
    const did = await distinctIdOf(page);
    // The recorder is loaded only because the project records: its chunk is fetched, then batches go to /s/.
    await page.waitForRequest(isSnapshots, { timeout: 15_000 });

    await page.getByTestId('to-account').click();
    await expect.poll(() => page.evaluate(() => location.pathname)).toBe('/account');
    await page.getByTestId('account-name').click();
    await page.getByTestId('account-name').pressSequentially(NAME, { delay: 5 });
    await page.getByTestId('account-password').click();
    await page.getByTestId('account-password').pressSequentially(PASSWORD, { delay: 5 });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in.').waitFor();
    await page.getByRole('link', { name: 'Back' }).click();
    // Leaving sends what is left (sendBeacon or the queue's keepalive fetch).
    await expect.poll(() => accepted.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(failed).toBe(2);

    const rec = await recordingOf(did);
    const events = await snapshotsOf(rec.id, (evs) => evs.some((e) => e.type === 5 && e.data?.tag === '$url_changed' && e.data.payload.href.endsWith('/')));
    // A full snapshot (with its Meta), from the first batch, the one whose sends failed.
    expect(events.some((e) => e.type === 4)).toBe(true);
    const full = events.find((e) => e.type === 2);
    expect(full).toBeDefined();
    // In timestamp order, each once.
    expect(events.map((e) => e.timestamp)).toEqual([...events.map((e) => e.timestamp)].sort((a, b) => a - b));

    const json = JSON.stringify(events);
    // What the page shows is recorded; what was typed is masked (passwords always, other inputs by default);
    // the svc-no-capture note is a placeholder of its size, with nothing inside.
    expect(json).toContain('service-js/react example');
    expect(json).toContain('Your account');
    expect(json).not.toContain(PASSWORD);
    expect(json).not.toContain(NAME);
    expect(json).not.toContain('4242');
    expect(json).not.toContain('7319-ALPHA');
    const inputs = events.filter((e) => e.type === 3 && e.data.source === 5);
    expect(inputs.some((e) => e.data.text === '*'.repeat(PASSWORD.length))).toBe(true);
    expect(inputs.some((e) => e.data.text === '*'.repeat(NAME.length))).toBe(true);
    const added = events.filter((e) => e.type === 3 && e.data.source === 0).flatMap((e) => e.data.adds.map((a: any) => a.node));
    const note = [...added.flatMap((n: any) => [...nodes(n)])].find((n) => String(n.attributes?.class).includes('svc-no-capture'));
    expect(note).toMatchObject({ attributes: { rr_width: expect.stringMatching(/px$/), rr_height: expect.stringMatching(/px$/) } });
    expect(note.childNodes ?? []).toEqual([]);
    // clicks and the navigation are there
    expect(events.some((e) => e.type === 3 && e.data.source === 2 && e.data.type === 2)).toBe(true);
    expect(events.some((e) => e.type === 5 && e.data.tag === '$url_changed' && e.data.payload.href.endsWith('/account'))).toBe(true);

    // The service's metadata counts them.
    const detail = await svc.api(`/api/projects/${svc.projectId}/session_recordings/${rec.id}/`);
    expect(detail.click_count).toBeGreaterThan(0);
    expect(detail.start_url).toContain(app.url);
  }, 120_000);

  it('the script-tag build fetches the recorder from the service (/static/replay.<version>.js) and records', async () => {
    const page = await chromium.newPage();
    const chunk = page.waitForResponse((r) => /\/static\/replay\.[\d.]+\.js$/.test(new URL(r.url()).pathname));
    await page.goto(site.url);
    const res = await chunk;
    expect(res.status()).toBe(200);
    expect(new URL(res.url()).origin).toBe(svc.url);
    await expect.poll(() => page.evaluate(() => (window as any).service.sessionRecordingStarted())).toBe(true);
    await page.locator('#pw').pressSequentially('tag-secret-42', { delay: 5 });
    // rrweb's `input: 'last'` sampling records a field's value once it changes (leaving it), not each keystroke
    await page.locator('#pw').press('Tab');
    const did: string = await page.evaluate(() => (window as any).service.get_distinct_id());
    const sid: string = await page.evaluate(() => (window as any).service.get_session_id());
    const rec = await recordingOf(did);
    expect(rec.id).toBe(sid);
    const events = await snapshotsOf(sid, (evs) => evs.some((e) => e.type === 2) && evs.some((e) => e.type === 3 && e.data.source === 5));
    const json = JSON.stringify(events);
    expect(json).toContain('Script tag page');
    expect(json).not.toContain('tag-secret-42');
  }, 60_000);

  it('bounded work: a burst of 3,300 elements is recorded by a full snapshot, not a mutation; a node changed without end is rate-limited', async () => {
    const page = await chromium.newPage();
    await page.goto(site.url);
    await expect.poll(() => page.evaluate(() => (window as any).service.sessionRecordingStarted())).toBe(true);
    const sid: string = await page.evaluate(() => (window as any).service.get_session_id());
    // rrweb starts when the page is idle: its first full snapshot, then the changes
    await page.waitForRequest(isSnapshots, { timeout: 15_000 });
    await page.evaluate(() => {
      const table = document.createElement('table');
      for (let r = 0; r < 300; r++) {
        const tr = table.insertRow();
        for (let c = 0; c < 10; c++) tr.insertCell().textContent = `row ${r} cell ${c}`;
      }
      document.body.append(table);
    });
    const isTable = (e: any) => JSON.stringify(e).includes('row 299 cell 9');
    // the full snapshot taken once the page is idle holds the table (its text, to replay); no mutation carries it
    let events = await snapshotsOf(sid, (evs) => evs.some((e) => e.type === 2 && isTable(e)));
    expect(events.filter((e) => e.type === 3 && e.data.source === 0 && isTable(e))).toEqual([]);

    // a node changed each frame, 150 times: past its bucket (100, then 10 a second) its changes are dropped
    await page.evaluate(async () => {
      const bar = document.createElement('div');
      document.body.append(bar);
      for (let i = 0; i < 150; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        bar.setAttribute('data-tick', String(i));
      }
      await (window as any).service.flush();
    });
    const ticksOf = (evs: any[]) =>
      evs
        .filter((e) => e.type === 3 && e.data.source === 0)
        .flatMap((e) => e.data.attributes)
        .filter((a: any) => a.attributes['data-tick'] !== undefined);
    const counted = (evs: any[]) => evs.filter((e) => e.type === 5 && e.data.tag === '$mutations_rate_limited').map((e) => e.data.payload);
    const dropped = (evs: any[]) => counted(evs).reduce((n, p) => n + p.dropped, 0);
    events = await snapshotsOf(sid, (evs) => ticksOf(evs).length + dropped(evs) === 150);
    const ticks = ticksOf(events);
    expect(ticks.length).toBeGreaterThanOrEqual(100);
    expect(dropped(events)).toBeGreaterThan(0);
    expect(new Set(counted(events).flatMap((p) => p.nodes))).toEqual(new Set([ticks[0].id]));
  }, 60_000);

  it('records nothing while the project does not record: the recorder is never downloaded', async () => {
    await svc.api(`/api/projects/${svc.projectId}/session_recording_settings/`, { method: 'PATCH', body: { enabled: false } });
    try {
      const page = await chromium.newPage();
      const urls: string[] = [];
      page.on('request', (r) => urls.push(new URL(r.url()).pathname));
      const flags = page.waitForResponse((r) => new URL(r.url()).pathname === '/flags/');
      await page.goto(app.url);
      const answer = await (await flags).json();
      expect(answer.sessionRecording).toBe(false);
      await distinctIdOf(page);
      await page.getByTestId('to-account').click();
      await page.waitForTimeout(2500);
      expect(urls.filter((u) => u === '/s/' || /replay/.test(u))).toEqual([]);
    } finally {
      await svc.api(`/api/projects/${svc.projectId}/session_recording_settings/`, { method: 'PATCH', body: { enabled: true } });
    }
  }, 60_000);
});
