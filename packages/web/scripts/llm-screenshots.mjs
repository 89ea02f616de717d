// Screenshots of the LLM pages, light and dark, into docs/screenshots/web-llm-<page>-<scheme>.png: the overview, the
// generations and traces lists, a trace with its chat, the prompts and a prompt; the empty, loading and error states.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/llm-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. A project without generations gets
// two weeks of them through /batch/ (llm-seed.mjs), an agent trace and two prompts; the empty pages are those of a
// project of their own. Loading and error states hold or fail the API answer in the browser.
import { AGENT_TRACE, PROMPTS, agentEvents, usageEvents } from './llm-seed.mjs';
import { SCHEMES, api, failure, launch, open, projects, send, session, shooter } from './shots.mjs';

async function seed(context, csrf) {
  const call = api(context, csrf);
  const { project, empty } = await projects(call);
  const p = `/api/projects/${project.id}`;
  const prompts = (await call('GET', `${p}/llm_prompts/`)).results;
  if ((await call('GET', `${p}/llm/generations/?limit=1`)).count > 0) return { project, empty, prompt: prompts.find((x) => x.name === 'support-system') };
  const batch = [...usageEvents(), ...agentEvents(Date.now(), '0192c4a8-1001-7000-8000-000000000001')];
  await send(context, project.api_token, batch, 200);
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

const browser = await launch();
// Loading and error states: what the LLM API answers in the browser, never or a 503.
const LLM_API = /\/api\/projects\/\d+\/(llm|llm_prompts)\//;
const hold = { url: LLM_API, answer: 'hold' };
const fail = { url: LLM_API, answer: failure(503, 'unavailable', 'The database is not available. Try again in a moment.') };
for (const scheme of SCHEMES) {
  const { context, page } = await open(browser, scheme, 900);
  const { project, empty, prompt } = await seed(context, await session(context));
  const shot = shooter(page, scheme, 'web-llm', { pause: 500 });
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
  await shot('trace-loading', `/project/${pid}/llm/traces/${AGENT_TRACE}`, (p) => p.getByRole('status'), { full: false, api: hold });
  await shot('trace-error', `/project/${pid}/llm/traces/${AGENT_TRACE}`, (p) => p.getByRole('alert'), { full: false, api: fail });
  await shot('empty', `/project/${empty.id}/llm`, (p) => p.getByRole('heading', { name: 'No LLM calls yet' }));
  await shot('prompts-empty', `/project/${empty.id}/llm/prompts`, (p) => p.getByRole('heading', { name: 'No prompts yet' }), { full: false });
  await shot('loading', `/project/${pid}/llm/traces`, (p) => p.locator('[aria-busy]'), { full: false, api: hold });
  await shot('error', `/project/${pid}/llm`, (p) => p.getByRole('alert'), { full: false, api: fail });
  await context.close();
}
await browser.close();
