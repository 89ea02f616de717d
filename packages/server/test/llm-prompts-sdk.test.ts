import { Prompts } from '@posthog/ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

// The official @posthog/ai Prompts class reads the prompts managed through the API, from a listening service.
let s: TestService;
let host: string;
let base: string;
beforeAll(async () => {
  s = await startService();
  host = await s.app.listen({ port: 0, host: '127.0.0.1' });
  base = `/api/projects/${s.projectId}/llm_prompts`;
});
afterAll(() => s.close());

const api = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
  const res = await s.app.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? {} : res.json()) as { id: string; version: number };
};
const prompts = (key = s.key, defaultCacheTtlSeconds?: number) => new Prompts({ personalApiKey: key, projectApiKey: s.token, host, defaultCacheTtlSeconds });

describe('@posthog/ai Prompts', () => {
  it('get(): the newest version, a pinned version, a label, and compile() on what came back', async () => {
    const { id } = await api('POST', `${base}/`, {
      name: 'support-reply',
      prompt: 'Hello {{name}}, v1',
      config: { model: 'gpt-4o', temperature: 0.2 },
      labels: ['production'],
    });
    await api('POST', `${base}/${id}/versions/`, { prompt: 'Hello {{name}}, v2', labels: ['staging'] });

    const client = prompts();
    const latest = await client.get('support-reply');
    expect(latest).toMatchObject({ source: 'api', name: 'support-reply', version: 2, prompt: 'Hello {{name}}, v2', config: null });
    const pinned = await client.get('support-reply', { version: 1 });
    expect(pinned).toMatchObject({ version: 1, prompt: 'Hello {{name}}, v1', config: { model: 'gpt-4o', temperature: 0.2 } });
    const production = await client.get('support-reply', { label: 'production' });
    expect(production).toMatchObject({ version: 1, label: 'production' });
    const staging = await client.get('support-reply', { label: 'staging' });
    expect(staging).toMatchObject({ version: 2, label: 'staging' });
    expect(client.compile(staging.prompt, { name: 'Ada' })).toBe('Hello Ada, v2');
  });

  it('a moved label reaches a client once its cache expires, and not before', async () => {
    const { id } = await api('POST', `${base}/`, { name: 'moving', prompt: 'one', labels: ['production'] });
    await api('POST', `${base}/${id}/versions/`, { prompt: 'two' });

    const cached = prompts(s.key, 300);
    const fresh = prompts(s.key, 0);
    expect(await cached.get('moving', { label: 'production' })).toMatchObject({ source: 'api', prompt: 'one' });
    await api('PUT', `${base}/${id}/labels/production/`, { version: 2 });
    expect(await cached.get('moving', { label: 'production' })).toMatchObject({ source: 'cache', prompt: 'one', version: 1 });
    expect(await fresh.get('moving', { label: 'production' })).toMatchObject({ source: 'api', prompt: 'two', version: 2 });
  });

  it('getAll(): every prompt at a label, skipping none that carry it', async () => {
    const { id } = await api('POST', `${base}/`, { name: 'all-a', prompt: 'a1', labels: ['release'] });
    await api('POST', `${base}/${id}/versions/`, { prompt: 'a2' });
    await api('POST', `${base}/`, { name: 'all-b', prompt: 'b1' });
    const all = await prompts().getAll({ label: 'release' });
    expect(Object.keys(all)).toEqual(['all-a']);
    expect(all['all-a']).toMatchObject({ prompt: 'a1', version: 1, label: 'release' });
    const latest = await prompts().getAll();
    expect(latest['all-a']).toMatchObject({ prompt: 'a2', version: 2 });
    expect(latest['all-b']).toMatchObject({ prompt: 'b1', version: 1 });
  });

  it('an unknown prompt, version or label is "not found"; a deleted prompt too', async () => {
    const client = prompts(s.key, 0);
    await expect(client.get('no-such-prompt')).rejects.toThrow(/not found/);
    const { id } = await api('POST', `${base}/`, { name: 'short-lived', prompt: 'x' });
    await expect(client.get('short-lived', { version: 7 })).rejects.toThrow(/not found/);
    await expect(client.get('short-lived', { label: 'production' })).rejects.toThrow(/not found/);
    const at = (query: string) => fetch(`${host}/api/environments/@current/llm_prompts/name/short-lived/?token=${s.token}&${query}`, { headers: s.headers });
    expect((await at('version=9999999999')).status).toBe(404);
    const nul = await at('label=a%00b');
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ type: 'validation_error', attr: 'label' });
    await api('DELETE', `${base}/${id}/`);
    await expect(client.get('short-lived')).rejects.toThrow(/not found/);
    expect(await client.get('short-lived', { fallback: 'from code' })).toMatchObject({ source: 'code_fallback', prompt: 'from code' });
  });

  it('needs a key with llm:read that may use the token’s project', async () => {
    await api('POST', `${base}/`, { name: 'guarded', prompt: 'secret sauce' });
    await expect(prompts(await s.keyWith(['feature_flag:read']), 0).get('guarded')).rejects.toThrow(/Access denied/);
    await expect(prompts(await s.keyWith(['llm:read'], [s.projectId + 1000]), 0).get('guarded')).rejects.toThrow(/Access denied/);
    await expect(prompts('phx_not_a_key', 0).get('guarded')).rejects.toThrow(/HTTP 401/);
    expect(await prompts(await s.keyWith(['llm:read'], [s.projectId]), 0).get('guarded')).toMatchObject({ source: 'api', prompt: 'secret sauce' });
    const wrongToken = await fetch(`${host}/api/environments/@current/llm_prompts/name/guarded/?token=phc_unknown`, { headers: s.headers });
    expect(wrongToken.status).toBe(401);
    expect(await wrongToken.json()).toMatchObject({ type: 'authentication_error' });
  });
});
