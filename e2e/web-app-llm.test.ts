import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogIn, expectAccessible, signUp, startWebApp, type WebApp } from './support/web-app';

// The web app's LLM section in Chromium against a started service: a new project is told how to connect;
// generations and an agent trace sent through the real capture API (/batch/, as @posthog/ai sends them) show in the
// overview, the generations and traces lists and the trace view, whose tree selects a call and shows its messages as a
// chat; prompts are created, versioned, labelled and deleted. Every page passes axe. The tests build on each other.

let app: WebApp;
let context: BrowserContext;
let page: Page;
let projectId: number;
const owner = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const TRACE = 'trace-refund-4821';
const SESSION = '0192c4a8-1001-7000-8000-000000000001';

const now = Date.now();
const at = (msAgo: number) => new Date(now - msAgo).toISOString();
const system = 'You are the support assistant of Example Shop.';
const question = 'I was charged twice for order #4821.';
const toolCall = { type: 'function', id: 'call_7Qx', function: { name: 'lookup_order', arguments: '{"order_id":"4821"}' } };
const answer = 'I have refunded the second charge of $42.50.';
const common = { $ai_trace_id: TRACE, $session_id: SESSION };
const batch = [
  { event: '$ai_trace', distinct_id: 'grace', timestamp: at(60_000), properties: { ...common, $ai_span_name: 'support-agent', $ai_latency: 6.4 } },
  {
    event: '$ai_generation',
    distinct_id: 'grace',
    timestamp: at(59_000),
    properties: {
      ...common,
      $ai_span_id: 'gen-plan',
      $ai_parent_id: TRACE,
      $ai_model: 'gpt-4o-mini',
      $ai_provider: 'openai',
      $ai_input_tokens: 400,
      $ai_output_tokens: 40,
      $ai_latency: 1.9,
      $ai_input: [
        { role: 'system', content: system },
        { role: 'user', content: question },
      ],
      $ai_output_choices: [{ role: 'assistant', content: [toolCall] }],
    },
  },
  {
    event: '$ai_generation',
    distinct_id: 'grace',
    timestamp: at(56_000),
    properties: {
      ...common,
      $ai_span_id: 'gen-answer',
      $ai_parent_id: TRACE,
      $ai_model: 'claude-sonnet-4-5',
      $ai_provider: 'anthropic',
      $ai_input_tokens: 1200,
      $ai_output_tokens: 60,
      $ai_latency: 3.4,
      $ai_input: [
        { role: 'system', content: system },
        { role: 'user', content: question },
        { role: 'assistant', content: [toolCall] },
        { role: 'tool', tool_call_id: 'call_7Qx', content: '{"charges":2}' },
      ],
      $ai_output_choices: [{ role: 'assistant', content: [{ type: 'text', text: answer }] }],
    },
  },
  // A call of another day that failed, in a trace of its own.
  {
    event: '$ai_generation',
    distinct_id: 'linus',
    timestamp: at(86_400_000 + 3_600_000),
    properties: {
      $ai_trace_id: 'trace-failed',
      $ai_model: 'gpt-4o',
      $ai_provider: 'openai',
      $ai_input_tokens: 10,
      $ai_output_tokens: 0,
      $ai_latency: 0.4,
      $ai_is_error: true,
      $ai_http_status: 429,
      $ai_error: 'Rate limit reached for requests',
    },
  },
];

beforeAll(async () => {
  app = await startWebApp();
  projectId = app.svc.projectId;
  await signUp(app.base, owner);
  context = await app.newContext();
  await apiLogIn(context, app.base, owner.email, owner.password);
  page = await context.newPage();
});

afterAll(() => app?.stop());

const llmNav = () => page.getByRole('navigation', { name: 'LLM observability' });

