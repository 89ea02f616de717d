import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, freePort, serviceBin, serviceEnv, startServiceProcess, testStorage, type TestStorage } from './helpers';
import { eventually, repositoryBin, spawnService, type ServiceProcess } from '@service/test-support';

const run = promisify(execFile);
const readme = path.resolve(__dirname, '../../../README.md');
const dayOne = path.resolve(__dirname, '../../../docs/day-one.md');

const service = (storage: TestStorage, ...args: string[]) => run(process.execPath, [serviceBin, ...args], { env: serviceEnv(storage) });

interface Failure {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with this environment, expecting it to fail: its exit code and output. */
async function failing(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Failure> {
  const failure = await run(process.execPath, [serviceBin, ...args], { env, timeout: 25_000 }).then(
    () => undefined,
    (error: Failure) => error,
  );
  if (!failure) throw new Error(`service ${args.join(' ')} succeeded`);
  return failure;
}

/** Exit code 1 and one line on stderr, `error: ...`, that names the cause and the fix: no stack trace. */
function expectPlainError(failure: Failure, ...parts: (string | RegExp)[]) {
  expect(failure.code, failure.stderr).toBe(1);
  const lines = failure.stderr.trimEnd().split('\n');
  expect(lines, failure.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  for (const part of parts) expect(lines[0]).toMatch(part);
}

/** A service environment with none of the test run's database settings: SQLite in `dataDir`, unless `extra` sets DATABASE_URL. */
function freshEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  return { ...env, ...extra };
}

/** TEST_DATABASE_URL with another database name (and, when given, a password). */
function otherDatabaseUrl(database: string, password?: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  if (password) url.password = password;
  return url.href;
}

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
    expect(Object.keys(a).sort()).toEqual(['personal_api_key', 'project_id', 'project_name', 'project_token']);
    expect(a.project_name).toBe('Default project');
    expect(a.project_token).toMatch(/^phc_/);
    expect(a.personal_api_key).toMatch(/^phx_/);
    expect(b.project_id).toBe(a.project_id);
    expect(b.project_token).toBe(a.project_token);
    expect(b.personal_api_key).not.toBe(a.personal_api_key);
  });

  it('creates, lists and revokes keys, never listing a secret', async () => {
    const created = JSON.parse(
      (await service(storage, 'keys', 'create', '--scopes', 'early_access_feature:read,feature_flag:write', '--project', '1', '--json')).stdout,
    );
    expect(created).toMatchObject({ scopes: ['early_access_feature:read', 'feature_flag:write'], project_ids: [1], revoked_at: null });
    const listed = (await service(storage, 'keys', 'list')).stdout;
    expect(listed).toContain(created.id);
    expect(listed).not.toContain(created.personal_api_key);
    expect((await service(storage, 'keys', 'revoke', created.id)).stdout).toContain(`revoked ${created.id}`);
    const after = (await service(storage, 'keys', 'list')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(after.find((k: { id: string }) => k.id === created.id).revoked_at).toMatch(/^\d{4}-/);
    await expect(service(storage, 'keys', 'revoke', created.id)).rejects.toMatchObject({ stderr: expect.stringContaining('no live key') });
  });

  it('rejects unknown scopes with one plain line that says which scopes exist', async () => {
    const failure = await failing(serviceEnv(storage), 'keys', 'create', '--scopes', 'everything');
    expectPlainError(failure, 'unknown scope "everything"', 'feature_flag');
  });

  it('refuses a key for a project that does not exist', async () => {
    const failure = await failing(serviceEnv(storage), 'keys', 'create', '--scopes', '*', '--project', '999999');
    expectPlainError(failure, /no project with id 999999/, /projects list/);
    const keys = (await service(storage, 'keys', 'list')).stdout;
    expect(keys).not.toContain('999999');
  });

  it('creates projects with their own token, printing the same field names as init', async () => {
    const project = JSON.parse((await service(storage, 'projects', 'create', 'Second app', '--json')).stdout);
    expect(Object.keys(project).sort()).toEqual(['project_id', 'project_name', 'project_token']);
    expect(project.project_name).toBe('Second app');
    expect(project.project_token).toMatch(/^phc_/);
  });

  it('lists projects one per line, or as JSON lines', async () => {
    const lines = (await service(storage, 'projects', 'list')).stdout.trim().split('\n');
    const json = (await service(storage, 'projects', 'list', '--json')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(json.map((p) => p.project_name)).toEqual(['Default project', 'Second app']);
    expect(lines).toHaveLength(2);
    json.forEach((project, i) => {
      expect(Object.keys(project).sort()).toEqual(['project_id', 'project_name', 'project_token']);
      expect(lines[i]).toContain(String(project.project_id));
      expect(lines[i]).toContain(project.project_token);
      expect(lines[i]).toContain(project.project_name);
    });
  });

  it('--version prints the version of the server package, from the build and from the repository’s command (the sources)', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../package.json'), 'utf8'));
    for (const bin of [serviceBin, repositoryBin]) expect((await run(process.execPath, [bin, '--version'])).stdout.trim()).toBe(version);
  });
});

