import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window, rrweb's events and the service's JSON */

// The official posthog-js recorder (its lazy recorder bundle imported by the page, default options: inputs masked,
// per-event compression on), recording turned on in the project settings, records a sign-in form to the service's
// /s/; the recording's snapshots (the recordings API) are plain rrweb events with a full snapshot, and the password
// typed is nowhere in them.
const posthogDist = join(dirname(createRequire(import.meta.url).resolve('posthog-js/package.json')), 'dist');
const PASSWORD = 'hunter2-Sup3r-Secret';
const EMAIL = 'ada@example.com';

let svc: Service;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();

const page = (host: string, token: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title><link rel="icon" href="data:,"></head>
<body>
  <main>
    <h1>Sign in to the shop</h1>
    <form onsubmit="event.preventDefault(); document.getElementById('status').textContent = 'Welcome back'">
      <label>Email <input id="email" type="email" autocomplete="off"></label>
      <label>Password <input id="password" type="password" autocomplete="off"></label>
      <button type="submit">Sign in</button>
    </form>
    <p id="status"></p>
  </main>
  <script src="/array.no-external.js"></script>
  <script src="/lazy-recorder.js"></script>
  <script>posthog.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(host)}, person_profiles: 'always', opt_out_useragent_filter: true })</script>
</body></html>`;

beforeAll(async () => {
  svc = await startService();
  await svc.api(`/api/projects/${svc.projectId}/session_recording_settings/`, { method: 'PATCH', body: { enabled: true } });
  site = await serveStatic(posthogDist, { '/signin': page(svc.url, svc.token) });
});
afterAll(async () => {
  await site?.close();
  await svc?.stop();
});

describe('posthog-js session recording to /s/', () => {
  it('is stored as plain rrweb events with a full snapshot, per-event compression decoded, and the password typed is never stored', async () => {
    const p = await chromium.newPage();
    const sent: Request[] = [];
    const acknowledged: number[] = [];
    p.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/s')) sent.push(request);
    });
    p.on('response', (response) => {
      if (response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/s')) acknowledged.push(response.status());
    });
    await p.goto(`${site.url}/signin`);
    await p.waitForFunction(() => (window as any).posthog?.sessionRecordingStarted?.() === true, undefined, { timeout: 20_000 });
    await p.getByLabel('Email').pressSequentially(EMAIL);
    await p.getByLabel('Password').pressSequentially(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByText('Welcome back').waitFor();
    const sessionId: string = await p.evaluate(() => (window as any).posthog.get_session_id());

    // Batches go out every 2 s; wait until the click on the button has been stored.
    const recording = `/api/projects/${svc.projectId}/session_recordings/${sessionId}`;
    let stored: any[] = [];
    await expect
      .poll(
        async () => {
          stored = await svc.api(`${recording}/snapshots/`).catch(() => []);
          return stored.some((e) => e.type === 3 && e.data?.source === 2 && e.data?.type === 2);
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.every((status) => status === 200)).toBe(true);

    // What posthog-js sent: gzip bodies of $snapshot events whose big fields it compressed (`cv: '2024-10'`).
    const bodies = sent.map((request) => {
      const raw = request.postDataBuffer()!;
      return JSON.parse((raw[0] === 0x1f ? gunzipSync(raw) : raw).toString('utf8'));
    });
    const sentEvents = bodies.flatMap((body: any[]) => body.flatMap((e: any) => e.properties.$snapshot_data));
    expect(bodies.flat().every((e: any) => e.event === '$snapshot' && e.properties.$session_id === sessionId)).toBe(true);
    expect(sentEvents.some((e: any) => e.type === 2 && e.cv === '2024-10' && typeof e.data === 'string')).toBe(true);

    // What is stored: plain rrweb events, in timestamp order, a full snapshot of the page among them.
    expect(stored.some((e) => 'cv' in e)).toBe(false);
    const full = stored.find((e) => e.type === 2);
    expect(typeof full.data.node).toBe('object');
    expect(JSON.stringify(full)).toContain('Sign in to the shop');
    expect(stored.map((e) => e.timestamp)).toEqual([...stored.map((e) => e.timestamp)].sort((a, b) => a - b));
    expect(stored.length).toBe(new Set(stored.map((e) => JSON.stringify(e))).size);
    // The inputs were recorded, masked.
    const inputs = stored.filter((e) => e.type === 3 && e.data.source === 5);
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.every((e) => /^\**$/.test(e.data.text))).toBe(true);
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(EMAIL);
    const session = await svc.api(`${recording}/`);
    expect(session).toMatchObject({ skipped_count: 0, start_url: `${site.url}/signin` });
    expect(session.click_count).toBeGreaterThanOrEqual(1);
  });
});
