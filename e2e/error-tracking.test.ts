import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPerFile, serveStatic } from './support/browser';
import { buildExampleApp } from './support/example-app';
import { root, startService, type Service } from './support/service';

/* eslint-disable @typescript-eslint/no-explicit-any -- the service's JSON */

// Error tracking end to end: the example app (examples/react-app) built with hidden source maps for a release, the
// maps uploaded with the real CLI, the app throwing inside ServiceErrorBoundary in Chromium, and the issue read back
// through the API with its stack in the original source.
const RELEASE = 'example-app@e2e';
let svc: Service;
let app: { url: string; close: () => Promise<void> };
let dist: string;
let upload: { code: number | null; output: string };
const chromium = chromiumPerFile();

/** Runs a command from the repository's root; its exit code and output. */
async function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, output };
}

beforeAll(async () => {
  svc = await startService();
  chromium.cleanup(() => svc.stop());
  dist = await buildExampleApp({ APP_PUBLIC_SERVICE_KEY: svc.token, APP_PUBLIC_SERVICE_HOST: svc.url, APP_PUBLIC_RELEASE: RELEASE });
  chromium.cleanup(() => rmSync(dist, { recursive: true, force: true }));
  app = await serveStatic(dist);
  chromium.cleanup(() => app.close());
  // As a user would after `vite build`: the project and key from the environment, the maps for where the scripts are served.
  upload = await run('npx', ['service', 'sourcemaps', 'upload', '--release', RELEASE, '--dir', dist, '--url-prefix', `${app.url}/`], {
    SERVICE_HOST: svc.url,
    SERVICE_PROJECT_ID: String(svc.projectId),
    SERVICE_API_KEY: svc.key,
  });
});

const issuesPath = () => `/api/projects/${svc.projectId}/error_tracking/issues/`;
const listIssues = async (): Promise<any[]> => (await svc.api(issuesPath())).results;

/** The file name of the app's main script (`index-<hash>.js`). */
const mainScript = () => readdirSync(join(dist, 'assets')).find((f) => /^index-.*\.js$/.test(f))!;

/** The lines of the example app's `src/BrokenCart.tsx`, the component that throws. */
const sourceLines = () => readFileSync(join(root, 'examples', 'react-app', 'src', 'BrokenCart.tsx'), 'utf8').split('\n');

/** The line (1-based) of `src/BrokenCart.tsx` that contains `text`. */
function lineOf(text: string): number {
  const index = sourceLines().findIndex((line) => line.includes(text));
  expect(index, text).toBeGreaterThanOrEqual(0);
  return index + 1;
}

describe('error tracking with the example React app', () => {
  it('uploads the build’s source maps with `service sourcemaps upload`', async () => {
    expect(upload.code, upload.output).toBe(0);
    const scripts = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
    const main = mainScript();
    expect(upload.output).toContain(`assets/${main}  (`);
    expect(upload.output).toContain('with the minified file)');
    // Hidden source maps: the scripts do not point at them, so only the upload can map their stacks.
    expect(readFileSync(join(dist, 'assets', main), 'utf8')).not.toContain('sourceMappingURL');
    const maps = await svc.api(`/api/projects/${svc.projectId}/error_tracking/sourcemaps/?release=${encodeURIComponent(RELEASE)}`);
    expect(maps.results.map((m: any) => m.url).sort()).toEqual(scripts.map((f) => `${app.url}/assets/${f}`).sort());
  });

  it('a render error inside ServiceErrorBoundary shows the fallback and becomes an issue with its stack in the original source', async () => {
    const page = await chromium.newPage();
    await page.goto(app.url);
    await page.getByTestId('cart-total').waitFor();
    expect(await page.getByTestId('cart-total').textContent()).toBe('$22.48');

    await page.getByRole('button', { name: 'Break the cart' }).click();
    const fallback = page.getByRole('alert').filter({ hasText: 'The cart hit a snag' });
    await fallback.waitFor();
    expect(await page.getByTestId('cart-total').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Early access' }).isVisible()).toBe(true); // the rest of the app is still there

    await expect.poll(listIssues, { timeout: 15_000 }).toHaveLength(1);
    const [listed] = await listIssues();
    expect(listed).toMatchObject({ name: 'TypeError', description: 'Cart item has no price: Mystery item', status: 'active', occurrences: 1, people: 1 });

    const issue = await svc.api(`${issuesPath()}${listed.id}/`);
    const props = issue.latest_event.properties;
    expect(props.$release).toBe(RELEASE);
    const [thrown, componentStack] = props.$exception_list;
    expect(thrown).toMatchObject({ type: 'TypeError', value: 'Cart item has no price: Mystery item', mechanism: { handled: true } });
    expect(thrown.stacktrace.type).toBe('resolved');
    const frames: any[] = thrown.stacktrace.frames;
    const inApp = frames.filter((f) => f.in_app);
    const throwLine = lineOf('throw new TypeError');
    expect(inApp.at(-1)).toMatchObject({
      resolved: true,
      filename: 'src/BrokenCart.tsx',
      function: 'cartTotal',
      lineno: throwLine,
      // The minifier writes `throw TypeError(…)` (no `new`): the stack's column is the call's, mapped to `TypeError`.
      colno: sourceLines()[throwLine - 1]!.indexOf('TypeError(') + 1,
      context_line: sourceLines()[throwLine - 1],
      pre_context: sourceLines().slice(throwLine - 4, throwLine - 1),
      post_context: sourceLines().slice(throwLine, throwLine + 3),
      mangled_name: expect.any(String),
      raw: { filename: `${app.url}/assets/${mainScript()}`, lineno: expect.any(Number), colno: expect.any(Number) },
    });
    // Below it, the component that rendered the total, named by its own name (the upload sent the minified script
    // with its map), not by the variable React calls it through; React's own frames are resolved too, to
    // node_modules, and not in-app.
    expect(inApp.at(-2)).toMatchObject({ resolved: true, filename: 'src/BrokenCart.tsx', function: 'Cart', lineno: lineOf('money(cartTotal(items))') });
    const react = frames.filter((f) => f.filename.startsWith('node_modules/react-dom/'));
    expect(react.length).toBeGreaterThan(0);
    expect(react.every((f) => f.resolved === true && f.in_app === false)).toBe(true);
    expect(frames.filter((f) => f.in_app)).toHaveLength(2);
    // The boundary's React component stack, as posthog-js's boundary sends it: the last entry, resolved too.
    expect(componentStack).toMatchObject({ type: 'React ErrorBoundary TypeError', stacktrace: { type: 'resolved' } });
    expect(componentStack.stacktrace.frames.map((f: any) => f.filename)).toEqual(expect.arrayContaining(['src/BrokenCart.tsx', 'src/App.tsx']));

    // "Try again" renders the cart from its first state; breaking it again is the same issue.
    await fallback.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('cart-total').waitFor();
    expect(await page.getByTestId('cart-fallback').count()).toBe(0);
    await page.getByRole('button', { name: 'Break the cart' }).click();
    await fallback.waitFor();
    await expect.poll(async () => (await listIssues()).map((i) => [i.id, i.occurrences, i.people]), { timeout: 15_000 }).toEqual([[listed.id, 2, 1]]);
  });
});
