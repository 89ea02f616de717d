import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceBin, serviceEnv, startServiceProcess, testStorage, type TestStorage } from './helpers';

// Issue 13: `service users create` for operators and tests, and what `service start` says about the web app.

const run = promisify(execFile);
const service = (storage: TestStorage, ...args: string[]) => run(process.execPath, [serviceBin, ...args], { env: serviceEnv(storage), timeout: 25_000 });

/** Runs the CLI expecting a failure: exit code 1 and one plain `error: ...` line naming `part`. */
async function fails(storage: TestStorage, part: string | RegExp, ...args: string[]) {
  const failure = await service(storage, ...args).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failure, `service ${args.join(' ')} succeeded`).toBeDefined();
  expect(failure!.code).toBe(1);
  const lines = failure!.stderr.trimEnd().split('\n');
  expect(lines, failure!.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(part);
}

/** Waits until the process has printed `text`. */
async function printed(output: () => string, text: string) {
  for (let i = 0; i < 100 && !output().includes(text); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return output();
}

describe('service users create', () => {
  let storage: TestStorage;
  beforeAll(() => {
    storage = testStorage();
  });
  afterAll(() => storage.drop());

  it('start says where the web app is, and that the first visit creates the owner while there is no account', async () => {
    const proc = await startServiceProcess(storage);
    try {
      const output = await printed(proc.output, 'web app');
      expect(output).toContain(`Open http://localhost:${proc.port}/ to use the web app`);
      expect(output).toContain('first visit creates the owner');
    } finally {
      await proc.stop();
    }
  });

  it('--json prints one JSON line; the first user is an owner, later ones members unless --role says otherwise', async () => {
    const first = await service(storage, 'users', 'create', '--email', 'Ops@Example.com', '--password', 'a long password', '--json');
    expect(first.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(first.stdout)).toEqual({ id: expect.any(Number), email: 'ops@example.com', name: 'ops', role: 'owner', joined_at: expect.any(String) });
    const second = JSON.parse((await service(storage, 'users', 'create', '--email', 'dev@example.com', '--password', 'a long password', '--json')).stdout);
    expect(second.role).toBe('member');
    const third = await service(storage, 'users', 'create', '--email', 'v@example.com', '--password', 'a long password', '--name', 'Vee', '--role', 'viewer');
    expect(third.stdout).toMatch(/^id: \d+\nemail: v@example.com\nname: Vee\nrole: viewer\n$/);
  });

  it('the user can log in to the web app', async () => {
    const proc = await startServiceProcess(storage);
    try {
      expect(await printed(proc.output, 'web app')).not.toContain('first visit');
      const res = await fetch(`${proc.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ops@example.com', password: 'a long password' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/^service_session=[\w-]+; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(await res.json()).toMatchObject({ email: 'ops@example.com', role: 'owner' });
    } finally {
      await proc.stop();
    }
  });

  it('refuses a taken email, a short password, an unknown role and a malformed email with one plain line', async () => {
    await fails(
      storage,
      /--email: An account with this email address exists already/,
      'users',
      'create',
      '--email',
      'ops@example.com',
      '--password',
      'a long password',
    );
    await fails(storage, /--password: The password must have at least 8 characters/, 'users', 'create', '--email', 'new@example.com', '--password', 'short');
    await fails(
      storage,
      /a role is one of viewer, member, admin, owner/,
      'users',
      'create',
      '--email',
      'r@example.com',
      '--password',
      'a long password',
      '--role',
      'god',
    );
    await fails(storage, /--email: Enter a valid email address/, 'users', 'create', '--email', 'nope', '--password', 'a long password');
  });

  it('refuses a blank or common password with one plain line', async () => {
    await fails(storage, /--password: The password may not be blank/, 'users', 'create', '--email', 'new@example.com', '--password', ' '.repeat(12));
    await fails(
      storage,
      /--password: This password is one of the most common ones/,
      'users',
      'create',
      '--email',
      'new@example.com',
      '--password',
      'Password123',
    );
  });
});