describe('which database the CLI uses', () => {
  let storage: TestStorage;
  beforeAll(() => {
    storage = testStorage();
  });
  afterAll(() => storage.drop());

  const where = () =>
    dialect === 'sqlite'
      ? `SQLite at ${path.join(storage.dataDir, 'service.db')}`
      : `PostgreSQL at ${new URL(storage.databaseUrl!).host}${new URL(storage.databaseUrl!).pathname} (schema ${storage.databaseSchema})`;

  it('init on no data says where it created the database, on stderr (stdout stays one JSON line)', async () => {
    const first = await service(storage, 'init', '--json');
    expect(first.stderr.trim()).toBe(`Created a new database: ${where()}`);
    expect(first.stdout.trim().split('\n')).toHaveLength(1);
    const second = await service(storage, 'init', '--json');
    expect(second.stderr).toBe('');
  });

  it('start prints the database it uses', async () => {
    const started = await startServiceProcess(storage);
    await started.stop();
    expect(started.output()).toContain(`Using ${where()}\n`);
  });

  it('never prints the password of DATABASE_URL', async () => {
    const port = await freePort();
    const failure = await failing(freshEnv(storage.dataDir, { DATABASE_URL: `postgres://someone:s3cretpw@127.0.0.1:${port}/app` }), 'init');
    expectPlainError(failure, `PostgreSQL at 127.0.0.1:${port}/app`);
    expect(failure.stderr).not.toContain('s3cretpw');
  });
});

