import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// Prompts managed through /api/projects/:id/llm_prompts/: versions appended, labels moved, changes logged.
let s: TestService;
let base: string;
beforeAll(async () => {
  s = await startService();
  base = `/api/projects/${s.projectId}/llm_prompts`;
});
afterAll(() => s.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: object, headers = s.headers) => s.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const ok = async (method: Method, url: string, payload?: object) => {
  const res = await call(method, url, payload);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.statusCode === 204 ? undefined : res.json();
};

describe('/api/projects/:id/llm_prompts/', () => {
  it('creates a prompt at version 1, appends versions, and lists versions newest first with their labels', async () => {
    const created = await ok('POST', `${base}/`, {
      name: 'summarize',
      prompt: 'Summarize: {{text}}',
      config: { model: 'gpt-4o-mini' },
      labels: ['production'],
    });
    expect(created).toMatchObject({
      name: 'summarize',
      version: 1,
      prompt: 'Summarize: {{text}}',
      config: { model: 'gpt-4o-mini' },
      labels: [{ name: 'production', version: 1 }],
    });

    const next = await ok('POST', `${base}/${created.id}/versions/`, { prompt: 'Summarize briefly: {{text}}', labels: ['staging'] });
    expect(next).toMatchObject({ id: created.id, version: 2, prompt: 'Summarize briefly: {{text}}', config: null });
    expect(next.labels).toEqual([
      { name: 'production', version: 1 },
      { name: 'staging', version: 2 },
    ]);
    expect(await ok('GET', `${base}/${created.id}/`)).toEqual(next);

    const { results } = await ok('GET', `${base}/${created.id}/versions/`);
    expect(results.map((v: { version: number; labels: string[] }) => [v.version, v.labels])).toEqual([
      [2, ['staging']],
      [1, ['production']],
    ]);
    expect(results[1]).toMatchObject({ prompt: 'Summarize: {{text}}', config: { model: 'gpt-4o-mini' } });
  });

  it('moves a label between versions, removes it, and refuses a version that does not exist', async () => {
    const { id } = await ok('POST', `${base}/`, { name: 'classify', prompt: 'v1', labels: ['production'] });
    await ok('POST', `${base}/${id}/versions/`, { prompt: 'v2' });
    expect((await ok('PUT', `${base}/${id}/labels/production/`, { version: 2 })).labels).toEqual([{ name: 'production', version: 2 }]);

    const missing = await call('PUT', `${base}/${id}/labels/production/`, { version: 3 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'invalid_request', code: 'not_found', detail: 'The prompt has no version 3.' });

    expect((await ok('DELETE', `${base}/${id}/labels/production/`)).labels).toEqual([]);
    expect((await call('DELETE', `${base}/${id}/labels/production/`)).statusCode).toBe(404);
  });

  it('lists the newest version of each prompt by name, with search and paging', async () => {
    for (const name of ['list-b', 'list-a', 'list-c']) await ok('POST', `${base}/`, { name, prompt: `${name} text` });
    const page = await ok('GET', `${base}/?search=LIST-&limit=2`);
    expect(page.count).toBe(3);
    expect(page.results.map((p: { name: string }) => p.name)).toEqual(['list-a', 'list-b']);
    expect(page.next).toContain('offset=2');
  });

  it('rejects a taken name (409), bad names, labels and configs (400 naming the field); deletes with its versions', async () => {
    const { id } = await ok('POST', `${base}/`, { name: 'unique-name', prompt: 'x' });
    const taken = await call('POST', `${base}/`, { name: 'unique-name', prompt: 'y' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ type: 'invalid_request', attr: 'name' });

    for (const [payload, attr] of [
      [{ name: 'has space', prompt: 'x' }, 'name'],
      [{ name: '', prompt: 'x' }, 'name'],
      [{ name: 'ok-name', prompt: 'a\u0000b' }, 'prompt'],
      [{ name: 'ok-name', prompt: 'x', labels: ['not ok'] }, 'labels__0'],
      [{ name: 'ok-name', prompt: 'x', config: [1] }, 'config'],
      [{ name: 'ok-name' }, 'prompt'],
    ] as const) {
      const res = await call('POST', `${base}/`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().attr, res.body).toBe(attr);
    }
    expect((await call('POST', `${base}/${id}/versions/`, { prompt: 'y', labels: ['production', 'x'.repeat(65)] })).statusCode).toBe(400);

    await ok('DELETE', `${base}/${id}/`);
    expect((await call('GET', `${base}/${id}/`)).statusCode).toBe(404);
    expect(await s.services.db.kysely.selectFrom('llm_prompt_versions').select('id').where('prompt_id', '=', id).execute()).toEqual([]);
    // Two creations of one name at once: one prompt, the other a 409.
    const both = await Promise.all([1, 2].map((n) => call('POST', `${base}/`, { name: 'raced', prompt: `${n}` })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    // The name is free again.
    await ok('POST', `${base}/`, { name: 'unique-name', prompt: 'again' });
  });

  it('keeps projects apart: another project’s prompt is a 404, and a key limited to it cannot reach this one', async () => {
    const { id } = await ok('POST', `${base}/`, { name: 'private', prompt: 'x' });
    const other = await ok('POST', '/api/projects/', { name: 'Other' });
    const otherBase = `/api/projects/${other.id}/llm_prompts`;
    expect((await call('GET', `${otherBase}/${id}/`)).statusCode).toBe(404);
    expect((await call('POST', `${otherBase}/${id}/versions/`, { prompt: 'y' })).statusCode).toBe(404);
    expect((await call('PUT', `${otherBase}/${id}/labels/production/`, { version: 1 })).statusCode).toBe(404);
    const limited = s.auth(await s.keyWith(['llm:write'], [other.id]));
    expect((await call('GET', `${base}/${id}/`, undefined, limited)).statusCode).toBe(403);
  });

  it('reads with llm:read, writes with llm:write', async () => {
    const { id } = await ok('POST', `${base}/`, { name: 'scoped', prompt: 'x' });
    const reader = s.auth(await s.keyWith(['llm:read']));
    expect((await call('GET', `${base}/${id}/versions/`, undefined, reader)).statusCode).toBe(200);
    const denied = await call('POST', `${base}/${id}/versions/`, { prompt: 'y' }, reader);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ type: 'authentication_error', code: 'permission_denied', detail: "API key missing required scope 'llm:write'" });
    expect((await call('GET', `${base}/`, undefined, s.auth(await s.keyWith(['feature_flag:read'])))).statusCode).toBe(403);
  });

  it('records each change in the activity log: created, new version, label moved, deleted', async () => {
    const { id } = await ok('POST', `${base}/`, { name: 'logged', prompt: 'v1', labels: ['production'] });
    await ok('POST', `${base}/${id}/versions/`, { prompt: 'v2' });
    await ok('PUT', `${base}/${id}/labels/production/`, { version: 2 });
    await ok('PUT', `${base}/${id}/labels/production/`, { version: 2 });
    await ok('DELETE', `${base}/${id}/`);
    const log = await ok('GET', `/api/projects/${s.projectId}/activity_log/?scope=LlmPrompt&item_id=${id}`);
    type Entry = { activity: string; detail: { name: string; changes: unknown } };
    expect(log.results.map((e: Entry) => [e.activity, e.detail.name, e.detail.changes])).toEqual([
      ['deleted', 'logged', null],
      ['updated', 'logged', [{ field: 'label:production', before: 1, after: 2 }]],
      ['updated', 'logged', [{ field: 'version', before: 1, after: 2 }]],
      ['created', 'logged', null],
    ]);
  });
});
