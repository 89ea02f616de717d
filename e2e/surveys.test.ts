import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { root, startService, type Service } from './support/service';
import { axeViolations } from './support/web-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- the page's window and the service's JSON */

// A popover survey of the service, shown by the script-tag build of service-js (its `surveys` extension, fetched from
// the service's /static/ only when /flags turns a survey's flag on), answered with the keyboard alone.
let svc: Service;
let site: { url: string; close: () => Promise<void> };
const chromium = chromiumPerFile();
const { version } = JSON.parse(readFileSync(join(root, 'packages', 'js', 'package.json'), 'utf8'));

/** A page of the site; `csp`: with a Content-Security-Policy that allows no inline styles at all. */
const page = (host: string, token: string, title: string, csp = false) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>${
  csp ? `<meta http-equiv="Content-Security-Policy" content="default-src 'self' ${host}; script-src 'self' 'unsafe-inline' ${host}; style-src 'self'">` : ''
}</head>
<body>
  <main><h1>${title}</h1><p>Plans and prices.</p><a href="/docs">Docs</a></main>
  <script src="/service.iife.js"></script>
  <script>window.service.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(host)}, autocapture: false })</script>
</body></html>`;

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  site = await serveStatic(join(root, 'packages', 'js', 'dist'), {
    '/pricing': page(svc.url, svc.token, 'Pricing'),
    '/docs': page(svc.url, svc.token, 'Docs'),
    '/pricing/strict': page(svc.url, svc.token, 'Pricing', true),
  });
  chromium.cleanup(() => site.close());
});

/** Opens a path of the site, recording the requests for the surveys extension and the survey list. */
async function visit(p: Page, path: string) {
  const surveyRequests: string[] = [];
  const listen = (r: Request) => void (/\/static\/surveys\.|\/api\/surveys\//.test(r.url()) && surveyRequests.push(r.url().replace(svc.url, '')));
  p.on('request', listen);
  const flags = p.waitForResponse((r) => r.url().startsWith(`${svc.url}/flags/`));
  await p.goto(`${site.url}${path}`);
  await flags;
  return surveyRequests;
}

const question = {
  score: 'How likely are you to recommend us to a friend?',
  passive: 'What would make it a 10?',
  detractor: 'What went wrong?',
};
let survey: any;

describe('surveys in Chromium (service-js, script tag)', () => {
  it('a page with no running survey never downloads the surveys extension, nor asks for surveys', async () => {
    const p = await chromium.newPage();
    const requests = await visit(p, '/pricing');
    await p.waitForTimeout(1500);
    expect(requests).toEqual([]);
    expect(await p.locator('svc-survey').count()).toBe(0);
  });

  it('a popover survey appears on the matching URL only', async () => {
    survey = await svc.api(`/api/projects/${svc.projectId}/surveys/`, {
      method: 'POST',
      body: {
        name: 'NPS on pricing',
        type: 'popover',
        conditions: { url: '/pricing' },
        appearance: { displayThankYouMessage: true, thankYouMessageHeader: 'Thanks a lot!' },
        questions: [
          { type: 'rating', question: question.score, scale: 10, display: 'number', lowerBoundLabel: 'Unlikely', upperBoundLabel: 'Very likely' },
          { type: 'open', question: question.passive },
          { type: 'open', question: question.detractor },
        ],
      },
    });
    // detractors go to question 2; promoters end it; passives take the next question
    survey = await svc.api(`/api/projects/${svc.projectId}/surveys/${survey.id}/`, {
      method: 'PATCH',
      body: {
        questions: survey.questions.map((q: any, i: number) =>
          i === 0
            ? { ...q, branching: { type: 'response_based', responseValues: { detractors: 2, promoters: 'end' } } }
            : i === 1
              ? { ...q, branching: { type: 'end' } }
              : q,
        ),
      },
    });
    await svc.api(`/api/projects/${svc.projectId}/surveys/${survey.id}/launch/`, { method: 'POST' });

    const p = await chromium.newPage();
    const requests = await visit(p, '/docs');
    // the extension loads (a survey's flag is on for this person) and finds nothing for this URL
    await p.waitForTimeout(1500);
    expect(requests).toEqual([`/static/surveys.${version}.js`, `/api/surveys/?token=${svc.token}`]);
    expect(await p.locator('svc-survey').count()).toBe(0);

    await visit(p, '/pricing');
    await expect.poll(() => p.getByRole('dialog', { name: question.score }).count(), { timeout: 10_000 }).toBe(1);
  });

  it('the open survey has no serious accessibility violation (axe-core)', async () => {
    const p = await chromium.newPage();
    await visit(p, '/pricing');
    await p.getByRole('dialog', { name: question.score }).waitFor();
    const violations = await axeViolations(p);
    expect(violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`)).toEqual([]);
  });

  it('is drawn with its styles on a page whose Content-Security-Policy allows no inline style', async () => {
    const p = await chromium.newPage();
    const refused: string[] = [];
    p.on('console', (m) => void (/Content.Security.Policy/i.test(m.text()) && refused.push(m.text())));
    await visit(p, '/pricing/strict');
    const dialog = p.getByRole('dialog', { name: question.score });
    await dialog.waitFor();
    const box = await dialog.evaluate((el) => {
      const style = getComputedStyle(el);
      return { position: style.position, background: style.backgroundColor, width: el.getBoundingClientRect().width };
    });
    expect(box).toEqual({ position: 'fixed', background: 'rgb(238, 237, 237)', width: 300 });
    expect(refused).toEqual([]);
  });

  it('is answered with the keyboard alone, follows its branching, and is not shown again after a reload', async () => {
    const p = await chromium.newPage();
    await visit(p, '/pricing');
    const dialog = p.getByRole('dialog', { name: question.score });
    await dialog.waitFor();
    const id: string = await p.evaluate(() => (window as any).service.get_distinct_id());

    // focus moved into the dialog, on the rating's first value: arrows pick, Enter answers
    await expect.poll(() => p.evaluate(() => document.activeElement?.tagName)).toBe('SVC-SURVEY');
    for (let i = 0; i < 3; i++) await p.keyboard.press('ArrowRight');
    expect(await p.getByRole('radio', { name: '3' }).isChecked()).toBe(true);
    await p.keyboard.press('Enter');
    // a detractor: straight to the third question
    await p.getByRole('dialog', { name: question.detractor }).waitFor();
    await p.keyboard.type('Too expensive for a small team');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Enter');
    await p.getByRole('dialog', { name: 'Thanks a lot!' }).waitFor();
    await p.keyboard.press('Enter');
    await expect.poll(() => p.locator('svc-survey').count()).toBe(0);

    const [sent] = await svc.waitForEvents('survey sent', id);
    const [score, , detractor] = survey.questions;
    expect(sent.properties).toMatchObject({
      $survey_id: survey.id,
      $survey_completed: true,
      [`$survey_response_${score.id}`]: 3,
      [`$survey_response_${detractor.id}`]: 'Too expensive for a small team',
      $survey_response: 3,
      $survey_response_2: 'Too expensive for a small team',
    });
    expect(sent.properties[`$survey_response_${survey.questions[1].id}`]).toBeUndefined();
    expect((await svc.events('survey shown', id)).length).toBe(1);
    // its answers are in the survey's results: the score, and the detractor's answer with who gave it
    const results = await svc.api(`/api/projects/${svc.projectId}/surveys/${survey.id}/results/`);
    expect(results.counts.sent).toBe(1);
    expect(results.counts.shown).toBeGreaterThanOrEqual(1);
    expect(results.questions[0].ratings.find((r: any) => r.value === 3).count).toBe(1);
    expect(results.questions[0].nps).toMatchObject({ detractors: 1, score: -100 });
    expect(results.questions[2].answers.results).toEqual([expect.objectContaining({ value: 'Too expensive for a small team', distinct_id: id })]);
    // the service knows: the survey's internal flag is off for this person now
    const flags = await svc.flags({ distinct_id: id });
    expect(flags.flags[survey.internal_targeting_flag_key].enabled).toBe(false);

    await p.reload();
    await p.waitForResponse((r) => r.url().startsWith(`${svc.url}/flags/`));
    await p.waitForTimeout(1500);
    expect(await p.locator('svc-survey').count()).toBe(0);
  });

  it('Escape dismisses it, and focus goes back where it was', async () => {
    const p = await chromium.newPage();
    await visit(p, '/pricing');
    await p.getByRole('dialog', { name: question.score }).waitFor();
    const id: string = await p.evaluate(() => (window as any).service.get_distinct_id());
    await p.keyboard.press('Escape');
    await expect.poll(() => p.locator('svc-survey').count()).toBe(0);
    expect(await p.evaluate(() => document.activeElement === document.body)).toBe(true);
    const [dismissed] = await svc.waitForEvents('survey dismissed', id);
    expect(dismissed.properties).toMatchObject({ $survey_id: survey.id, $survey_partially_completed: false });
  });
});
