// The packages as users get them: packed as `npm publish` packs them (prepack builds), installed from the
// tarballs into an empty project outside the workspace (no links to the sources), and used there: the
// service started from its installed command, service-node imported from ESM and required from CommonJS,
// service-js and service-js/react bundled with esbuild and run in a DOM.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restApi, spawnService, type ServiceProcess } from '@service/test-support';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(import.meta.dirname, '../fixture');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'service-tarballs-'));
const project = path.join(work, 'project');
const published = ['packages/node', 'packages/js', 'packages/server'];
const FLAG = 'tarball-flag';

const manifest = (dir: string): { name: string; version: string } => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
/** The version of a package installed in the workspace (what `npm ci` put in the npm cache). */
const workspaceVersion = (name: string) => manifest(path.join(root, 'node_modules', name)).version;

/** The children's environment: without the `npm_*` variables of an `npm test` around this one. */
// eslint-disable-next-line no-restricted-syntax -- children are configured through their environment
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));

/** Runs a command; its stdout, or a thrown error with everything it printed. */
async function run(cmd: string, args: string[], cwd: string, timeout = 240_000): Promise<string> {
  try {
    return (await promisify(execFile)(cmd, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`, { cause: error });
  }
}

/**
 * better-sqlite3 installs a prebuilt binary that prebuild-install downloads from GitHub; where that is out of
 * reach it compiles SQLite instead, which takes minutes. The binary the workspace already built (same
 * version, same Node) is offered as a local prebuild, so the install goes as it does for users: a binary is
 * unpacked, no compiler runs.
 */
async function offerSqlitePrebuild(version: string) {
  const module = path.join(root, 'node_modules', 'better-sqlite3');
  const prebuilds = path.join(work, 'prebuilds');
  fs.mkdirSync(prebuilds);
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['czf', path.join(prebuilds, file), 'build/Release/better_sqlite3.node'], module);
  fs.writeFileSync(path.join(project, '.prebuild-installrc'), `local-prebuilds=${prebuilds}\n`);
}

let service: ServiceProcess;
let keys: { project_id: number; project_token: string; personal_api_key: string };
const api = () => restApi(service.url, keys.personal_api_key);
const events = async (module: string) => {
  const page = await api()<{ results: { properties: Record<string, unknown> }[] }>('GET', `/api/projects/${keys.project_id}/events/?event=tarball_check`);
  return page.results.filter((e) => e.properties.module === module);
};

beforeAll(async () => {
  const tarballs = path.join(work, 'tarballs');
  fs.mkdirSync(tarballs);
  const tarball: Record<string, string> = {};
  for (const dir of published) {
    await run('npm', ['pack', '--pack-destination', tarballs, '--loglevel=error'], path.join(root, dir));
    const { name, version } = manifest(path.join(root, dir));
    tarball[name] = path.join(tarballs, `${name.slice(1).replace('/', '-')}-${version}.tgz`);
  }

  fs.mkdirSync(project);
  fs.cpSync(fixture, project, { recursive: true });
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'tarball-check', private: true, allowScripts: { 'better-sqlite3': true, esbuild: true } }),
  );
  const sqlite = workspaceVersion('better-sqlite3');
  await offerSqlitePrebuild(sqlite);
  // Each package under its own name, and service-js also under the name its README installs it as (an npm
  // alias). better-sqlite3 pinned to the workspace's version, the one the local prebuild is for.
  const packages = [...Object.values(tarball), `service-js@file:${tarball['@flagstation/service-js']}`];
  const tools = ['react', 'react-dom', 'esbuild', 'happy-dom'].map((name) => `${name}@${workspaceVersion(name)}`);
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...packages, ...tools, `better-sqlite3@${sqlite}`], project);

  // `npx service` as a user runs it in that project, on a fresh SQLite folder.
  const serviceEnv = { ...env, DATA_DIR: path.join(work, 'data'), DATABASE_URL: undefined };
  keys = JSON.parse((await promisify(execFile)('npx', ['--no-install', 'service', 'init', '--json'], { cwd: project, env: serviceEnv })).stdout);
  service = await spawnService(serviceEnv, undefined, path.join(project, 'node_modules/.bin/service'));
  await api()('POST', `/api/projects/${keys.project_id}/feature_flags/`, { key: FLAG, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
});

afterAll(async () => {
  await service?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the packages installed from their tarballs', () => {
  it('ship their build and no sources or tests', async () => {
    const files = (await Promise.all(fs.readdirSync(path.join(work, 'tarballs')).map((t) => run('tar', ['tzf', t], path.join(work, 'tarballs')))))
      .join('')
      .split('\n')
      .filter(Boolean);
    expect(files.filter((f) => /\/(src|test)\/|\.tsx?$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        'package/dist/main.js',
        'package/bin/service.js',
        'package/dist/index.cjs',
        'package/dist/index.d.cts',
        'package/dist/react.js',
        'package/dist/service.iife.js',
      ]),
    );
  });

  it('the service, started from the installed command, evaluates flags on /flags', async () => {
    const res = await fetch(`${service.url}/flags/?v=2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: keys.project_token, distinct_id: 'user-1' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { flags: Record<string, unknown> }).flags[FLAG]).toMatchObject({ key: FLAG, enabled: true });
  });

  it.each(['evaluate.mjs', 'evaluate.cjs'])('service-node from %s evaluates the flag locally and remotely and sends events', async (script) => {
    const out = await run(process.execPath, [script, service.url, keys.project_token, keys.personal_api_key, FLAG, 'user-1'], project, 30_000);
    expect(JSON.parse(out)).toEqual({ local: true, remote: true });
    expect(await events(script.endsWith('.mjs') ? 'esm' : 'cjs')).toHaveLength(1);
  });

  it('service-js and service-js/react under their own names load in Node as ES modules and from CommonJS, and share one client (server rendering)', async () => {
    const out = await run(process.execPath, ['ssr.mjs', FLAG], project, 30_000);
    expect(JSON.parse(out)).toEqual({ html: '<p>true</p>', cjs: ['function', 'function'] });
  });

  it('service-js and service-js/react bundle with esbuild and run in a page: the flag from the service, one shared client sending events', async () => {
    await run(
      path.join(project, 'node_modules/.bin/esbuild'),
      ['app.js', '--bundle', '--format=iife', '--outfile=bundle.js', '--define:process.env.NODE_ENV="production"', '--log-level=warning'],
      project,
      30_000,
    );
    const out = await run(process.execPath, ['browser.mjs', 'bundle.js', service.url, keys.project_token, FLAG], project, 30_000);
    expect(JSON.parse(out)).toEqual({ flag: 'true', sent: true });
    expect((await events('browser'))[0]?.properties).toMatchObject({ $lib: 'web', flag: true });
  });
});