describe('start-up errors: one plain line with the fix, exit code 1', () => {
  const dataDirs: string[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-cli-'));
    dataDirs.push(dir);
    return dir;
  };
  afterAll(() => dataDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('PORT that is not a number', async () => {
    expectPlainError(await failing(freshEnv(dataDir(), { PORT: 'abc' }), 'start'), /PORT/, /"abc"/, /unset/);
  });

  it('a port another process listens on', async () => {
    const other = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    const { port } = other.address() as net.AddressInfo;
    try {
      const failure = await failing(freshEnv(dataDir(), { PORT: String(port) }), 'start');
      expectPlainError(failure, `port ${port}`, /already in use/, /PORT=/);
    } finally {
      other.close();
    }
  });

  it('a DATA_DIR that cannot hold the database (a file)', async () => {
    const file = path.join(dataDir(), 'not-a-folder');
    fs.writeFileSync(file, '');
    expectPlainError(await failing(freshEnv(file), 'init'), `DATA_DIR`, file, /folder/);
    expectPlainError(await failing(freshEnv(path.join(file, 'below')), 'start'), `DATA_DIR`, /folder/);
  });

  it('a database file that is not SQLite', async () => {
    const dir = dataDir();
    fs.writeFileSync(path.join(dir, 'service.db'), 'not a database'.repeat(100));
    expectPlainError(await failing(freshEnv(dir), 'migrate'), path.join(dir, 'service.db'), /not a SQLite database/);
  });

  it('DATABASE_URL on a port where no PostgreSQL listens', async () => {
    const port = await freePort();
    const failure = await failing(freshEnv(dataDir(), { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/app` }), 'start');
    expectPlainError(failure, `PostgreSQL at 127.0.0.1:${port}/app`, /refused/, /DATABASE_URL/);
  });

  it('a DATABASE_SCHEMA that is not a schema name', async () => {
    const port = await freePort();
    const failure = await failing(freshEnv(dataDir(), { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/app`, DATABASE_SCHEMA: 'a-b' }), 'migrate');
    expectPlainError(failure, /DATABASE_SCHEMA/, /"a-b"/);
  });

  // Registered only in the postgres project of the suite (vitest.config.ts runs both).
  if (dialect === 'postgres')
    it('DATABASE_URL naming a database that does not exist', async () => {
      const failure = await failing(freshEnv(dataDir(), { DATABASE_URL: otherDatabaseUrl('no_such_database_here', 'pw') }), 'start');
      expectPlainError(failure, /database "no_such_database_here" does not exist/, /createdb/, /DATABASE_URL/);
      expect(failure.stderr).not.toContain(':pw@');
    });
});

describe('request log', () => {
  let storage: TestStorage;
  beforeAll(() => {
    storage = testStorage();
  });
  afterAll(() => storage.drop());

  it('is one JSON line per request when not a terminal: method, masked url, status, duration', async () => {
    const started = await spawnService(serviceEnv(storage, { LOG_LEVEL: 'info' }));
    try {
      const before = started.output().length;
      expect((await fetch(`${started.url}/api/early_access_features/?token=${started.token}&stage=beta`)).status).toBe(200);
      expect((await fetch(`${started.url}/api/projects/`)).status).toBe(401);
      // The log is written asynchronously: wait for both lines (a busy machine may take a moment). Every line is JSON;
      // the request lines are those with a method (pino writes asynchronously and the banner synchronously, so
      // Fastify's "Server listening at" line may come after the banner, among these).
      const logged = () => started.output().slice(before).trim().split('\n').filter(Boolean);
      const requestLines = () =>
        logged()
          .map((line) => JSON.parse(line))
          .filter((entry) => 'method' in entry);
      await eventually(() => requestLines().length >= 2);
      await new Promise((r) => setTimeout(r, 100));
      const lines = requestLines();
      expect(lines, logged().join('\n')).toHaveLength(2);
      expect(lines[0]).toMatchObject({
        method: 'GET',
        url: '/api/early_access_features/?token=[redacted]&stage=beta',
        status: 200,
        msg: expect.stringMatching(/^GET \/api\/early_access_features\/\?token=\[redacted\]&stage=beta 200 \d+(\.\d)?ms$/),
      });
      expect(lines[0].duration_ms).toBeTypeOf('number');
      expect(lines[1]).toMatchObject({ method: 'GET', url: '/api/projects/', status: 401 });
      expect(started.output().slice(before)).not.toContain(started.token);
    } finally {
      await started.stop();
    }
  });

  it('is one readable line per request in a terminal', async () => {
    const port = await freePort();
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(serviceBin)} start`;
    // `script` runs the service on a pseudo-terminal, as a user's shell does.
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: serviceEnv(storage, { LOG_LEVEL: 'info', PORT: String(port) }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    try {
      await eventually(() => output.includes('Service listening'), 30_000);
      expect((await fetch(`http://127.0.0.1:${port}/_health`)).status).toBe(200);
      const line = /^\d\d:\d\d:\d\d GET \/_health 200 \d+(\.\d)?ms\r?$/m;
      await eventually(() => line.test(output));
      expect(output).toMatch(line);
      expect(output).not.toMatch(/"level"|incoming request|request completed/);
    } finally {
      // Ctrl-C on the terminal: SIGINT to the service, which stops.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.write('\x03');
      await exited;
    }
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
    expect(blocks.length).toBe(8);
    // The first block sets the variables; use what this service printed instead of the placeholders.
    const setup = `export SERVICE_HOST=${service.url} SERVICE_KEY=${service.key} PROJECT_ID=${service.projectId}`;
    const script = [setup, ...blocks.slice(1).map((block) => `${block}\necho '<<END>>'`)].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const [created, listed, retrieved, optedIn, enrollments, updated, deleted] = stdout.split('<<END>>\n').map((s) => s.trim());
    expect(JSON.parse(created!)).toMatchObject({ name: 'Dark mode', stage: 'beta', feature_flag: { key: 'dark-mode' } });
    expect(JSON.parse(listed!)).toMatchObject({ count: 1, results: [{ name: 'Dark mode' }] });
    expect(JSON.parse(retrieved!)).toMatchObject({ name: 'Dark mode', id: JSON.parse(created!).id });
    expect(JSON.parse(optedIn!)).toMatchObject({ distinct_id: 'user-1', enrolled: true, stage: 'beta' });
    expect(JSON.parse(enrollments!)).toMatchObject({ counts: { enrolled: 1, opted_out: 0 }, results: [{ distinct_id: 'user-1', enrolled: true }] });
    expect(JSON.parse(updated!)).toMatchObject({ stage: 'general-availability', description: 'Dark mode for everyone who opted in' });
    expect(deleted).toBe('204');
  });

  it('runs every example of the feature flags section, in order, successfully', async () => {
    const section = fs.readFileSync(readme, 'utf8').split('## Feature flags')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(4);
    const setup = `export SERVICE_HOST=${service.url} SERVICE_KEY=${service.key} PROJECT_ID=${service.projectId} PROJECT_TOKEN=${service.token}`;
    const script = [setup, ...blocks.map((block) => `${block}\necho '<<END>>'`)].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const [created, evaluated, definitions, ramp] = stdout
      .split('<<END>>\n')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => JSON.parse(s));
    expect(created).toMatchObject({ key: 'new-checkout', active: true });
    // The README says the person it evaluates is in the rollout, and one other is not.
    expect(evaluated.flags['new-checkout']).toMatchObject({ key: 'new-checkout', enabled: true, reason: { code: 'condition_match' } });
    const other = await fetch(`${service.url}/flags/?v=2`, {
      method: 'POST',
      body: JSON.stringify({ token: service.token, distinct_id: 'user-1', person_properties: { plan: 'pro' } }),
    });
    expect(((await other.json()) as { flags: Record<string, unknown> }).flags['new-checkout']).toMatchObject({
      enabled: false,
      reason: { code: 'out_of_rollout_bound' },
    });
    expect(definitions.flags.map((f: { key: string }) => f.key)).toContain('new-checkout');
    expect(
      ramp.results.map((change: { feature_flag_id: number; payload: unknown; status: string }) => [change.feature_flag_id, change.payload, change.status]),
    ).toEqual([10, 50, 100].map((rollout_percentage) => [created.id, { rollout_percentage }, 'pending']));
  });

  it('runs every example of the cohorts section, in order, successfully', async () => {
    const section = fs.readFileSync(readme, 'utf8').split('\n## Cohorts')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(4);
    const setup = `export SERVICE_HOST=${service.url} SERVICE_KEY=${service.key} PROJECT_ID=${service.projectId} PROJECT_TOKEN=${service.token}`;
    const script = [setup, ...blocks.map((block) => `${block}\necho '<<END>>'`)].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const [listed, imported, loyal, sawTest] = stdout
      .split('<<END>>')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => JSON.parse(s));
    expect(listed).toMatchObject({ name: 'Beta testers', is_static: true, count: 2 });
    expect(imported).toMatchObject({ name: 'Imported', is_static: true, count: 2 });
    expect(loyal).toMatchObject({ name: 'Loyal', is_static: false });
    expect(sawTest).toMatchObject({ name: 'Saw test', is_static: false });
    expect(JSON.stringify(sawTest.filters)).toContain('$feature_flag_called');
  });

  it('runs every example of the surveys section, in order, successfully', async () => {
    const section = fs.readFileSync(readme, 'utf8').split('## Surveys')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(3);
    const setup = `export SERVICE_HOST=${service.url} SERVICE_KEY=${service.key} PROJECT_ID=${service.projectId} PROJECT_TOKEN=${service.token}`;
    const script = [setup, ...blocks.map((block) => `${block}\necho '<<END>>'`)].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const [created, launched, listed] = stdout
      .split('<<END>>')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => JSON.parse(s));
    expect(created).toMatchObject({ name: 'Beta feedback', status: 'draft', questions: [{ type: 'rating', scale: 10 }, { type: 'open' }] });
    expect(launched).toMatchObject({ id: created.id, status: 'running' });
    expect(listed.surveys).toEqual([expect.objectContaining({ id: created.id, targeting_flag_key: created.targeting_flag_key })]);
  });

  it('runs every curl example of docs/day-one.md, in order, successfully', async () => {
    const blocks = [...fs.readFileSync(dayOne, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(5);
    // The first block sets the variables; use what this service printed instead of the placeholders.
    const setup = `export SERVICE_HOST=${service.url} SERVICE_KEY=${service.key} PROJECT_ID=${service.projectId} PROJECT_TOKEN=${service.token}`;
    const script = [setup, ...blocks.slice(1).map((block) => `${block}\necho '<<END>>'`)].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const [linked, enrolled, evaluated, deleted] = stdout
      .split('<<END>>')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => JSON.parse(s));
    expect(linked).toMatchObject({ name: 'Search v2', stage: 'beta', feature_flag: { key: 'search-v2' } });
    expect(linked.feature_flag_id).toBe(linked.feature_flag.id);
    expect(enrolled).toEqual({ status: 1 });
    expect(evaluated.flags['search-v2']).toMatchObject({ enabled: true });
    const other = await fetch(`${service.url}/flags/?v=2`, { method: 'POST', body: JSON.stringify({ token: service.token, distinct_id: 'user-3' }) });
    expect(((await other.json()) as { flags: Record<string, unknown> }).flags['search-v2']).toMatchObject({ enabled: false });
    expect(deleted).toMatchObject({ key: 'old-banner', deleted: true });
  });

  // Last, so that no change after it has the webhook it makes send anything.
  it('runs the example of the webhooks section successfully', async () => {
    const section = fs.readFileSync(readme, 'utf8').split('## Webhooks')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(1);
    const setup = `export SERVICE_HOST=${service.url} SERVICE_KEY=${service.key} PROJECT_ID=${service.projectId}`;
    const { stdout } = await run('bash', ['-e', '-c', `${setup}\n${blocks[0]}`]);
    expect(JSON.parse(stdout)).toMatchObject({
      url: 'https://example.com/hooks/flags',
      kinds: ['feature_flag.changed'],
      secret: expect.stringMatching(/^whsec_/),
    });
  });
});
