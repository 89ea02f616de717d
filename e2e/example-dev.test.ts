import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { freePort } from '@service/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile } from './support/browser';
import { root, startService, type Service } from './support/service';

// examples/react-app/README.md followed as a developer would: its block that creates the flags and features runs
// against a started service, the `npm run` lines of "Run it against `npm start`" name workspaces and scripts that
// exist, and its dev command serves the app, whose script runs in Chromium against that service. (The build line itself
// is what e2e's `npm test` runs first, so it is not run again here.)
const readme = readFileSync(join(root, 'examples/react-app/README.md'), 'utf8');
const section = readme.split('## Run it against `npm start`')[1]!.split('\n## ')[0]!;
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const commands = blocks
  .flatMap((block) => block.split('\n'))
  .map((line) => /^npm run (\S+) -w (\S+)/.exec(line))
  .filter((m) => m !== null)
  .map(([line, script, workspace]) => ({ line, script: script!, workspace: workspace! }));

let svc: Service;
let dev: ChildProcess;
let url: string;
const chromium = chromiumPerFile();

/** Stops the dev server: npm, its shell and Vite (one process group). */
function stopDevServer() {
  if (dev.exitCode !== null || dev.signalCode !== null) return;
  const exited = new Promise((resolve) => dev.once('exit', resolve));
  process.kill(-dev.pid!, 'SIGTERM');
  return exited;
}

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  // The README's block, with what this service printed in place of its placeholders (its first line).
  const setup = blocks.find((block) => block.startsWith('export SERVICE_HOST='))!;
  const script = [`export SERVICE_HOST=${svc.url} SERVICE_KEY=${svc.key} PROJECT_ID=${svc.projectId}`, ...setup.split('\n').slice(1)].join('\n');
  const created = (await promisify(execFile)('bash', ['-e', '-c', script])).stdout.trim().split('\n');
  expect(created.map((line) => JSON.parse(line).id)).toEqual([expect.any(Number), expect.any(Number), expect.any(String), expect.any(String)]);

  const line = commands.find((c) => c.script === 'dev')!;
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // The README's line as it is, on a free port; the variables it writes into .env.local come from the environment here
  // (Vite reads APP_PUBLIC_* from both).
  dev = spawn('npm', ['run', line.script, '-w', line.workspace, '--', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', NODE_ENV: 'development', APP_PUBLIC_SERVICE_KEY: svc.token, APP_PUBLIC_SERVICE_HOST: svc.url },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  dev.stdout!.on('data', (d) => (output += d));
  dev.stderr!.on('data', (d) => (output += d));
  chromium.cleanup(stopDevServer);
  const deadline = Date.now() + 60_000;
  // Vite colours the port when a terminal asks for colour (CI may set FORCE_COLOR): read the text without its escapes.
  while (!stripVTControlCharacters(output).includes(url)) {
    if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`${line.line} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

describe('examples/react-app/README.md, run as written', () => {
  it('names a build command and a dev command, each for a workspace and script that exist', async () => {
    expect(commands.map((c) => `${c.script} ${c.workspace}`)).toEqual(expect.arrayContaining(['build packages/js', 'dev example-react-app']));
    for (const { line, script, workspace } of commands) {
      const { stdout } = await promisify(execFile)('npm', ['pkg', 'get', `scripts.${script}`, '-w', workspace], { cwd: root }).catch((error) => {
        throw new Error(`${line}: ${error.stderr}`);
      });
      expect(Object.values(JSON.parse(stdout) as Record<string, unknown>), line).toEqual([expect.any(String)]);
    }
  });

  it('the dev server serves the page and its modules, and the app runs in Chromium with the flags and features the README made', async () => {
    const index = await fetch(url);
    expect(index.status).toBe(200);
    const entry = /<script type="module" src="(\/src\/[^"]+)"/.exec(await index.text())?.[1];
    expect(entry).toBe('/src/main.tsx');
    const module = await fetch(`${url}${entry}`);
    expect(module.status, await module.clone().text()).toBe(200);

    const page = await chromium.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(`${message.text()} ${message.location().url}`));
    await page.goto(url);
    await expect.poll(() => page.getByTestId('new-banner').textContent(), { timeout: 20_000 }).toContain('Hello from the service');
    await expect.poll(() => page.getByTestId('checkout').getAttribute('data-variant')).toMatch(/^(control|test)$/);
    await page.getByText('Dark mode').first().waitFor();
    await page.getByText('AI assistant').first().waitFor();
    await expect.poll(() => page.getByTestId('distinct-id').textContent()).not.toBe('…');
    expect(errors).toEqual([]);
  });
});
