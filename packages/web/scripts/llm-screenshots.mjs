// Screenshots of the LLM pages, light and dark, into docs/screenshots/web-llm-<page>-<scheme>.png: the overview, the
// generations and traces lists, a trace with its chat, the prompts and a prompt; the empty, loading and error states.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/llm-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. A project without generations gets
// two weeks of them through /batch/ (llm-seed.mjs), an agent trace and two prompts; the empty pages are those of a
// project of their own. Loading and error states hold or fail the API answer in the browser.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { AGENT_TRACE, PROMPTS, agentEvents, usageEvents } from './llm-seed.mjs';

const { values: args, positionals: only } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string', default: 'http://localhost:8000' },
    email: { type: 'string', default: 'ada@example.com' },
    password: { type: 'string', default: 'correct horse' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
const { base, email, password } = args;
const out = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
fs.mkdirSync(out, { recursive: true });

async function session(context) {
  const setup = await (await context.request.get(`${base}/api/setup`)).json();
  const res = setup.needs_first_account
    ? await context.request.post(`${base}/api/signup`, { data: { email, password, name: 'Ada Lovelace' }, headers: { origin: base } })
    : await context.request.post(`${base}/api/login`, { data: { email, password }, headers: { origin: base } });
  if (!res.ok()) throw new Error(`could not log in: ${res.status()} ${await res.text()}`);
  return (await res.json()).csrf_token;
}

async function seed(context, csrf) {
  const headers = { origin: base, 'x-csrf-token': csrf };
  const call = async (method, url, data) => {
    const res = await context.request.fetch(`${base}${url}`, { method, data, headers });
    if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
    return res.status() === 204 ? null : res.json();
  };
  const projects = (await call('GET', '/api/projects/')).results;
  const project = projects[0];
  const empty = projects.find((p) => p.name === 'Mobile app') ?? (await call('POST', '/api/projects/', { name: 'Mobile app' }));
  const p = `/api/projects/${project.id}`;
  const prompts = (await call('GET', `${p}/llm_prompts/`)).results;
  if ((await call('GET', `${p}/llm/generations/?limit=1`)).count > 0) return { project, empty, prompt: prompts.find((x) => x.name === 'support-system') };
  const batch = [...usageEvents(), ...agentEvents(Date.now(), '0192c4a8-1001-7000-8000-000000000001')];
  for (let i = 0; i < batch.length; i += 200) {
    const res = await context.request.post(`${base}/batch/`, { data: { api_key: project.api_token, batch: batch.slice(i, i + 200) } });
    if (!res.ok()) throw new Error(`/batch/: ${res.status()} ${await res.text()}`);
  }
  let prompt;
  for (const def of PROMPTS) {
    const labelsOf = (v) =>
      Object.entries(def.labels)
        .filter(([, n]) => n === v)
        .map(([l]) => l);
    const created = await call('POST', `${p}/llm_prompts/`, { name: def.name, prompt: def.versions[0], labels: labelsOf(1) });
    for (const [i, text] of def.versions.slice(1).entries())
      await call('POST', `${p}/llm_prompts/${created.id}/versions/`, { prompt: text, labels: labelsOf(i + 2) });
    if (def.name === 'support-system') prompt = created;
  }
  return { project, empty, prompt };
}

const browser = await chromium.launch({
  executablePath: args.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
for (const scheme of ['light', 'dark']) {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
  const csrf = await session(context);
  const { project, empty, prompt } = await seed(context, csrf);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${scheme}] page error: ${error.message}`));
  page.on('console', (msg) => msg.type() === 'error' && console.error(`[${scheme}] console: ${msg.text()}`));
  const shot = async (name, url, ready, { full = true, api } = {}) => {
    if (only.length && !only.includes(name)) return;
    // `api`: what the LLM API answers here: 'hold' (never: the loading state) or 'fail' (503: the error state).
    const handler = api
      ? (route) =>
          api === 'fail'
            ? route.fulfill({
                status: 503,
                contentType: 'application/json',
                body: JSON.stringify({
                  type: 'server_error',
                  code: 'unavailable',
                  detail: 'The database is not available. Try again in a moment.',
                  attr: null,
                }),
              })
            : undefined
      : undefined;
    if (api) await page.route(/\/api\/projects\/\d+\/(llm|llm_prompts)\//, handler);
    await page.goto(`${base}${url}`);
    await (await ready(page)).waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(out, `web-llm-${name}-${scheme}.png`), fullPage: full });
    if (api) await page.unroute(/\/api\/projects\/\d+\/(llm|llm_prompts)\//, handler);
    console.log(`web-llm-${name}-${scheme}.png`);
  };
  const pid = project.id;
  await shot('overview', `/project/${pid}/llm?date_from=-14d`, (p) => p.getByRole('img', { name: /^Latency per day/ }));
  await shot('generations', `/project/${pid}/llm/generations`, (p) => p.getByRole('table', { name: 'Generations' }));
  await shot('traces', `/project/${pid}/llm/traces`, (p) => p.getByRole('table', { name: 'Traces' }));
  await shot('trace', `/project/${pid}/llm/traces/${AGENT_TRACE}`, (p) => p.getByRole('list', { name: 'Output messages' }));
  await shot('trace-chat', `/project/${pid}/llm/traces/${AGENT_TRACE}`, async (p) => {
    await p
      .getByRole('navigation', { name: 'Spans and generations' })
      .getByRole('button', { name: /claude-sonnet-4-5/ })
      .click();
    return p.getByText('Tool result');
  });
  await shot('trace-span', `/project/${pid}/llm/traces/${AGENT_TRACE}`, async (p) => {
    await p
      .getByRole('navigation', { name: 'Spans and generations' })
      .getByRole('button', { name: /lookup_order/ })
      .click();
    return p.getByRole('heading', { name: 'Output state' });
  });
  await shot('prompts', `/project/${pid}/llm/prompts`, (p) => p.getByRole('table', { name: 'Prompts' }));
  await shot('prompt', `/project/${pid}/llm/prompts/${prompt.id}`, (p) => p.getByRole('heading', { name: 'Versions' }));
  await shot(
    'prompt-new',
    `/project/${pid}/llm/prompts`,
    async (p) => {
      await p.getByRole('button', { name: 'New prompt' }).first().click();
      return p.getByRole('dialog', { name: 'New prompt' });
    },
    { full: false },
  );
  await shot('trace-loading', `/project/${pid}/llm/traces/${AGENT_TRACE}`, (p) => p.getByRole('status'), { full: false, api: 'hold' });
  await shot('trace-error', `/project/${pid}/llm/traces/${AGENT_TRACE}`, (p) => p.getByRole('alert'), { full: false, api: 'fail' });
  await shot('empty', `/project/${empty.id}/llm`, (p) => p.getByRole('heading', { name: 'No LLM calls yet' }));
  await shot('prompts-empty', `/project/${empty.id}/llm/prompts`, (p) => p.getByRole('heading', { name: 'No prompts yet' }), { full: false });
  await shot('loading', `/project/${pid}/llm/traces`, (p) => p.locator('[aria-busy]').first(), { full: false, api: 'hold' });
  await shot('error', `/project/${pid}/llm`, (p) => p.getByRole('alert'), { full: false, api: 'fail' });
  await context.close();
}
await browser.close();
console.log(`wrote ${out}web-llm-*.png`);
