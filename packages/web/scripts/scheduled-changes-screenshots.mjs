// Screenshots of a flag's Schedule tab, light and dark, into docs/screenshots/web-flag-schedule-<state>-<scheme>.png:
// nothing scheduled, a refusal next to its field, the ramp form, the list (pending, applied, cancelled), loading and
// a failed load (the list's request held, or answered 500, in the browser), the edit dialog of a pending change (and
// its refusal of a time in the past), and the History tab with the scheduling recorded.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/scheduled-changes-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. It makes two flags of its own
// (schedule-empty-<n>, schedule-demo-<n>); the demo flag gets a change applied two seconds after it is scheduled.
import { SCHEMES, api, failure, launch, open, session, shooter } from './shots.mjs';

const DAY = 86_400_000;
/** A whole hour `days` from now. */
const inDays = (days) => {
  const at = new Date(Date.now() + days * DAY);
  at.setMinutes(0, 0, 0);
  return at.toISOString();
};

async function seed(context, csrf) {
  const call = api(context, csrf);
  const project = (await call('GET', '/api/projects/')).results[0];
  const flags = `/api/projects/${project.id}/feature_flags/`;
  const n = Date.now().toString(36);
  const groups = [{ properties: [], rollout_percentage: 5 }];
  const empty = await call('POST', flags, { key: `schedule-empty-${n}`, name: 'New checkout', filters: { groups } });
  const demo = await call('POST', flags, { key: `schedule-demo-${n}`, name: 'New checkout, ramped up', filters: { groups } });
  const changes = `${flags}${demo.id}/scheduled_changes/`;
  await call('POST', changes, { scheduled_at: new Date(Date.now() + 2_000).toISOString(), payload: { rollout_percentage: 5, active: true } });
  await call('POST', changes, { ramp: [1, 3, 7].map((days, i) => ({ scheduled_at: inDays(days), rollout_percentage: [10, 50, 100][i] })) });
  const [cancelled] = (await call('POST', changes, { scheduled_at: inDays(2), payload: { active: false } })).results;
  await call('DELETE', `${changes}${cancelled.id}/`);
  const ramp = (await call('GET', changes)).results.filter((change) => change.ramp_id);
  await call('PATCH', `${changes}${ramp[1].id}/`, { payload: { rollout_percentage: 40 } });
  // The first change is applied by the service's job once due.
  for (let i = 0; i < 100; i++) {
    const { results } = await call('GET', changes);
    if (results[0].status !== 'pending') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { project, empty, demo };
}

const browser = await launch();
const seeder = await browser.newContext();
const { project, empty, demo } = await seed(seeder, await session(seeder));
await seeder.close();
for (const scheme of SCHEMES) {
  const { context, page } = await open(browser, scheme);
  await session(context);
  const shot = shooter(page, scheme, 'web-flag-schedule', { idle: true });
  const tab = (flag) => `/project/${project.id}/feature_flags/${flag.id}?tab=schedule`;
  const list = (p) => p.getByRole('region', { name: 'Scheduled changes' });
  await shot('empty', tab(empty), (p) => p.getByText('Nothing scheduled'));
  await shot('error-in-the-past', tab(empty), async (p) => {
    await p.getByText('Nothing scheduled').waitFor();
    const yesterday = new Date(Date.now() - DAY);
    await p.getByLabel('When').fill(new Date(yesterday.getTime() - yesterday.getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
    await p.getByRole('button', { name: 'Schedule change' }).click();
    return p.getByText('The scheduled time is in the past');
  });
  await shot('ramp-form', tab(empty), async (p) => {
    await p.getByText('Nothing scheduled').waitFor();
    await p.locator('label', { hasText: /^Ramp$/ }).click();
    return p.getByLabel('Step 3: when');
  });
  await shot('list', tab(demo), (p) => list(p).getByRole('table'));
  const editFirst = async (p) => {
    await list(p)
      .getByRole('button', { name: /^Edit the change on / })
      .first()
      .click();
    return p.getByRole('dialog', { name: 'Edit the scheduled change' });
  };
  await shot('edit', tab(demo), async (p) => (await editFirst(p)).getByLabel('Rollout (%)'));
  await shot('edit-error', tab(demo), async (p) => {
    const dialog = await editFirst(p);
    const yesterday = new Date(Date.now() - DAY);
    await dialog.getByLabel('When').fill(new Date(yesterday.getTime() - yesterday.getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
    await dialog.getByRole('button', { name: 'Save' }).click();
    return dialog.getByText('The scheduled time is in the past');
  });
  await shot('history', `/project/${project.id}/feature_flags/${demo.id}?tab=history`, (p) => p.getByText(/Scheduled change #/));
  const changes = '**/scheduled_changes/?*';
  await shot('loading', tab(demo), (p) => list(p).locator('.mantine-Skeleton-root'), { api: { url: changes, answer: 'hold' } });
  const error = failure(500, 'error', 'Something went wrong.');
  await shot('load-error', tab(demo), (p) => p.getByText('Could not load the scheduled changes'), { api: { url: changes, answer: error } });
  await context.close();
}
await browser.close();
