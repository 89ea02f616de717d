import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window and the service's JSON */

// The official posthog-js, unchanged, learning from the service's remote config whether to record (off by default),
// then loading its own recorder from its api_host (`/static/lazy-recorder.js`, which the service serves from the
// posthog-js package it pins) and recording to `/s/`: the recording is listed by the recordings API.
const posthogDir = dirname(createRequire(import.meta.url).resolve('posthog-js/package.json'));
const posthogDist = join(posthogDir, 'dist');
const { version } = JSON.parse(readFileSync(join(posthogDir, 'package.json'), 'utf8')) as { version: string };

let svc: Service;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();
let offToken: string;

/** A page of the site loading posthog-js's bundle that fetches its extensions (no recorder bundled). */
const page = (host: string, token: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,"></head>
<body>
  <main><h1>Shop</h1><label>Name <input id="name"></label><p class="secret">private text</p></main>
  <script src="/array.js"></script>
  <script>posthog.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(host)}, person_profiles: 'always', opt_out_useragent_filter: true })</script>
</body></html>`;

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  await svc.api(`/api/projects/${svc.projectId}/session_recording_settings/`, {
    method: 'PATCH',
    body: { enabled: true, console_logs: true, mask_text_selector: '.secret' },
  });
  const off = await svc.api('/api/projects/', { method: 'POST', body: { name: 'Not recording' } });
  offToken = off.api_token;
  site = await serveStatic(posthogDist, { '/': page(svc.url, svc.token), '/off': page(svc.url, offToken) });
  chromium.cleanup(() => site.close());
});

/** Opens a page, noting the service's paths it requested and any failed request or console error. */
async function open(path: string): Promise<{ p: Page; requested: string[]; failures: string[] }> {
  const p = await chromium.newPage();
  const requested: string[] = [];
  const failures: string[] = [];
  p.on('request', (r) => r.url().startsWith(svc.url) && requested.push(new URL(r.url()).pathname + new URL(r.url()).search));
  p.on('requestfailed', (r) => failures.push(`failed: ${r.url()}`));
  p.on('console', (m) => m.type() === 'error' && failures.push(m.text()));
  await p.goto(`${site.url}${path}`);
  await p.waitForFunction(() => (window as any).posthog?.__loaded === true, undefined, { timeout: 15_000 });
  return { p, requested, failures };
}

describe('posthog-js with recording turned on in the project settings', () => {
  it('loads its recorder from the service, pinned to its version, and records to /s/: the recording is listed', async () => {
    const { p, requested, failures } = await open('/');
    await p.waitForFunction(() => (window as any).posthog.sessionRecordingStarted() === true, undefined, { timeout: 15_000 });
    // posthog-js asks for the file of its own version (`/static/<version>/lazy-recorder.js`), which the service pins.
    expect(requested.filter((path) => path.includes('recorder'))).toEqual([`/static/${version}/lazy-recorder.js`]);
    const config = await p.evaluate((token) => (window as any)._POSTHOG_REMOTE_CONFIG?.[token]?.config?.sessionRecording, svc.token);
    expect(config).toMatchObject({
      endpoint: '/s/',
      sampleRate: '1.00',
      consoleLogRecordingEnabled: true,
      masking: { maskAllInputs: true, maskTextSelector: '.secret' },
    });
    await p.fill('#name', 'Grace');
    await p.click('h1');
    const sessionId: string = await p.evaluate(() => (window as any).posthog.get_session_id());
    let recording: any;
    for (const end = Date.now() + 20_000; !recording && Date.now() < end; await new Promise((r) => setTimeout(r, 500))) {
      const list = await svc.api(`/api/projects/${svc.projectId}/session_recordings/`);
      recording = list.results.find((r: any) => r.id === sessionId);
    }
    expect(recording, 'the session is listed').toBeDefined();
    expect(requested.some((path) => path.startsWith('/s/'))).toBe(true);
    const snapshots = await svc.api(`/api/projects/${svc.projectId}/session_recordings/${sessionId}/snapshots/`);
    expect(snapshots.some((e: any) => e.type === 2)).toBe(true);
    const stored = JSON.stringify(snapshots);
    // What the page masks (the input, the selector the settings name) never left it.
    expect(stored).not.toContain('Grace');
    expect(stored).not.toContain('private text');
    expect(failures).toEqual([]);
  });

  it('records nothing and loads no recorder for a project that does not record', async () => {
    const { p, requested, failures } = await open('/off');
    await p.evaluate(() => new Promise<void>((resolve) => (window as any).posthog.onFeatureFlags(() => setTimeout(resolve, 1500))));
    expect(await p.evaluate(() => (window as any).posthog.sessionRecordingStarted())).toBe(false);
    expect(requested.filter((path) => path.includes('recorder') || path.startsWith('/s/'))).toEqual([]);
    expect(failures).toEqual([]);
  });
});
