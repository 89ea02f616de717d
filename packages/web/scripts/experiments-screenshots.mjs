// Screenshots of the experiments pages, light and dark, into docs/screenshots/web-experiments-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/experiments-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. On a project without experiments it
// seeds a running one (started ten days ago) and a draft on a live flag (pricing-page-test, made unless screenshots.mjs
// made it) with a split of its own: 600 people are assigned by /flags, exposed with `$feature_flag_called` and convert
// at known rates, all through /batch/, as an app would send them.
import { SCHEMES, api, base, launch, noise, open, send, session, shooter } from './shots.mjs';

async function seed(context, csrf) {
  const call = api(context, csrf);
  const project = (await call('GET', '/api/projects/')).results[0];
  const p = `/api/projects/${project.id}/experiments/`;
  const existing = await call('GET', p);
  if (existing.count > 0) {
    const byStatus = (draft) => existing.results.find((e) => (e.status === 'draft') === draft) ?? existing.results[0];
    return { project, running: byStatus(false), draft: byStatus(true) };
  }

  const day = 86_400_000;
  const start = Date.now() - 10 * day;
  // A draft on a flag that already serves people: it stays as it is until launch, which gives it the draft's split.
  const flags = (await call('GET', `/api/projects/${project.id}/feature_flags/?search=pricing-page-test`)).results;
  if (!flags.some((f) => f.key === 'pricing-page-test')) {
    await call('POST', `/api/projects/${project.id}/feature_flags/`, {
      key: 'pricing-page-test',
      name: 'Which pricing page sells more',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 40 },
            { key: 'annual-first', rollout_percentage: 30 },
            { key: 'monthly-first', rollout_percentage: 30 },
          ],
        },
      },
    });
  }
  await call('POST', p, {
    name: 'Pricing page order',
    description: 'Annual or monthly plans first on the pricing page.',
    feature_flag_key: 'pricing-page-test',
    variants: [
      { key: 'control', rollout_percentage: 34 },
      { key: 'annual-first', rollout_percentage: 33 },
      { key: 'monthly-first', rollout_percentage: 33 },
    ],
    metrics: [{ kind: 'conversion', event: 'subscribed', window_days: 7 }],
  });
  const running = await call('POST', p, {
    name: 'One-page checkout',
    description: 'The whole checkout on one page instead of three steps.',
    feature_flag_key: 'one-page-checkout',
    metrics: [
      { kind: 'conversion', event: 'purchase', window_days: 14 },
      { kind: 'mean', event: 'purchase', property: 'amount' },
    ],
    start_date: new Date(start).toISOString(),
    status: 'running',
  });
  // People arrive over ten days; each asks /flags for their variant, reads it (an exposure), and may buy.
  const batch = [];
  const rate = { control: 0.1, test: 0.14 };
  for (let i = 0; i < 600; i++) {
    const id = `shopper-${i}`;
    const flags = await (await context.request.post(`${base}/flags/?v=2`, { data: { token: project.api_token, distinct_id: id } })).json();
    const variant = flags.flags?.['one-page-checkout']?.variant;
    if (!variant) continue;
    const seen = start + Math.floor(((i + noise(id, 'when')) / 600) * 9.8 * day);
    batch.push({
      event: '$feature_flag_called',
      distinct_id: id,
      properties: { $feature_flag: 'one-page-checkout', $feature_flag_response: variant },
      timestamp: new Date(seen).toISOString(),
    });
    if (noise(id, 'buys') < rate[variant]) {
      batch.push({
        event: 'purchase',
        distinct_id: id,
        properties: { amount: Math.round(20 + 80 * noise(id, 'amount') + (variant === 'test' ? 6 : 0)) },
        timestamp: new Date(seen + 3_600_000 * (1 + 20 * noise(id, 'later'))).toISOString(),
      });
    }
  }
  await send(context, project.api_token, batch);
  const draft = (await call('GET', p)).results.find((e) => e.status === 'draft');
  return { project, running, draft };
}

const browser = await launch();
for (const scheme of SCHEMES) {
  const { context, page } = await open(browser, scheme);
  const { project, running, draft } = await seed(context, await session(context));
  const shot = shooter(page, scheme, 'web-experiments', { idle: true });
  const shots = [
    ['list', `/project/${project.id}/experiments`, (p) => p.getByRole('table', { name: 'Experiments' })],
    ['new', `/project/${project.id}/experiments/new`, (p) => p.getByRole('button', { name: 'Create experiment' })],
    [
      'new-existing-flag',
      `/project/${project.id}/experiments/new?flag=${draft.feature_flag.id}`,
      async (p) => {
        await p.getByLabel('Name').fill('Pricing page order, again');
        await p.getByLabel('Variant 1 key').waitFor();
        return p.getByRole('button', { name: 'Create experiment' });
      },
    ],
    [
      'launch',
      `/project/${project.id}/experiments/${draft.id}`,
      async (p) => {
        await p.getByRole('button', { name: 'Launch experiment' }).first().click();
        return p.getByRole('table', { name: /^Changes to the flag/ });
      },
    ],
    ['results', `/project/${project.id}/experiments/${running.id}`, (p) => p.getByRole('table', { name: /^Results of/ })],
    [
      'ship',
      `/project/${project.id}/experiments/${running.id}`,
      async (p) => {
        await p.getByRole('button', { name: 'Ship variant' }).click();
        return p.getByRole('table', { name: /^Changes to the flag/ });
      },
    ],
  ];
  // A dialog covers the window, not the whole page.
  for (const [name, url, ready] of shots) await shot(name, url, ready, { full: !['launch', 'ship'].includes(name) });
  await context.close();
}
await browser.close();
