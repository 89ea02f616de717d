// Screenshots of the cohorts pages and the flag form's cohort picker, light and dark, into
// docs/screenshots/web-cohorts-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/cohorts-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. On a project without cohorts it
// seeds 60 people (plans, purchases, a checkout flag's variants through /batch/ as the SDKs send them), a static
// cohort, a person-property one, a behavioral one, a flag-variant one, and a flag released to a cohort. The empty
// list is that of a project of its own; the loading and error states are the list's, with the API held or failing,
// and a cohort's page of an id that does not exist.
import { SCHEMES, api, failure, launch, open, projects, send, session, shooter } from './shots.mjs';

const PLANS = ['free', 'free', 'pro', 'team'];

async function seed(context, csrf) {
  const call = api(context, csrf);
  const { project, empty } = await projects(call);
  const p = `/api/projects/${project.id}`;
  const find = async () => {
    const cohorts = (await call('GET', `${p}/cohorts/?limit=100`)).results;
    const flags = (await call('GET', `${p}/feature_flags/?limit=100`)).results;
    return {
      project,
      empty,
      static: cohorts.find((c) => c.name === 'Beta testers')?.id,
      pro: cohorts.find((c) => c.name === 'Paying customers')?.id,
      buyers: cohorts.find((c) => c.name === 'Repeat buyers')?.id,
      variant: cohorts.find((c) => c.name === 'Saw the one-page checkout')?.id,
      flag: flags.find((f) => f.key === 'beta-banner')?.id,
      count: cohorts.length,
    };
  };
  const existing = await find();
  if (existing.count > 0) return existing;

  const day = 86_400_000;
  const now = Date.now();
  const batch = [];
  for (let i = 0; i < 60; i++) {
    const id = `user-${100 + i}`;
    const at = (days) => new Date(now - days * day).toISOString();
    batch.push({ event: '$identify', distinct_id: id, timestamp: at(20), properties: { $set: { plan: PLANS[i % 4], email: `${id}@example.com` } } });
    for (let k = 0; k < i % 4; k++) batch.push({ event: 'purchase', distinct_id: id, timestamp: at(k * 3 + 1), properties: { amount: 20 + k } });
    batch.push({
      event: '$feature_flag_called',
      distinct_id: id,
      timestamp: at(2),
      properties: { $feature_flag: 'one-page-checkout', $feature_flag_response: i % 2 ? 'test' : 'control' },
    });
  }
  await send(context, project.api_token, batch);

  await call('POST', `${p}/feature_flags/`, {
    key: 'one-page-checkout',
    active: true,
    filters: {
      groups: [{ properties: [], rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
    },
  });
  const ids = Array.from({ length: 12 }, (_, i) => `user-${100 + i * 3}`).concat(['lin@partner.example', 'qa-bot-7']);
  const beta = await call('POST', `${p}/cohorts/`, {
    name: 'Beta testers',
    description: 'People who signed up for the beta programme.',
    is_static: true,
    distinct_ids: ids,
  });
  const and = (...values) => ({ properties: { type: 'OR', values: [{ type: 'AND', values }] } });
  await call('POST', `${p}/cohorts/`, {
    name: 'Paying customers',
    filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro', 'team'] }] }] } },
  });
  const behavioral = { type: 'behavioral', value: 'performed_event', event_type: 'events', operator: 'gte', time_interval: 'day' };
  await call('POST', `${p}/cohorts/`, {
    name: 'Repeat buyers',
    description: 'Bought at least twice in the last 30 days.',
    filters: and({ ...behavioral, key: 'purchase', operator_value: 2, time_value: 30 }, { key: 'id', type: 'cohort', value: beta.id, operator: 'not_in' }),
  });
  await call('POST', `${p}/cohorts/`, {
    name: 'Saw the one-page checkout',
    filters: and({
      ...behavioral,
      key: '$feature_flag_called',
      operator_value: 1,
      time_value: 14,
      event_filters: [
        { key: '$feature_flag', type: 'event', operator: 'exact', value: 'one-page-checkout' },
        { key: '$feature_flag_response', type: 'event', operator: 'exact', value: 'test' },
      ],
    }),
  });
  await call('POST', `${p}/feature_flags/`, {
    key: 'beta-banner',
    name: 'The banner inviting beta testers to try new things',
    active: true,
    filters: {
      groups: [
        { properties: [{ key: 'id', type: 'cohort', value: beta.id, operator: 'in' }], rollout_percentage: 100 },
        { properties: [{ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }], rollout_percentage: 10 },
      ],
    },
  });
  return find();
}

const browser = await launch();
for (const scheme of SCHEMES) {
  const { context, page } = await open(browser, scheme, 900);
  const ids = await seed(context, await session(context));
  const shot = shooter(page, scheme, 'web-cohorts', { heading: true, full: false });
  const pid = ids.project.id;
  const list = `/project/${pid}/cohorts`;
  await shot('list', list, (p) => p.getByRole('table', { name: 'Cohorts' }));
  await shot('empty', `/project/${ids.empty.id}/cohorts`, (p) => p.getByText('No cohorts yet'));
  // The list's loading and error states: its request held, then answered 500.
  const held = '**/api/projects/*/cohorts/?*';
  await shot('loading', list, (p) => p.locator('[aria-busy="true"]'), { api: { url: held, answer: 'hold' } });
  const error = failure(500, 'error', 'The database did not answer.');
  await shot('error', list, (p) => p.getByText('Could not load the cohorts'), { api: { url: held, answer: error } });
  await shot('missing', `${list}/999999`, (p) => p.getByText('Could not load this cohort'));
  await shot('static', `${list}/${ids.static}`, (p) => p.getByRole('table', { name: 'Members of the cohort' }), { full: true });
  await shot('dynamic', `${list}/${ids.pro}`, (p) => p.getByRole('table', { name: 'Members of the cohort' }));
  await shot('behavioral-settings', `${list}/${ids.buyers}?tab=settings`, (p) => p.getByRole('group', { name: 'Group 1' }));
  await shot('variant-settings', `${list}/${ids.variant}?tab=settings`, (p) => p.getByRole('combobox', { name: 'Variant' }));
  await shot('history', `${list}/${ids.static}?tab=history`, (p) => p.getByText(/created/i));
  await shot(
    'new',
    `${list}/new`,
    async () => {
      await page.getByLabel('Name').fill('Engaged pro users');
      await page.getByRole('combobox', { name: 'Property' }).fill('plan');
      await page.getByRole('combobox', { name: 'Values' }).fill('pro');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Add criterion' }).click();
      await page.getByRole('combobox', { name: 'Criterion' }).nth(1).click();
      await page.getByRole('option', { name: 'Did an event' }).click();
      await page.getByRole('combobox', { name: 'Event' }).fill('purchase');
      await page.getByRole('button', { name: 'Add a group (or)' }).click();
      await page.getByRole('combobox', { name: 'Criterion' }).nth(2).click();
      await page.getByRole('option', { name: 'Is in a cohort' }).click();
      await page.getByRole('combobox', { name: 'Cohort' }).click();
      await page.getByRole('option', { name: 'Beta testers' }).click();
    },
    { full: true },
  );
  await shot('new-static', `${list}/new`, async () => {
    await page.getByLabel('Name').fill('Enterprise pilots');
    await page.getByText('A list of distinct IDs').click();
    await page.getByRole('textbox', { name: 'Distinct IDs' }).fill('acme-ops-1\nacme-ops-2\nglobex-admin, initech-7');
  });
  await shot('new-errors', `${list}/new`, async () => {
    await page.getByRole('combobox', { name: 'Criterion' }).click();
    await page.getByRole('option', { name: 'Got a flag variant' }).click();
    await page.getByRole('button', { name: 'Create cohort' }).click();
    await page.getByText('Pick a flag.').waitFor();
  });
  await shot('delete-in-use', `${list}/${ids.static}?tab=settings`, async () => {
    await page.getByRole('button', { name: 'Delete cohort' }).click();
    await page.getByRole('dialog', { name: 'Delete Beta testers?' }).getByRole('button', { name: 'Delete cohort' }).click();
    await page.getByText(/used by flag "beta-banner"/).waitFor();
  });
  await shot('flag', `/project/${pid}/feature_flags/${ids.flag}`, (p) => p.getByRole('combobox', { name: 'Cohort' }), { full: true });
  await context.close();
}
await browser.close();
