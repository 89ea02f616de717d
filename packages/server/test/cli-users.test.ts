import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceBin, serviceEnv, startServiceProcess, testStorage, type TestStorage } from './helpers';

// `service users create`, `list` and `set-password` for operators and tests, and what `service start` says about the web app.

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

describe('service users set-password', () => {
  let storage: TestStorage;
  let proc: Awaited<ReturnType<typeof startServiceProcess>>;
  const address = 'forgetful@example.com';
  const logIn = (password: string) =>
    fetch(`${proc.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: address, password }) });
  const me = (cookie: string) => fetch(`${proc.url}/api/users/@me`, { headers: { cookie } });
  const sessionOf = async (password: string) => {
    const res = await logIn(password);
    expect(res.status).toBe(200);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  };

  beforeAll(async () => {
    storage = testStorage();
    await service(storage, 'users', 'create', '--email', 'boss@example.com', '--password', 'a long password');
    await service(storage, 'users', 'create', '--email', address, '--password', 'the first password', '--role', 'admin');
    proc = await startServiceProcess(storage);
  });
  afterAll(async () => {
    await proc.stop();
    await storage.drop();
  });

  it('users list prints every account, one a line (id, email, role, name), or one JSON object a line', async () => {
    const lines = (await service(storage, 'users', 'list')).stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^\d+ {2}boss@example\.com {2}owner {2}boss$/),
      expect.stringMatching(/^\d+ {2}forgetful@example\.com {2}admin {2}forgetful$/),
    ]);
    const json = (await service(storage, 'users', 'list', '--json')).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(json.map((u) => u.email)).toEqual(['boss@example.com', address]);
  });

  it('sets the password of an email in any case; the sessions of the user end, and only the new password logs in', async () => {
    const cookie = await sessionOf('the first password');
    expect((await me(cookie)).status).toBe(200);
    const { stdout } = await service(storage, 'users', 'set-password', '--email', ' Forgetful@Example.com ', '--password', 'a second password');
    expect(stdout).toMatch(/^Set the password of forgetful@example\.com \(id \d+\); 1 session ended\.\n$/);
    expect((await me(cookie)).status).toBe(401);
    expect((await logIn('the first password')).status).toBe(401);
    expect((await logIn('a second password')).status).toBe(200);
  });

  it('--generate prints a strong new password once, which logs in; --json prints one JSON line', async () => {
    const { stdout } = await service(storage, 'users', 'set-password', '--email', address, '--generate');
    const [first, second, ...rest] = stdout.trimEnd().split('\n');
    expect(first).toMatch(/^Set the password of forgetful@example\.com \(id \d+\); 1 session ended\.$/);
    const generated = /^New password \(shown once\): (\S+)$/.exec(second!)![1]!;
    expect(rest).toEqual([]);
    expect(generated).toMatch(/^[A-Za-z2-9]{24}$/);
    expect((await logIn('a second password')).status).toBe(401);
    expect((await logIn(generated)).status).toBe(200);

    const json = await service(storage, 'users', 'set-password', '--email', address, '--generate', '--json');
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    const fields = JSON.parse(json.stdout);
    expect(fields).toEqual({ id: expect.any(Number), email: address, password: expect.stringMatching(/^[A-Za-z2-9]{24}$/), sessions_ended: 1 });
    expect(fields.password).not.toBe(generated);
    expect((await logIn(fields.password)).status).toBe(200);
    // Without --generate the password given is never printed back.
    const given = await service(storage, 'users', 'set-password', '--email', address, '--password', 'a third password', '--json');
    expect(JSON.parse(given.stdout)).toEqual({ id: fields.id, email: address, sessions_ended: 1 });
  });

  it('refuses an unknown email, a missing email, and a missing or doubled password with one plain line', async () => {
    await fails(
      storage,
      /--email: No account has the email address nobody@example\.com\./,
      'users',
      'set-password',
      '--email',
      'nobody@example.com',
      '--password',
      'a long password',
    );
    await fails(storage, /give the new password with --password P, or --generate one/, 'users', 'set-password', '--email', address);
    await fails(
      storage,
      /'--password <password>' cannot be used with option '--generate'/,
      'users',
      'set-password',
      '--email',
      address,
      '--password',
      'a long password',
      '--generate',
    );
    await fails(storage, /required option '--email <email>' not specified/, 'users', 'set-password', '--generate');
  });

  it('refuses the passwords sign-up refuses with one plain line, and changes nothing', async () => {
    await fails(storage, /--password: The password may not be blank/, 'users', 'set-password', '--email', address, '--password', ' '.repeat(12));
    await fails(storage, /--password: The password must have at least 8 characters/, 'users', 'set-password', '--email', address, '--password', 'short');
    await fails(storage, /--password: This password is one of the most common ones/, 'users', 'set-password', '--email', address, '--password', 'Password123');
    expect((await logIn('a third password')).status).toBe(200);
  });
});
