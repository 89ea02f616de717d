import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogIn, expectAccessible, signUp, startWebApp, type WebApp } from './support/web-app';

// The surveys pages of the web app in Chromium against a started service: a survey made from a template and edited in
// the builder (its preview drawn as people will see it), launched, answered through /batch/ as posthog-js sends its
// events, read in the results (counts, NPS, choices, written answers with their person), stopped (an answer after
// that shows as late) and archived; beta feedback linked to an early access feature; every page scanned with axe.
// The tests run in order and build on each other.
let app: WebApp;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
let projectId: number;
let surveyId: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  await signUp(app.base, owner);
  context = await app.newContext();
  await apiLogIn(context, app.base, owner.email, owner.password);
  page = await context.newPage();
});

afterAll(() => app?.stop());

/** Picks an option of a Mantine Select by the select's name and the option's text. */
async function choose(scope: Page | ReturnType<Page['getByRole']>, name: string, option: string) {
  await scope.getByRole('combobox', { name, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Waits until no transition runs (a dialog fading in is scanned once it is there, not halfway). */
const settled = () => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

/** The value shown on a results card ("Shown", "Responses", …). */
const stat = (label: string) => page.getByRole('group', { name: label, exact: true }).locator('p').nth(1).textContent();

/** Survey events as posthog-js sends them, through /batch/. */
async function send(batch: { event: string; distinct_id: string; properties: Record<string, unknown> }[]) {
  const res = await fetch(`${app.base}/batch/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: app.svc.token, batch: batch.map((e) => ({ ...e, timestamp: new Date().toISOString() })) }),
  });
  expect(res.status).toBe(200);
}

describe('surveys in the web app', () => {
  it('makes a survey from the NPS template, edited in the builder with its live preview, and saves it as a draft', async () => {
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Surveys' }).click();
    await page.getByText('No surveys yet').waitFor();
    await expectAccessible(page, 'the surveys list, empty');
    await page.getByRole('main').getByRole('button', { name: 'New survey' }).first().click();
    const templates = page.getByRole('dialog', { name: 'New survey' });
    await templates.waitFor();
    await settled();
    await expectAccessible(page, 'the templates');
    await templates.getByRole('button', { name: 'Net Promoter Score' }).click();
    await page.getByRole('heading', { name: 'New survey', level: 1 }).waitFor();

    // The preview draws the open question with service-js's renderer, in a shadow tree of its own.
    const preview = page.getByRole('region', { name: 'Preview of the survey' });
    await preview.getByText('How likely are you to recommend us to a friend or colleague?').first().waitFor();
    await expectAccessible(page, 'the builder');

    await page.getByRole('textbox', { name: 'Name' }).fill('Checkout NPS');
    // Promoters are done; the others are asked why.
    const first = page.getByRole('region', { name: 'Question 1' });
    await choose(first, 'After this question', 'Depends on the answer');
    await choose(first, 'If the answer is "Promoters (9–10)"', 'End the survey');
    // The second question: its text edited, and the preview follows it.
    await page.getByRole('button', { name: /^Edit question 2 / }).click();
    const second = page.getByRole('region', { name: 'Question 2' });
    await second.getByRole('textbox', { name: 'Question' }).fill('What would make you recommend us?');
    await preview.getByText('What would make you recommend us?').first().waitFor();
    // A third question: a single choice with an open last choice.
    await page.getByRole('button', { name: 'Add question' }).click();
    const third = page.getByRole('region', { name: 'Question 3' });
    await choose(third, 'Question type', 'Single choice');
    await third.getByRole('textbox', { name: 'Question' }).fill('How did you hear of us?');
    await third.getByRole('textbox', { name: 'Choice 1' }).fill('A colleague');
    await third.getByRole('textbox', { name: 'Choice 2' }).fill('Other');
    await third.getByRole('checkbox', { name: 'The last choice lets people write their own answer' }).check();
    // Shown on the checkout's pages only, after a server-side event.
    await page.getByRole('textbox', { name: 'URL to match' }).fill('/checkout');
    await page.getByRole('button', { name: 'Add event' }).click();
    await page.getByRole('group', { name: 'Event 1' }).getByRole('combobox', { name: 'Event name' }).fill('invoice_paid');
    await page.getByRole('group', { name: 'Event 1' }).getByRole('checkbox', { name: 'Captured on the server' }).check();

    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.waitForURL((url) => /\/surveys\/[0-9a-f-]{36}$/.test(url.pathname));
    surveyId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { name: 'Checkout NPS', level: 1 }).waitFor();
    await page.getByText('Draft', { exact: true }).waitFor();

    const stored = await app.svc.api(`/api/projects/${projectId}/surveys/${surveyId}/`);
    expect(stored).toMatchObject({
      status: 'draft',
      type: 'popover',
      schedule: 'recurring',
      conditions: { url: '/checkout', urlMatchType: 'icontains', events: { values: [{ name: 'invoice_paid', server_side: true }] } },
    });
    expect(stored.questions).toEqual([
      expect.objectContaining({ type: 'rating', scale: 10, branching: { type: 'response_based', responseValues: { promoters: 'end' } } }),
      expect.objectContaining({ type: 'open', question: 'What would make you recommend us?' }),
      expect.objectContaining({ type: 'single_choice', choices: ['A colleague', 'Other'], hasOpenChoice: true }),
    ]);
    // Its two flags are shown, read only.
    await page.getByRole('region', { name: 'Flags of the survey' }).getByText(stored.targeting_flag_key, { exact: true }).waitFor();
  });

  it('edits the draft: the builder says what is wrong on the field, and saves once it is right', async () => {
    await page.getByRole('tab', { name: 'Questions and settings' }).click();
    await page.getByRole('button', { name: /^Edit question 3 / }).click();
    const third = page.getByRole('region', { name: 'Question 3' });
    await third.getByRole('textbox', { name: 'Choice 2' }).fill('A colleague');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await third.getByText('Each choice must be different.').waitFor();
    await third.getByRole('textbox', { name: 'Choice 2' }).fill('Search');
    await page.getByRole('button', { name: 'Add choice' }).click();
    await third.getByRole('textbox', { name: 'Choice 3' }).fill('Other');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await app.svc.api(`/api/projects/${projectId}/surveys/${surveyId}/`)).questions[2].choices)
      .toEqual(['A colleague', 'Search', 'Other']);
    // The question ids stay: answers are stored by them.
    const stored = await app.svc.api(`/api/projects/${projectId}/surveys/${surveyId}/`);
    expect(new Set(stored.questions.map((q: { id: string }) => q.id)).size).toBe(3);
  });

  it('launches it after asking, and reads the results of the answers sent through /batch/', async () => {
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    await page.getByRole('dialog', { name: 'Launch Checkout NPS?' }).getByRole('button', { name: 'Launch survey' }).click();
    await page.getByText('Running', { exact: true }).waitFor();
    const survey = await app.svc.api(`/api/projects/${projectId}/surveys/${surveyId}/`);
    expect(survey.status).toBe('running');
    const [score, why, channel] = survey.questions.map((q: { id: string }) => q.id);

    const base = { $survey_id: surveyId, $survey_name: 'Checkout NPS' };
    const scores = [10, 10, 9, 8, 7, 3, 0, 10];
    const events = [];
    for (let i = 0; i < 10; i++) events.push({ event: 'survey shown', distinct_id: `buyer-${i}`, properties: base });
    events.push(
      { event: 'survey dismissed', distinct_id: 'buyer-8', properties: base },
      { event: 'survey dismissed', distinct_id: 'buyer-9', properties: base },
    );
    scores.forEach((value, i) =>
      events.push({
        event: 'survey sent',
        distinct_id: `buyer-${i}`,
        properties: {
          ...base,
          $survey_submission_id: `submission-${i}`,
          [`$survey_response_${score}`]: value,
          ...(value < 9 ? { [`$survey_response_${why}`]: `Reason of buyer ${i}` } : {}),
          [`$survey_response_${channel}`]: i === 2 ? 'A podcast' : i % 2 ? 'Search' : 'A colleague',
        },
      }),
    );
    await send(events);

    await page.getByRole('tab', { name: 'Results' }).click();
    await expect.poll(() => stat('Responses')).toBe('8');
    expect(await stat('Shown')).toBe('10');
    expect(await stat('Dismissed')).toBe('2');
    expect(await stat('Response rate')).toBe('80 %');
    // 4 promoters, 2 passives, 2 detractors of 8: 50 % − 25 %.
    await page.getByLabel('Net Promoter Score 25').waitFor();
    expect(await page.getByText(/^Promoters \(9–10\)/).textContent()).toBe('Promoters (9–10): 4 (50 %)');
    const choices = page.getByRole('list', { name: 'Choices of "How did you hear of us?"' }).getByRole('listitem');
    expect(await choices.evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')))).toEqual([
      'Search: 4 (50 %)',
      'A colleague: 3 (38 %)',
      'A podcast: 1 (13 %), written in',
      'Other: 0 (0 %)',
    ]);
    const answers = page.getByRole('table', { name: 'Answers to "What would make you recommend us?"' });
    await answers.getByText('Reason of buyer 5').waitFor();
    expect(await answers.locator('tbody tr').count()).toBe(4);
    await page.getByRole('img', { name: /^Shown, responses and dismissals per day/ }).waitFor();
    await expectAccessible(page, 'the results');

    // An answer's person is a link to their page.
    await answers.getByRole('link', { name: 'buyer-5' }).click();
    await page.waitForURL((url) => url.pathname === `/project/${projectId}/persons/buyer-5`);
    await page.goBack();

    // The list shows how many answered.
    await page.goto(`/project/${projectId}/surveys`);
    const row = page.getByRole('table', { name: 'Surveys' }).getByRole('row', { name: /Checkout NPS/ });
    await row.getByText('80 % of 10 shown').waitFor();
    await expectAccessible(page, 'the surveys list');
  });

  it('narrows the results to a person property', async () => {
    await send([{ event: '$identify', distinct_id: 'buyer-0', properties: { $set: { plan: 'pro' } } }]);
    await page.goto(`/project/${projectId}/surveys/${surveyId}?tab=results`);
    await page.getByRole('combobox', { name: 'Person property' }).fill('plan');
    await page.getByRole('textbox', { name: 'Equals' }).fill('pro');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('prop')).toBe('plan');
    await expect.poll(() => stat('Responses')).toBe('1');
  });

  it('stops after asking; an answer that arrives after that shows as late', async () => {
    await page.goto(`/project/${projectId}/surveys/${surveyId}`);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('dialog', { name: 'Stop Checkout NPS?' }).getByRole('button', { name: 'Stop survey' }).click();
    await page.getByText('Stopped', { exact: true }).first().waitFor();
    const [score] = (await app.svc.api(`/api/projects/${projectId}/surveys/${surveyId}/`)).questions.map((q: { id: string }) => q.id);
    await send([
      {
        event: 'survey sent',
        distinct_id: 'late-buyer',
        properties: { $survey_id: surveyId, $survey_submission_id: 'late', [`$survey_response_${score}`]: 6 },
      },
    ]);
    await page.reload();
    await page.getByText('1 response arrived after the survey ended', { exact: false }).waitFor();
  });

  it('beta feedback asks which early access feature, and shows only to the people in its program', async () => {
    const feature = await app.svc.api(`/api/projects/${projectId}/early_access_feature/`, {
      method: 'POST',
      body: { name: 'AI summaries', description: 'Summaries of long threads.', stage: 'beta' },
    });
    await page.goto(`/project/${projectId}/surveys`);
    await page.getByRole('button', { name: 'New survey' }).first().click();
    await page.getByRole('dialog', { name: 'New survey' }).getByRole('button', { name: 'Beta feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Beta feedback: which feature?' });
    await dialog.getByRole('combobox', { name: 'Early access feature' }).click();
    await page.getByRole('option', { name: 'AI summaries (beta)' }).click();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('textbox', { name: 'Name' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('AI summaries beta feedback');
    await page.getByText('Asks the people in the early access program of').waitFor();
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.waitForURL((url) => /\/surveys\/[0-9a-f-]{36}$/.test(url.pathname));
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect(await app.svc.api(`/api/projects/${projectId}/surveys/${id}/`)).toMatchObject({
      linked_flag_key: feature.feature_flag.key,
      linked_early_access_feature_id: feature.id,
    });
    await page.getByRole('link', { name: feature.feature_flag.key }).waitFor();
  });

  it('archives a survey after asking: it leaves the list', async () => {
    await page.goto(`/project/${projectId}/surveys/${surveyId}`);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog', { name: 'Archive Checkout NPS?' }).getByRole('button', { name: 'Archive survey' }).click();
    await page.waitForURL((url) => url.pathname === `/project/${projectId}/surveys`);
    await page.getByRole('table', { name: 'Surveys' }).waitFor();
    expect(await page.getByRole('table', { name: 'Surveys' }).getByText('Checkout NPS').count()).toBe(0);
  });
});