describe('LLM in the web app', () => {
  it('tells a new project how to connect', async () => {
    await page.goto(`/project/${projectId}/feature_flags`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'LLM' }).click();
    await page.getByRole('heading', { name: 'LLM', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No LLM calls yet' }).waitFor();
    expect(await page.getByText('/i/v0/ai/otel').textContent()).toContain(`${app.base}/i/v0/ai/otel`);
    await expectAccessible(page, 'the empty LLM overview');
  });

  it('shows the calls sent through /batch/ in the overview: totals and a row per model', async () => {
    const res = await fetch(`${app.base}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: app.svc.token, batch }),
    });
    expect(res.status).toBe(200);
    await page.reload();
    await page.getByRole('img', { name: /^Cost per day/ }).waitFor();
    const stat = (label: string) => page.getByRole('group', { name: label }).innerText();
    expect(await stat('Calls')).toContain('3');
    expect(await stat('Error rate')).toContain('33.3%');
    const models = page.getByRole('table', { name: 'By model' });
    expect(await models.getByRole('row').count()).toBe(4);
    const mini = models.getByRole('row', { name: /gpt-4o-mini/ });
    expect(await mini.innerText()).toMatch(/gpt-4o-mini\s+1\s+400\s+40/);
    await page.getByRole('img', { name: /^Latency per day/ }).waitFor();
    await expectAccessible(page, 'the LLM overview');
  });

  it('lists traces, filtered to those that failed', async () => {
    await llmNav().getByRole('link', { name: 'Traces' }).click();
    const table = page.getByRole('table', { name: 'Traces' });
    await table.waitFor();
    const agent = table.getByRole('row', { name: /support-agent/ });
    expect(await agent.innerText()).toMatch(/grace[\s\S]*2[\s\S]*1,600 \/ 100[\s\S]*6\.40 s/);
    expect(await table.getByRole('row').count()).toBe(3);
    await expectAccessible(page, 'the traces list');
    await page.getByRole('checkbox', { name: 'Errors only' }).check();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.innerText()).toContain('trace-failed');
    expect(new URL(page.url()).searchParams.get('is_error')).toMatch(/^"?true"?$/);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
  });

  it('shows a trace as a tree, the selected call as a chat, with links to the person and the replay', async () => {
    await page.getByRole('table', { name: 'Traces' }).getByRole('link', { name: 'support-agent' }).click();
    await page.getByRole('heading', { name: 'support-agent', level: 1 }).waitFor();
    const tree = page.getByRole('navigation', { name: 'Spans and generations' });
    expect(await tree.getByRole('button').allInnerTexts()).toEqual([
      expect.stringMatching(/trace\s*support-agent/i),
      expect.stringMatching(/generation\s*gpt-4o-mini/i),
      expect.stringMatching(/generation\s*claude-sonnet-4-5/i),
    ]);
    // The first call is selected: its output is a tool call.
    await page.getByText('Calls tool lookup_order').waitFor();
    expect(await tree.getByRole('button', { name: /gpt-4o-mini/ }).getAttribute('aria-current')).toBe('true');
    await tree.getByRole('button', { name: /claude-sonnet-4-5/ }).click();
    const input = page.getByRole('list', { name: 'Input messages' });
    await input.getByText('Tool result').waitFor();
    expect((await input.getByRole('listitem').allInnerTexts()).map((t) => t.split('\n')[0]!.toLowerCase())).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(await page.getByRole('list', { name: 'Output messages' }).innerText()).toContain(answer);
    expect(page.url()).toContain('node=');
    expect(await page.getByRole('link', { name: 'View person' }).getAttribute('href')).toBe(`/project/${projectId}/persons/grace`);
    expect(await page.getByRole('link', { name: 'Watch replay' }).getAttribute('href')).toContain(`/project/${projectId}/replays/${SESSION}`);
    expect(await page.getByRole('link', { name: 'Their errors' }).getAttribute('href')).toContain('distinct_id=grace');
    await expectAccessible(page, 'a trace');
    const dark = await (await app.newContext({ colorScheme: 'dark' })).newPage();
    await apiLogIn(dark.context(), app.base, owner.email, owner.password);
    await dark.goto(page.url());
    await dark.getByRole('list', { name: 'Output messages' }).waitFor();
    await expectAccessible(dark, 'a trace, dark');
    await dark.context().close();
  });

  it('lists generations, filtered by model, each leading to its place in its trace', async () => {
    await page.goto(`/project/${projectId}/llm/generations`);
    const table = page.getByRole('table', { name: 'Generations' });
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(4);
    await expectAccessible(page, 'the generations list');
    await page.getByRole('textbox', { name: 'Model' }).fill('claude-sonnet-4-5');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table.getByRole('link', { name: 'claude-sonnet-4-5' }).click();
    await page.getByRole('list', { name: 'Output messages' }).getByText(answer).waitFor();
  });

  it('creates a prompt, adds a version, moves a label and deletes it, asking first', async () => {
    await page.goto(`/project/${projectId}/llm/prompts`);
    await page.getByRole('heading', { name: 'No prompts yet' }).waitFor();
    await expectAccessible(page, 'the empty prompts list');
    await page.getByRole('button', { name: 'New prompt' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New prompt' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('bad name!');
    await dialog.getByRole('textbox', { name: 'Prompt' }).fill('Answer {{name}} briefly.');
    await dialog.getByRole('button', { name: 'Create prompt' }).click();
    // The API's refusal shows beside the field.
    await dialog
      .getByText(/letters, digits|pattern|must match/i)
      .first()
      .waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('support-answer');
    await dialog.getByLabel('Labels').fill('production');
    await dialog.getByLabel('Labels').press('Enter');
    await expectAccessible(page, 'the new prompt dialog');
    await dialog.getByRole('button', { name: 'Create prompt' }).click();
    await page.getByRole('heading', { name: 'support-answer', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New version' }).click();
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Answer {{name}} briefly and kindly.');
    await page.getByRole('button', { name: 'Save version 2' }).click();
    await page.getByText('Version 2 ·').waitFor();
    const stored = await app.svc.api(`/api/projects/${projectId}/llm_prompts/?search=support-answer`);
    expect(stored.results[0]).toMatchObject({ version: 2, prompt: 'Answer {{name}} briefly and kindly.', labels: [{ name: 'production', version: 1 }] });
    await expectAccessible(page, 'a prompt');

    await page.getByRole('combobox', { name: 'Version' }).selectOption('2');
    await page.getByRole('button', { name: 'Point label here' }).click();
    await expect
      .poll(async () => (await app.svc.api(`/api/projects/${projectId}/llm_prompts/${stored.results[0].id}/`)).labels)
      .toEqual([{ name: 'production', version: 2 }]);

    await page.getByRole('button', { name: 'Remove the label production' }).click();
    const ask = page.getByRole('dialog', { name: 'Remove the label production?' });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect((await app.svc.api(`/api/projects/${projectId}/llm_prompts/${stored.results[0].id}/`)).labels).toHaveLength(1);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete support-answer?' }).getByRole('button', { name: 'Delete prompt' }).click();
    await page.getByRole('heading', { name: 'No prompts yet' }).waitFor();
    expect((await app.svc.api(`/api/projects/${projectId}/llm_prompts/`)).count).toBe(0);
  });
});
