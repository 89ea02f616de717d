// Screenshots of every page of the web app, light and dark, into docs/screenshots/web-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. On a project without early access
// features it seeds flags with some history, a teammate with a key of her own, early access features, four weeks of
// events (flag evaluations, opt-ins) and a webhook to a receiver of its own (which needs a service started with
// WEBHOOK_ALLOW_PRIVATE=true).
import http from 'node:http';
import { SCHEMES, api, base, launch, noise, open, send, session, shooter, wanted } from './shots.mjs';

const browser = await launch();

/** A webhook receiver for the seeded webhook (answers 204; every tenth delivery gets a 503 first, to show a retry). */
async function receiver() {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(++n % 10 === 3 ? 503 : 204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hooks/service`, close: () => server.close() };
}

async function seed(context, csrf, hookUrl) {
  const call = api(context, csrf);
  const project = (await call('GET', '/api/projects/')).results[0];
  const p = `/api/projects/${project.id}`;
  if ((await call('GET', `${p}/early_access_feature/`)).count > 0) return project;

  // A webhook first, so that the changes below are delivered to it (a service refusing private addresses skips it).
  const hook = await context.request.fetch(`${base}${p}/webhooks/`, {
    method: 'POST',
    headers: { origin: base, 'x-csrf-token': csrf },
    data: { url: hookUrl, kinds: ['feature_flag.changed', 'early_access.stage_changed', 'early_access.enrolled', 'early_access.unenrolled'] },
  });
  if (!hook.ok()) console.warn(`no webhook (start the service with WEBHOOK_ALLOW_PRIVATE=true): ${hook.status()} ${await hook.text()}`);

  const flags = {};
  if ((await call('GET', `${p}/feature_flags/`)).count === 0) {
    flags.checkout = await call('POST', `${p}/feature_flags/`, {
      key: 'new-checkout',
      name: 'The redesigned checkout, released to 30% of users in Europe first',
      filters: {
        groups: [{ properties: [{ key: 'country', type: 'person', operator: 'exact', value: ['DE', 'FR', 'NL'] }], rollout_percentage: 30 }],
        payloads: { true: '{"steps":2}' },
      },
    });
    flags.pricing = await call('POST', `${p}/feature_flags/`, {
      key: 'pricing-page-test',
      name: 'Which pricing page sells more',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'annual-first', rollout_percentage: 25 },
            { key: 'monthly-first', rollout_percentage: 25 },
          ],
        },
      },
    });
    flags.dark = await call('POST', `${p}/feature_flags/`, {
      key: 'dark-mode-editor',
      name: 'Dark theme in the editor',
      active: false,
      filters: { groups: [{ properties: [], rollout_percentage: 0 }] },
    });
    await call('POST', `${p}/feature_flags/`, {
      key: 'search-v2',
      name: '',
      filters: { groups: [{ properties: [{ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }], rollout_percentage: 100 }] },
    });
    // Some history: the rollout widened, the variants renamed, a change made by a deploy script's key.
    await call('PATCH', `${p}/feature_flags/${flags.pricing.id}/`, { name: 'Which pricing page sells more (annual or monthly first)' });
    await call('PATCH', `${p}/feature_flags/${flags.pricing.id}/`, {
      filters: {
        ...flags.pricing.filters,
        multivariate: { variants: flags.pricing.filters.multivariate.variants.map((v) => ({ ...v, rollout_percentage: v.key === 'control' ? 40 : 30 })) },
      },
    });
    const key = await call('POST', '/api/personal_api_keys/', { label: 'Deploy script', scopes: ['feature_flag:write'] });
    await call('PATCH', `${p}/feature_flags/${flags.pricing.id}/`, { active: false }, { authorization: `Bearer ${key.value}` });
    await call('PATCH', `${p}/feature_flags/${flags.pricing.id}/`, { active: true }, { authorization: `Bearer ${key.value}` });
    await call('PATCH', `${p}/feature_flags/${flags.checkout.id}/`, {
      filters: { ...flags.checkout.filters, groups: [{ ...flags.checkout.filters.groups[0], rollout_percentage: 50 }] },
    });
    // A teammate joins: her export key is limited to this project, and she turns the editor's dark theme on.
    const invite = await call('POST', '/api/organization/invites/', { role: 'member', email: 'grace@example.com' });
    const grace = await browser.newContext();
    const joined = await grace.request.post(`${base}/api/invites/${invite.url.split('/invite/')[1]}/accept`, {
      data: { email: 'grace@example.com', name: 'Grace Hopper', password: 'correct horse' },
      headers: { origin: base },
    });
    if (!joined.ok()) throw new Error(`accept the invite: ${joined.status()} ${await joined.text()}`);
    const graceHeaders = { origin: base, 'x-csrf-token': (await joined.json()).csrf_token };
    await call(
      'POST',
      '/api/personal_api_keys/',
      { label: 'Analytics export', scopes: ['event:read', 'person:read'], project_ids: [project.id] },
      graceHeaders,
      grace,
    );
    await call(
      'PATCH',
      `${p}/feature_flags/${flags.dark.id}/`,
      { active: true, filters: { groups: [{ properties: [], rollout_percentage: 10 }] } },
      graceHeaders,
      grace,
    );
    await grace.close();
  }
  const ai = await call('POST', `${p}/early_access_feature/`, {
    name: 'AI summaries',
    description: 'Summaries of long threads, written by a model.',
    stage: 'alpha',
    documentation_url: 'https://docs.example.com/ai-summaries',
  });
  await call('PATCH', `${p}/early_access_feature/${ai.id}/`, { stage: 'beta' });
  await call('PATCH', `${p}/early_access_feature/${ai.id}/`, {
    description: 'Summaries of long threads, written by a model. Ask us to switch it off for your team.',
  });
  await call('POST', `${p}/early_access_feature/`, { name: 'Offline mode', description: 'Keep working without a connection.', stage: 'alpha' });
  await call('POST', `${p}/early_access_feature/`, { name: 'Calendar sync', description: 'Two-way sync with Google and Outlook calendars.', stage: 'concept' });

  // Four weeks of a small shop's events: people browsing (page views, sign-ups, checkouts), the flags' evaluations (for
  // their Usage tab) and opt-ins and opt-outs of AI summaries (for its chart and its list of people). Most people
  // identify themselves after browsing anonymously (`$identify`), so they show as identified, by their email.
  const now = Date.now();
  const day = 86_400_000;
  // The shop's customers are companies too (a group type, which flags may match by).
  const batch = [
    {
      event: '$groupidentify',
      distinct_id: 'ada@example.com',
      timestamp: new Date(now - 28 * day).toISOString(),
      properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme', plan: 'team' } },
    },
  ];
  const NAMES = [
    'ada',
    'grace',
    'linus',
    'margaret',
    'alan',
    'barbara',
    'dennis',
    'frances',
    'ken',
    'radia',
    'tim',
    'katherine',
    'john',
    'hedy',
    'edsger',
    'donald',
    'sophie',
    'niklaus',
    'leslie',
    'annie',
    'guido',
    'yukihiro',
    'bjarne',
    'anders',
    'james',
    'brendan',
    'rasmus',
    'larry',
    'shafi',
    'silvio',
    'whitfield',
    'martin',
    'ivan',
    'susan',
    'joan',
    'evelyn',
    'mary',
    'jean',
    'kay',
    'ruth',
  ];
  const DOMAINS = ['example.com', 'example.org', 'acme.test', 'initech.test'];
  const COUNTRIES = ['DE', 'US', 'FR', 'NL', 'GB', 'ES'];
  const people = NAMES.map((name, i) => {
    const email = i < 2 ? `${name}@example.com` : i === 2 ? 'linus@example.org' : `${name}@${DOMAINS[i % DOMAINS.length]}`;
    return {
      id: i < 3 ? email : `user-${1000 + i * 7}`,
      anon: `anon-${Math.floor(noise('a', i) * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`,
      identified: i % 5 !== 4,
      set: { email, name: name[0].toUpperCase() + name.slice(1), country: COUNTRIES[i % COUNTRIES.length], plan: ['free', 'pro', 'team'][i % 3] },
      since: Math.floor(27 * noise('s', i)),
    };
  });
  const pick = (...parts) => people[Math.floor(noise(...parts) * people.length)];
  const at = (d, i) => new Date(now - d * day - Math.floor(noise('t', d, i) * 20) * 3_600_000 - Math.floor(noise('m', d, i) * 60) * 60_000).toISOString();
  const who = (person, d) => (person.identified && d <= person.since ? person.id : person.anon);
  for (const person of people) {
    if (!person.identified) continue;
    batch.push({
      event: '$identify',
      distinct_id: person.id,
      timestamp: new Date(now - person.since * day - 3_600_000).toISOString(),
      properties: { $anon_distinct_id: person.anon, $set: person.set, $current_url: 'https://shop.example.com/login' },
    });
  }
  const PAGES = ['', 'pricing', 'products/desk-lamp', 'products/standing-desk', 'cart', 'checkout', 'blog/working-from-home'];
  for (let d = 27; d >= 0; d--) {
    const weekend = [0, 6].includes(new Date(now - d * day).getUTCDay());
    const busy = (30 + (27 - d) * 2.5) * (weekend ? 0.6 : 1) * (0.8 + 0.4 * noise('p', d));
    // Browsing.
    for (let i = 0; i < Math.round(busy * 0.8); i++) {
      const person = pick('b', d, i);
      const path = PAGES[Math.floor(noise('pg', d, i) * PAGES.length)];
      const event = path === 'checkout' && noise('c', d, i) < 0.5 ? 'checkout_completed' : noise('su', d, i) < 0.04 ? 'signed_up' : '$pageview';
      batch.push({
        event,
        distinct_id: who(person, d),
        timestamp: at(d, i),
        properties: {
          $current_url: `https://shop.example.com/${path}`,
          $browser: ['Chrome', 'Firefox', 'Safari'][i % 3],
          $os: ['Mac OS X', 'Windows', 'iOS', 'Android'][Math.floor(noise('os', d, i) * 4)],
          ...(event === 'checkout_completed' ? { revenue: Math.round(40 + noise('r', d, i) * 400) } : {}),
          // Until they log in, the shop knows only where they are.
          $set: who(person, d) === person.id ? person.set : { country: person.set.country },
        },
      });
    }
    // The pricing test: more traffic as the weeks go by, weekends quieter; control gets 40–50 %.
    for (let i = 0; i < Math.round(busy); i++) {
      const r = noise('v', d, i);
      batch.push({
        event: '$feature_flag_called',
        distinct_id: who(pick('u', d, i), d),
        timestamp: at(d, i + 1000),
        properties: {
          $feature_flag: 'pricing-page-test',
          $feature_flag_response: r < 0.45 ? 'control' : r < 0.75 ? 'annual-first' : 'monthly-first',
          $current_url: 'https://shop.example.com/pricing',
        },
      });
    }
    // The checkout: 30 % of Europe, then 50 % from ten days ago.
    const checkout = Math.round((d > 10 ? 12 : 22) * (0.7 + 0.6 * noise('c', d)));
    for (let i = 0; i < checkout * 3; i++)
      batch.push({
        event: '$feature_flag_called',
        distinct_id: who(pick('cu', d, i), d),
        timestamp: at(d, i + 2000),
        properties: { $feature_flag: 'new-checkout', $feature_flag_response: i < checkout, $current_url: 'https://shop.example.com/checkout' },
      });
  }
  // Opt-ins (from the app's settings, so by people who logged in) since the feature went to beta two weeks ago, a few
  // opt-outs; the last choice of each person counts.
  const optedIn = people.filter((person) => person.identified).slice(0, 28);
  optedIn.forEach((person, i) => {
    const d = Math.min(person.since, Math.floor(14 * (1 - Math.sqrt(noise('e', i)))));
    batch.push({
      event: '$feature_enrollment_update',
      distinct_id: who(person, d),
      timestamp: at(d, i + 3000),
      properties: { $feature_flag: ai.feature_flag.key, $feature_enrollment: true, $current_url: 'https://shop.example.com/settings/labs' },
    });
    if (i % 7 === 5)
      batch.push({
        event: '$feature_enrollment_update',
        distinct_id: person.id,
        timestamp: at(Math.max(0, d - 1), i + 4000),
        properties: { $feature_flag: ai.feature_flag.key, $feature_enrollment: false, $current_url: 'https://shop.example.com/settings/labs' },
      });
  });
  batch.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  await send(context, project.api_token, batch);
  // Ingestion and the webhook's deliveries run in the background: wait until the enrollments are in.
  for (let tries = 0; tries < 100; tries++) {
    const { counts } = await call('GET', `${p}/early_access_feature/${ai.id}/enrollments/?limit=1`);
    if (counts.enrolled + counts.opted_out >= optedIn.length) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return project;
}

