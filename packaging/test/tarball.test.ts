// The packages as users get them, by the commands the README's "Install" and docs/deployment.md's "Without Docker"
// give: packed as `npm publish` packs them (prepack builds), installed from the tarballs into empty folders outside the
// workspace (no links to the sources), and used there: the service started from its installed command, service-node
// imported from ESM and required from CommonJS, service-js and service-js/react bundled with esbuild and run in a DOM.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restApi, spawnService, type ServiceProcess } from '@service/test-support';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(import.meta.dirname, '../fixture');
/** The home folder of the documented commands (their `~` and `$HOME`): the tarballs and the service's folder go there. */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'service-tarballs-'));
/** A user's app, where the README's client install lines run. */
const project = path.join(work, 'project');
const FLAG = 'tarball-flag';

const manifest = (dir: string): { name: string; version: string } => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
/** The version of a package installed in the workspace (what `npm ci` put in the npm cache). */
const workspaceVersion = (name: string) => manifest(path.join(root, 'node_modules', name)).version;

/** The shell blocks (```sh) of a Markdown file's section, from its heading to the next one of its level. */
function shellBlocks(file: string, heading: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const section = text.split(`\n${heading}\n`)[1]?.split(new RegExp(`\n${heading.split(' ')[0]} `))[0];
  if (!section) throw new Error(`${file} has no section "${heading}"`);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * The children's environment: without the `npm_*` variables of an `npm test` around this one, with `work` as their
 * home, and npm's own settings and cache from the real home (offline where the cache has what is asked).
 */
const npmHome = os.homedir();
const env: NodeJS.ProcessEnv = {
  // eslint-disable-next-line no-restricted-syntax -- children are configured through their environment
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_'))),
  HOME: work,
  npm_config_userconfig: path.join(npmHome, '.npmrc'),
  npm_config_cache: path.join(npmHome, '.npm'),
  npm_config_prefer_offline: 'true',
  npm_config_loglevel: 'error',
};

/** Runs a command; its stdout, or a thrown error with everything it printed. */
async function run(cmd: string, args: string[], cwd: string, timeout = 240_000): Promise<string> {
  try {
    return (await promisify(execFile)(cmd, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`, { cause: error });
  }
}

/** Runs a documented block of shell commands in bash, stopping at the first that fails. */
const runBlock = (block: string, cwd: string) => run('bash', ['-e', '-c', block], cwd, 480_000);

/**
 * better-sqlite3 installs a prebuilt binary that prebuild-install downloads from GitHub; where that is out of
 * reach it compiles SQLite instead, which takes minutes. The binary the workspace already built (same
 * version, same Node) is offered as a local prebuild (in the home's `.prebuild-installrc`), so the install goes as it
 * does for users: a binary is unpacked, no compiler runs. Returns the version it is for.
 */
async function offerSqlitePrebuild(): Promise<string> {
  const version = workspaceVersion('better-sqlite3');
  const module = path.join(root, 'node_modules', 'better-sqlite3');
  const prebuilds = path.join(work, 'prebuilds');
  fs.mkdirSync(prebuilds);
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['czf', path.join(prebuilds, file), 'build/Release/better_sqlite3.node'], module);
  fs.writeFileSync(path.join(work, '.prebuild-installrc'), `local-prebuilds=${prebuilds}\n`);
  return version;
}

let service: ServiceProcess;
let keys: { project_id: number; project_token: string; personal_api_key: string };
const api = () => restApi(service.url, keys.personal_api_key);
const events = async (module: string) => {
  const page = await api()<{ results: { properties: Record<string, unknown> }[] }>('GET', `/api/projects/${keys.project_id}/events/?event=tarball_check`);
  return page.results.filter((e) => e.properties.module === module);
};

beforeAll(async () => {
  const [pack, clients] = shellBlocks('README.md', '## Install');
  const [installService, startService] = shellBlocks('docs/deployment.md', '## Without Docker');
  const sqlite = await offerSqlitePrebuild();

  // In the clone (this checkout): the README's pack command.
  await runBlock(pack!, root);

  // In an app: the README's install lines, then what the fixtures use besides (service-js also under the name it is
  // to be published as; the tools, at the workspace's versions, which npm's cache has).
  fs.mkdirSync(project);
  fs.cpSync(fixture, project, { recursive: true });
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'tarball-check', private: true, allowScripts: { esbuild: true } }));
  await runBlock(clients!, project);
  const jsTarball = path.join(work, 'flagstation-packages', `flagstation-service-js-${manifest(path.join(root, 'packages/js')).version}.tgz`);
  const tools = ['react', 'react-dom', 'esbuild', 'happy-dom'].map((name) => `${name}@${workspaceVersion(name)}`);
  await run('npm', ['install', jsTarball, ...tools], project);

  // The service in a folder of its own, as docs/deployment.md installs it. Its package.json is there first only to
  // pin better-sqlite3 to the version the local prebuild is for (`npm init -y` keeps what it finds).
  const serviceDir = path.join(work, 'service');
  fs.mkdirSync(serviceDir);
  fs.writeFileSync(path.join(serviceDir, 'package.json'), JSON.stringify({ overrides: { 'better-sqlite3': sqlite } }));
  await runBlock(installService!, work);
  expect(startService!.trim()).toMatch(/ npx service start$/);

  // `npx service` as a user runs it in that folder, on a fresh SQLite folder.
  const serviceEnv = { ...env, DATA_DIR: path.join(work, 'data'), DATABASE_URL: undefined };
  keys = JSON.parse((await promisify(execFile)('npx', ['--no-install', 'service', 'init', '--json'], { cwd: serviceDir, env: serviceEnv })).stdout);
  service = await spawnService(serviceEnv, undefined, path.join(serviceDir, 'node_modules/.bin/service'));
  await api()('POST', `/api/projects/${keys.project_id}/feature_flags/`, { key: FLAG, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } });
});

afterAll(async () => {
  await service?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the packages installed from their tarballs', () => {
  it('ship their build and no sources or tests', async () => {
    const tarballs = path.join(work, 'flagstation-packages');
    const files = (await Promise.all(fs.readdirSync(tarballs).map((t) => run('tar', ['tzf', t], tarballs)))).join('').split('\n').filter(Boolean);
    expect(files.filter((f) => /\/(src|test)\/|\.tsx?$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        'package/dist/main.js',
        'package/dist/sourcemap-worker.js',
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

  it('the service, started from the installed command, reads source maps in its worker thread: takes a map, refuses a bad one', async () => {
    const upload = (mappings: string) =>
      fetch(`${service.url}/api/projects/${keys.project_id}/error_tracking/sourcemaps/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.personal_api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ release: '1', url: '~/assets/app.js', map: JSON.stringify({ version: 3, sources: ['src/app.ts'], names: [], mappings }) }),
      });
    expect((await upload('AAAA')).status).toBe(201);
    const bad = await upload('AA!A');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_source_map', attr: 'map' });
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
