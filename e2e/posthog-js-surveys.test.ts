import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window and the service's JSON */

// The official posthog-js showing a survey made in the service, unchanged: once with its surveys bundle imported by
// the page, once fetching /static/surveys.js from its api_host (the service serves posthog-js's own file there).
const posthogDist = join(dirname(createRequire(import.meta.url).resolve('posthog-js/package.json')), 'dist');

let svc: Service;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();
let survey: { id: string; questions: { id: string }[]; internal_targeting_flag_key: string; targeting_flag_key: string };

/** A page of the site; `bundles` are posthog-js files it loads; `distinctId` bootstraps the person and keeps nothing in the browser. */
const page = (host: string, token: string, bundles: string[], distinctId?: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title><link rel="icon" href="data:,"></head>
<body>
  <main><h1>Shop</h1></main>
  ${bundles.map((b) => `<script src="/${b}"></script>`).join('\n  ')}
  <script>posthog.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(host)}, person_profiles: 'always', disable_session_recording: true,
    opt_out_useragent_filter: true, request_batching: false
    ${distinctId ? `, persistence: 'memory', bootstrap: { distinctID: ${JSON.stringify(distinctId)} }` : ''} })</script>
</body></html>`;

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  survey = await svc.api(`/api/projects/${svc.projectId}/surveys/`, {
    method: 'POST',
    body: {
      name: 'Checkout NPS',
      type: 'popover',
      questions: [
        {
          type: 'rating',
          question: 'How likely are you to recommend the shop?',
          scale: 10,
          display: 'number',
          lowerBoundLabel: 'Unlikely',
          upperBoundLabel: 'Very likely',
        },
        { type: 'open', question: 'What should we improve?' },
      ],
      conditions: { url: '/checkout', urlMatchType: 'icontains' },
    },
  });
  await svc.api(`/api/projects/${svc.projectId}/surveys/${survey.id}/launch/`, { method: 'POST' });
  const bundled = ['array.no-external.js', 'surveys.js'];
  const fetched = ['array.js'];
  site = await serveStatic(posthogDist, {
    '/checkout': page(svc.url, svc.token, bundled),
    '/elsewhere': page(svc.url, svc.token, bundled),
    '/checkout-fetched': page(svc.url, svc.token, fetched, 'ph-fetched'),
    '/checkout-again': page(svc.url, svc.token, bundled, 'ph-bootstrapped'),
  });
  chromium.cleanup(() => site.close());
});

const popover = (p: Page) => p.locator(`.PostHogSurvey-${survey.id}`);

async function open(path: string): Promise<Page> {
  const p = await chromium.newPage();
  await p.goto(`${site.url}${path}`);
  await p.waitForFunction(() => (window as any).posthog?.__loaded === true, undefined, { timeout: 15_000 });
  return p;
}

/** posthog-js has fetched the surveys and the flags, and decided what to show. */
const settled = (p: Page) =>
  p.evaluate(
    () =>
      new Promise<void>((resolve) => (window as any).posthog.onFeatureFlags(() => (window as any).posthog.getSurveys(() => setTimeout(resolve, 1500), true))),
  );

async function answer(p: Page) {
  const box = popover(p);
  await box.getByRole('button', { name: 'Rate 9' }).click();
  await box.getByRole('button', { name: 'Submit survey' }).click();
  await box.locator('textarea').fill('A dark mode, please');
  await box.getByRole('button', { name: 'Submit survey' }).click();
}

const results = () => svc.api(`/api/projects/${svc.projectId}/surveys/${survey.id}/results/`);

async function waitForSent(n: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await results();
    if (r.counts.sent >= n || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('posthog-js surveys against the service', () => {
  it('shows the running survey on the matching URL only, with its surveys bundle imported by the page', async () => {
    const elsewhere = await open('/elsewhere');
    await settled(elsewhere);
    expect(await popover(elsewhere).count()).toBe(0);

    const p = await open('/checkout');
    await expect.poll(() => popover(p).getByText('How likely are you to recommend the shop?').count(), { timeout: 15_000 }).toBe(1);
  });

  it('counts its answers in the results, and does not show it again to the same person, also after the browser forgets it', async () => {
    const p = await open('/checkout-again');
    await popover(p).getByRole('button', { name: 'Rate 9' }).waitFor({ timeout: 15_000 });
    await answer(p);
    const r = await waitForSent(1);
    expect(r.counts.sent).toBeGreaterThanOrEqual(1);
    const [rating, open_] = r.questions;
    expect(rating.ratings.find((x: any) => x.value === 9).count).toBe(1);
    expect(open_.answers.results.map((a: any) => a.value)).toContain('A dark mode, please');
    expect(open_.answers.results.find((a: any) => a.value === 'A dark mode, please').distinct_id).toBe('ph-bootstrapped');

    // The same person in a browser that kept nothing (memory persistence): the service's internal targeting flag says no.
    const again = await open('/checkout-again');
    await settled(again);
    const flag = (key: string) => again.evaluate((k) => (window as any).posthog.getFeatureFlag(k), key);
    expect(await flag(survey.targeting_flag_key)).toBe(true);
    expect(await flag(survey.internal_targeting_flag_key)).toBe(false);
    expect(await popover(again).count()).toBe(0);
  });

  it('loads /static/surveys.js from the service when the page does not bundle it, and shows the survey', async () => {
    const p = await chromium.newPage();
    const loaded: string[] = [];
    p.on('response', (res) => {
      // posthog-js asks for /static/<its version>/surveys.js (older versions: /static/surveys.js).
      if (/\/static\/(?:[\d.]+\/)?surveys\.js/.test(new URL(res.url()).pathname)) loaded.push(`${res.status()} ${new URL(res.url()).origin}`);
    });
    await p.goto(`${site.url}/checkout-fetched`);
    await expect.poll(() => popover(p).getByText('How likely are you to recommend the shop?').count(), { timeout: 20_000 }).toBe(1);
    expect(loaded).toEqual([`200 ${svc.url}`]);
  });
});
