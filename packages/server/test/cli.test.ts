import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceBin, serviceEnv, startServiceProcess, testStorage, type TestStorage } from './helpers';
import type { ServiceProcess } from './service-process';

const run = promisify(execFile);
const readme = path.resolve(__dirname, '../../../README.md');

const service = (storage: TestStorage, ...args: string[]) => run(process.execPath, [serviceBin, ...args], { env: serviceEnv(storage) });

describe('service CLI', () => {
  let storage: TestStorage;
  beforeAll(() => {
    storage = testStorage();
  });
  afterAll(() => storage.drop());

  it('init --json prints one JSON line, keeps the project and makes a new key each time', async () => {
    const first = await service(storage, 'init', '--json');
    const second = await service(storage, 'init', '--json');
    const a = JSON.parse(first.stdout);
    const b = JSON.parse(second.stdout);
    expect(first.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(a).sort()).toEqual(['personal_api_key', 'project_id', 'project_token']);
    expect(a.project_token).toMatch(/^phc_/);
    expect(a.personal_api_key).toMatch(/^phx_/);
    expect(b.project_id).toBe(a.project_id);
    expect(b.project_token).toBe(a.project_token);
    expect(b.personal_api_key).not.toBe(a.personal_api_key);
  });

  it('creates, lists and revokes keys, never listing a secret', async () => {
    const created = JSON.parse((await service(storage, 'keys', 'create', '--scopes', 'early_access_feature:read,feature_flag:write', '--project', '1', '--json')).stdout);
    expect(created).toMatchObject({ scopes: ['early_access_feature:read', 'feature_flag:write'], project_ids: [1], revoked_at: null });
    const listed = (await service(storage, 'keys', 'list')).stdout;
    expect(listed).toContain(created.id);
    expect(listed).not.toContain(created.personal_api_key);
    expect((await service(storage, 'keys', 'revoke', created.id)).stdout).toContain(`revoked ${created.id}`);
    const after = (await service(storage, 'keys', 'list')).stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(after.find((k: { id: string }) => k.id === created.id).revoked_at).toMatch(/^\d{4}-/);
    await expect(service(storage, 'keys', 'revoke', created.id)).rejects.toMatchObject({ stderr: expect.stringContaining('no live key') });
  });

  it('rejects unknown scopes with a readable message', async () => {
    await expect(service(storage, 'keys', 'create', '--scopes', 'everything')).rejects.toMatchObject({ stderr: expect.stringContaining('unknown scope "everything"') });
  });

  it('creates projects with their own token', async () => {
    const project = JSON.parse((await service(storage, 'projects', 'create', 'Second app', '--json')).stdout);
    expect(project).toMatchObject({ name: 'Second app' });
    expect(project.api_token).toMatch(/^phc_/);
  });
});

describe('README, tried as a new user would', () => {
  let storage: TestStorage;
  let service: ServiceProcess;

  beforeAll(async () => {
    storage = testStorage();
    service = await startServiceProcess(storage);
  });
  afterAll(async () => {
    await service.stop();
    await storage.drop();
  });

  it('prints the project id, project token and key at first start', () => {
    expect(service.output()).toMatch(/project id:\s+\d+/);
    expect(service.token).toMatch(/^phc_/);
    expect(service.key).toMatch(/^phx_/);
  });

  it('runs every curl example of the early access section, in order, successfully', async () => {
    const section = fs.readFileSync(readme, 'utf8').split('## Early access features')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(6);
    // The first block sets the variables; use what this service printed instead of the placeholders.
    const setup = `export SERVICE_HOST=${service.url} SERVICE_KEY=${service.key} PROJECT_ID=${service.projectId}`;
    const script = [setup, ...blocks.slice(1).map((block) => `${block}\necho '<<END>>'`)].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const [created, listed, retrieved, updated, deleted] = stdout.split('<<END>>\n').map((s) => s.trim());
    expect(JSON.parse(created!)).toMatchObject({ name: 'Dark mode', stage: 'beta', feature_flag: { key: 'dark-mode' } });
    expect(JSON.parse(listed!)).toMatchObject({ count: 1, results: [{ name: 'Dark mode' }] });
    expect(JSON.parse(retrieved!)).toMatchObject({ name: 'Dark mode', id: JSON.parse(created!).id });
    expect(JSON.parse(updated!)).toMatchObject({ stage: 'general-availability', description: 'Dark mode for everyone who opted in' });
    expect(deleted).toBe('204');
  });

  it('runs every example of the feature flags section, in order, successfully', async () => {
    const section = fs.readFileSync(readme, 'utf8').split('## Feature flags')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(3);
    const setup = `export SERVICE_HOST=${service.url} SERVICE_KEY=${service.key} PROJECT_ID=${service.projectId} PROJECT_TOKEN=${service.token}`;
    const script = [setup, ...blocks.map((block) => `${block}\necho '<<END>>'`)].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const [created, evaluated, definitions] = stdout.split('<<END>>\n').map((s) => s.trim()).filter(Boolean).map((s) => JSON.parse(s));
    expect(created).toMatchObject({ key: 'new-checkout', active: true });
    expect(evaluated.flags['new-checkout']).toMatchObject({ key: 'new-checkout', reason: { code: expect.stringMatching(/condition_match|out_of_rollout_bound/) } });
    expect(definitions.flags.map((f: { key: string }) => f.key)).toContain('new-checkout');
  });
});