const pages = (pid, ids) => [
  ['flags', `/project/${pid}/feature_flags`],
  ['flag-new', `/project/${pid}/feature_flags/new`],
  ['flag-edit', `/project/${pid}/feature_flags/${ids.pricing}`],
  [
    'flag-test',
    `/project/${pid}/feature_flags/${ids.checkout}?tab=test`,
    async (page) => {
      await page.getByLabel('Distinct ID').fill('ada@example.com');
      await page.getByRole('button', { name: 'Evaluate' }).click();
      await page.getByText('Reason').waitFor();
    },
  ],
  ['flag-usage', `/project/${pid}/feature_flags/${ids.pricing}?tab=usage`, (page) => page.getByRole('img', { name: /^Evaluations/ }).waitFor()],
  ['flag-history', `/project/${pid}/feature_flags/${ids.pricing}?tab=history`],
  ['early-access', `/project/${pid}/early_access`],
  ['early-access-new', `/project/${pid}/early_access/new`],
  ['early-access-feature', `/project/${pid}/early_access/${ids.ai}`, (page) => page.getByRole('img', { name: /^Opt-ins/ }).waitFor()],
  ['early-access-history', `/project/${pid}/early_access/${ids.ai}?tab=history`],
  ['events', `/project/${pid}/events`],
  ['people', `/project/${pid}/persons`],
  ['person', `/project/${pid}/persons/${encodeURIComponent('ada@example.com')}`],
  ['activity', `/project/${pid}/activity`, (page) => page.getByRole('region', { name: 'Changes' }).waitFor()],
  ['settings', `/project/${pid}/settings/project`],
  ['settings-members', `/project/${pid}/settings/members`],
  [
    'settings-members-reset',
    `/project/${pid}/settings/members`,
    async (page) => {
      await page.getByRole('button', { name: 'Reset password of grace@example.com' }).click();
      await page.getByRole('dialog', { name: 'Password reset link' }).waitFor();
    },
  ],
  ['settings-account', `/project/${pid}/settings/account`],
  ['settings-keys', `/project/${pid}/settings/keys`],
  [
    'settings-webhooks',
    `/project/${pid}/settings/webhooks`,
    async (page) => {
      await page.getByRole('button', { name: 'Deliveries' }).first().click();
      await page.getByRole('table', { name: 'Deliveries' }).waitFor();
    },
  ],
];

