// Screenshots of the surveys pages, light and dark, into docs/screenshots/web-surveys-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/surveys-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. On a project without surveys it
// seeds an early access feature, an NPS survey launched three weeks ago with the answers of 240 people (shown,
// dismissed, sent, through /batch/ as posthog-js sends them), a beta feedback survey of the feature, a customer
// satisfaction draft and a stopped open feedback survey. The empty list is that of a project of its own.
import { SCHEMES, api, launch, noise, open, projects, send, session, shooter } from './shots.mjs';

const REASONS = [
  'Setting up flags took five minutes, and the docs answered every question I had.',
  'The results page is what sold my team: we read them in the weekly review.',
  'Fast, and it runs on our own servers, which legal loves.',
  'Mostly good, but I miss a way to compare two date ranges.',
  'Pricing is fine. The search in the events list is slow on big projects.',
  'I would recommend it if the mobile SDKs were as complete as the web one.',
  'Hard to find where the early access settings are.',
  'Support answered within the hour, twice.',
  'It replaced three tools for us.',
  'The dark theme is lovely.',
];
const CHANNELS = ['A colleague', 'Search', 'A blog post', 'Conference talk'];

async function seed(context, csrf) {
  const call = api(context, csrf);
  const { project, empty } = await projects(call);
  const p = `/api/projects/${project.id}`;
  const existing = await call('GET', `${p}/surveys/?limit=100`);
  const ids = () => ({
    project,
    empty,
    nps: existing.results.find((s) => s.name === 'Net Promoter Score')?.id,
    csat: existing.results.find((s) => s.name === 'Checkout satisfaction')?.id,
    beta: existing.results.find((s) => s.name.endsWith('beta feedback'))?.id,
  });
  if (existing.count > 0) return ids();

  let feature = (await call('GET', `${p}/early_access_feature/`)).results.find((f) => f.name === 'AI summaries');
  feature ??= await call('POST', `${p}/early_access_feature/`, {
    name: 'AI summaries',
    description: 'Summaries of long threads, written by a model.',
    stage: 'beta',
  });

  const nps = await call('POST', `${p}/surveys/`, {
    name: 'Net Promoter Score',
    description: 'Asked twice a year of everyone on a paid plan.',
    type: 'popover',
    questions: [
      {
        type: 'rating',
        question: 'How likely are you to recommend us to a friend or colleague?',
        scale: 10,
        display: 'number',
        lowerBoundLabel: 'Not at all likely',
        upperBoundLabel: 'Extremely likely',
      },
      { type: 'single_choice', question: 'How did you hear of us?', choices: [...CHANNELS, 'Other'], hasOpenChoice: true, optional: true },
      { type: 'open', question: 'What is the main reason for your score?', optional: true },
    ],
    conditions: { url: '/dashboard', urlMatchType: 'icontains', seenSurveyWaitPeriodInDays: 14 },
    targeting_flag_filters: { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro', 'team'] }], rollout_percentage: 100 }] },
    schedule: 'recurring',
    iteration_count: 4,
    iteration_frequency_days: 180,
    enable_partial_responses: true,
  });
  await call('POST', `${p}/surveys/${nps.id}/launch/`);
  const beta = await call('POST', `${p}/surveys/`, {
    name: 'AI summaries beta feedback',
    type: 'popover',
    questions: [
      {
        type: 'rating',
        question: 'How useful are AI summaries for you?',
        scale: 5,
        display: 'emoji',
        lowerBoundLabel: 'Not useful',
        upperBoundLabel: 'Very useful',
      },
      { type: 'open', question: 'What would make them better?', optional: true },
    ],
    linked_flag_key: feature.feature_flag.key,
    linked_early_access_feature_id: feature.id,
  });
  await call('POST', `${p}/surveys/${beta.id}/launch/`);
  const csat = await call('POST', `${p}/surveys/`, {
    name: 'Checkout satisfaction',
    type: 'popover',
    questions: [
      {
        type: 'rating',
        question: 'How satisfied are you with checking out?',
        scale: 5,
        display: 'emoji',
        lowerBoundLabel: 'Very dissatisfied',
        upperBoundLabel: 'Very satisfied',
        branching: { type: 'response_based', responseValues: { positive: 'end' } },
      },
      { type: 'open', question: 'What could we do better?', optional: true },
    ],
    conditions: { events: { values: [{ name: 'checkout_completed' }, { name: 'invoice_paid', server_side: true }] } },
  });
  const open = await call('POST', `${p}/surveys/`, {
    name: 'Open feedback',
    type: 'widget',
    questions: [{ type: 'open', question: 'What can we do to make the product better for you?', buttonText: 'Send' }],
    appearance: { widgetType: 'tab', widgetLabel: 'Feedback' },
    schedule: 'always',
  });
  await call('POST', `${p}/surveys/${open.id}/launch/`);
  await call('POST', `${p}/surveys/${open.id}/stop/`);

  // Three weeks of answers to the NPS survey, as posthog-js sends them: shown, then dismissed or answered.
  const day = 86_400_000;
  const now = Date.now();
  const batch = [];
  for (let i = 0; i < 240; i++) {
    const id = `user-${1000 + i}`;
    const d = Math.floor(21 * noise('d', i) ** 1.4);
    const at = (minutes) => new Date(now - d * day - Math.floor(noise('h', i) * 10) * 3_600_000 + minutes * 60_000).toISOString();
    const base = { $survey_id: nps.id, $survey_name: nps.name, $set: { plan: ['pro', 'team'][i % 2], email: `${id}@example.com` } };
    batch.push({ event: 'survey shown', distinct_id: id, timestamp: at(0), properties: base });
    const r = noise('r', i);
    if (r < 0.22) {
      batch.push({ event: 'survey dismissed', distinct_id: id, timestamp: at(1), properties: base });
      continue;
    }
    const score = Math.min(10, Math.max(0, Math.round(8.2 + 2.6 * (noise('s', i) - 0.5) * 2 - (noise('x', i) < 0.15 ? 5 : 0))));
    const answers = { [`$survey_response_${nps.questions[0].id}`]: score };
    if (noise('c', i) < 0.8) {
      const c = noise('ch', i);
      answers[`$survey_response_${nps.questions[1].id}`] = c < 0.05 ? 'A podcast' : CHANNELS[Math.floor(c * CHANNELS.length)];
    }
    if (noise('o', i) < 0.35) answers[`$survey_response_${nps.questions[2].id}`] = REASONS[Math.floor(noise('t', i) * REASONS.length)];
    batch.push({
      event: 'survey sent',
      distinct_id: id,
      timestamp: at(2),
      properties: {
        ...base,
        ...answers,
        $survey_submission_id: `sub-${i}`,
        $survey_completed: true,
        $set: { ...base.$set, [`$survey_responded/${nps.id}`]: true },
      },
    });
  }
  batch.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  await send(context, project.api_token, batch);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  existing.results = [nps, beta, csat, open];
  return ids();
}

const browser = await launch();
for (const scheme of SCHEMES) {
  const { context, page } = await open(browser, scheme, 900);
  const { project, empty, nps, csat } = await seed(context, await session(context));
  const shot = shooter(page, scheme, 'web-surveys', { heading: true, full: false });
  const pid = project.id;
  await shot('empty', `/project/${empty.id}/surveys`, (p) => p.getByText('No surveys yet'));
  await shot('list', `/project/${pid}/surveys`, (p) => p.getByRole('table', { name: 'Surveys' }));
  await shot('templates', `/project/${pid}/surveys?new=template`, (p) => p.getByRole('dialog', { name: 'New survey' }));
  await shot('beta-template', `/project/${pid}/surveys?new=template`, async () => {
    await page.getByRole('button', { name: 'Beta feedback' }).click();
    await page.getByRole('combobox', { name: 'Early access feature' }).click();
    await page.getByRole('option', { name: /AI summaries/ }).click();
  });
  await shot('new', `/project/${pid}/surveys/new?template=nps`, (p) => p.getByRole('region', { name: 'Preview of the survey' }));
  await shot('builder-branching', `/project/${pid}/surveys/${csat}?tab=edit`, (p) => p.getByRole('combobox', { name: 'If the answer is "Positive (4–5)"' }), {
    full: true,
  });
  await shot('builder-errors', `/project/${pid}/surveys/new?template=blank`, async () => {
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByText('Write the question people will read.').waitFor();
  });
  await shot('results', `/project/${pid}/surveys/${nps}`, (p) => p.getByRole('img', { name: /^Shown, responses and dismissals per day/ }), { full: true });
  await context.close();
}
await browser.close();
