import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../src/config';
import { spawnService } from '@service/test-support';
import { serviceBin, serviceEnv, testStorage } from './helpers';

// The repository's Dockerfile and compose.yaml (docs/deployment.md) cannot be built here (no container engine): what
// they tell the service is checked against the service itself. The variables they set are ones config.ts reads, the
// command is one the CLI has, and the health check, run as the image runs it, passes on a started service and fails
// on a stopped one.

const root = new URL('../../../', import.meta.url);
const run = promisify(execFile);

interface Instruction {
  name: string;
  args: string;
}

/** The instructions of a Dockerfile (continuation lines joined, comments left out). */
function dockerfile(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [name, ...args] = line.split(/\s+/);
      return { name: name!.toUpperCase(), args: args.join(' ') };
    });
}

const instructions = dockerfile(fs.readFileSync(new URL('Dockerfile', root), 'utf8'));
/** The instructions of the image's last stage, the one that runs. */
const runtime = instructions.slice(instructions.findLastIndex((i) => i.name === 'FROM'));
const argDefaults = Object.fromEntries(instructions.filter((i) => i.name === 'ARG').map((i) => i.args.split('=') as [string, string]));
const imageEnv: Record<string, string> = Object.fromEntries(
  runtime.filter((i) => i.name === 'ENV').flatMap((i) => i.args.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
);
const only = (name: string) => {
  const found = runtime.filter((i) => i.name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!.args;
};
const compose = parse(fs.readFileSync(new URL('compose.yaml', root), 'utf8')) as {
  services: Record<
    string,
    {
      build?: string;
      image?: string;
      environment?: Record<string, string>;
      depends_on?: Record<string, { condition: string }>;
      healthcheck?: { test: string[] };
      volumes?: string[];
    }
  >;
  volumes: Record<string, unknown>;
};
/** Compose's `${NAME:-default}` with its default. */
const interpolate = (value: string) => value.replace(/\$\{\w+:-([^}]*)\}/g, '$1');

/** Every variable config.ts reads, as it reads them. */
const configVariables = new Set<string>();
loadConfig(new Proxy({}, { get: (_, name) => void configVariables.add(String(name)) }));

/** Variables the service reads (NODE_ENV and PATH are Node's and the shell's). */
function expectServiceVariables(env: Record<string, string>) {
  for (const name of Object.keys(env)) if (name !== 'NODE_ENV' && name !== 'PATH') expect(configVariables, `${name} is not read by config.ts`).toContain(name);
}

describe('Dockerfile', () => {
  it('runs the service on Node 20 as an unprivileged user, on every interface, with its data in the /data volume', () => {
    const from = only('FROM').replace(/\$\{(\w+)\}/g, (_, name: string) => argDefaults[name] ?? '');
    expect(from).toBe('node:20-slim');
    expect(only('USER')).not.toMatch(/^(root|0)(:|$)/);
    expect(imageEnv).toMatchObject({ HOST: '0.0.0.0', DATA_DIR: '/data', PORT: only('EXPOSE') });
    expect(only('VOLUME')).toBe(imageEnv.DATA_DIR);
    expectServiceVariables(imageEnv);
    expect(loadConfig(imageEnv)).toMatchObject({ host: '0.0.0.0', port: 8000, dataDir: '/data' });
    expect(fs.readFileSync(new URL('.dockerignore', root), 'utf8')).toMatch(/^\*\*\/node_modules$/m);
  });

  it('starts with a command the CLI has', async () => {
    const cmd = JSON.parse(only('CMD')) as string[];
    expect(cmd).toEqual(['service', 'start']);
    // `--help` of an unknown command prints the program's help instead: the usage line says whose help it is.
    const { stdout } = await run(process.execPath, [serviceBin, ...cmd.slice(1), '--help']);
    expect(stdout).toMatch(/^Usage: service start /);
  });

  describe('HEALTHCHECK', () => {
    const check = JSON.parse(only('HEALTHCHECK').replace(/^.*?CMD\s+/, '')) as string[];
    const storage = testStorage();
    afterAll(() => storage.drop());

    it('passes while the service runs (GET /_health answers 200) and fails once it is stopped', async () => {
      expect(check[0]).toBe('node');
      expect(check.join(' ')).toContain('/_health');
      const service = await spawnService(serviceEnv(storage, { HOST: imageEnv.HOST! }));
      const healthcheck = () =>
        run(check[0]!, check.slice(1), { env: { ...process.env, PORT: String(service.port) } }).then(
          () => 0,
          (error: { code: number }) => error.code,
        );
      try {
        expect(await (await fetch(`${service.url}/_health`)).json()).toEqual({ status: 'ok', database: 'ok' });
        expect(await healthcheck()).toBe(0);
      } finally {
        await service.stop();
      }
      expect(await healthcheck()).toBe(1);
    });
  });
});

describe('compose.yaml', () => {
  const { service, postgres } = compose.services as Required<typeof compose.services>;

  it('builds the Dockerfile and runs it on PostgreSQL 16 once the database is healthy', () => {
    expect(service!.build).toBe('.');
    expect(service!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(postgres!.image).toMatch(/^postgres:16(\.|-|$)/);
    expect(postgres!.healthcheck!.test.join(' ')).toContain('pg_isready');
    const [volume, mount] = postgres!.volumes![0]!.split(':');
    expect(mount).toBe('/var/lib/postgresql/data');
    expect(compose.volumes).toHaveProperty(volume!);
  });

  it("gives the service a DATABASE_URL naming the postgres service's user, password and database", () => {
    const env = Object.fromEntries(Object.entries(service!.environment!).map(([name, value]) => [name, interpolate(String(value))]));
    expectServiceVariables(env);
    const url = new URL(env.DATABASE_URL!);
    const pg = Object.fromEntries(Object.entries(postgres!.environment!).map(([name, value]) => [name, interpolate(String(value))]));
    expect(url.protocol).toBe('postgres:');
    expect([url.hostname, url.port, url.username, url.password, url.pathname]).toEqual([
      'postgres',
      '5432',
      pg.POSTGRES_USER,
      pg.POSTGRES_PASSWORD,
      `/${pg.POSTGRES_DB}`,
    ]);
  });
});