/** The ids of the seeded flags and feature, by key and name. */
async function seededIds(context, pid) {
  const get = async (url) => (await context.request.get(`${base}${url}`)).json();
  const flags = (await get(`/api/projects/${pid}/feature_flags/?limit=100`)).results;
  const features = (await get(`/api/projects/${pid}/early_access_feature/?limit=100`)).results;
  const flag = (key) => flags.find((f) => f.key === key)?.id;
  return { checkout: flag('new-checkout'), pricing: flag('pricing-page-test'), ai: features.find((f) => f.name === 'AI summaries')?.id };
}

const hooks = await receiver();
for (const scheme of SCHEMES) {
  const { context, page } = await open(browser, scheme);
  const csrf = await session(context);
  const project = await seed(context, csrf, hooks.url);
  const ids = await seededIds(context, project.id);
  // The login page, and the page a member opens with the link an admin made for them, are seen logged out.
  const anonymous = await open(browser, scheme);
  const shotOut = shooter(anonymous.page, scheme, 'web', { full: false });
  await shotOut('login', '/login', (p) => p.getByRole('button', { name: 'Log in' }));
  if (wanted('reset-password')) {
    // The new link voids Grace's earlier one.
    const members = (await api(context, csrf)('GET', '/api/organization/members/')).results;
    const grace = members.find((m) => m.email === 'grace@example.com');
    const made = await api(context, csrf)('POST', `/api/organization/members/${grace.id}/password_reset/`);
    await shotOut('reset-password', made.url, (p) => p.getByRole('heading', { name: 'Set a new password' }));
  }
  await anonymous.context.close();
  const shot = shooter(page, scheme, 'web', { idle: true });
  for (const [name, url, act] of pages(project.id, ids)) await shot(name, url, act);
  await context.close();
}
await browser.close();
hooks.close();
