import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restApi, type ServiceProcess } from '@service/test-support';
import { freePort, serviceBin, serviceEnv, startServiceProcess, testStorage, type TestStorage } from './helpers';
import { buildBundle, framesOf, type Bundle } from './sourcemap-bundle';

const run = promisify(execFile);

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let storage: TestStorage;
let service: ServiceProcess;
let bundle: Bundle;
beforeAll(async () => {
  storage = testStorage();
  service = await startServiceProcess(storage);
  bundle = await buildBundle();
});
afterAll(async () => {
  await service?.stop();
  bundle?.remove();
  await storage.drop();
});

/** `service sourcemaps upload ...` against the running service, with SERVICE_HOST and SERVICE_API_KEY set; never throws. */
function upload(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return run(process.execPath, [serviceBin, 'sourcemaps', 'upload', ...args], {
    env: serviceEnv(storage, { SERVICE_HOST: service.url, SERVICE_API_KEY: service.key, ...env }),
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Result) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

// Each test runs the command a few times, each a new Node process compiling the sources (tsx).
describe('service sourcemaps upload', { timeout: 120_000 }, () => {
  it('uploads every *.js.map under --dir for the release with the minified file beside it, and exceptions captured afterwards are resolved', async () => {
    // A second map in a sub-folder, for another file, without its minified file.
    fs.mkdirSync(path.join(bundle.dist, 'assets', 'chunks'));
    fs.copyFileSync(path.join(bundle.dist, 'assets', 'app.js.map'), path.join(bundle.dist, 'assets', 'chunks', 'lazy.js.map'));
    const result = await upload(['--release', 'cli-1.0', '--dir', bundle.dist]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n').sort()).toEqual([
      `2 source maps uploaded for release cli-1.0 to project ${service.projectId}`,
      expect.stringMatching(/^uploaded {2}~\/assets\/app\.js {2}\(\d+\.\d KB, with the minified file\)$/),
      expect.stringMatching(/^uploaded {2}~\/assets\/chunks\/lazy\.js {2}\(\d+\.\d KB, no minified file beside the map\)$/),
    ]);
    const api = restApi(service.url, service.key);
    const listed = await api<{ count: number; results: { url: string; release: string }[] }>(
      'GET',
      `/api/projects/${service.projectId}/error_tracking/sourcemaps/?release=cli-1.0`,
    );
    expect(listed.results.map((m) => m.url).sort()).toEqual(['~/assets/app.js', '~/assets/chunks/lazy.js']);

    const frames = framesOf(bundle.js, 'https://shop.example.com/assets/app.js');
    const captured = await fetch(`${service.url}/batch/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        api_key: service.token,
        batch: [
          {
            event: '$exception',
            distinct_id: 'cli-user',
            properties: { $release: 'cli-1.0', $exception_list: [{ type: 'RangeError', value: 'negative price -2', stacktrace: { type: 'raw', frames } }] },
          },
        ],
      }),
    });
    expect(captured.status).toBe(200);
    const events = await api<{
      results: { properties: { $exception_list: { stacktrace: { type: string; frames: { filename: string; function: string }[] } }[] } }[];
    }>('GET', `/api/projects/${service.projectId}/events/?event=$exception&distinct_id=cli-user`);
    const stack = events.results[0]!.properties.$exception_list[0]!.stacktrace;
    expect(stack.type).toBe('resolved');
    // Named by the functions that enclose them (the minified file went with the map): the throw site is the callback
    // computeTotal passes to `each`.
    expect(stack.frames.at(-1)).toMatchObject({ filename: 'src/cart.ts', function: '<anonymous>' });
    expect(stack.frames.at(-3)).toMatchObject({ filename: 'src/cart.ts', function: 'computeTotal' });
  });

  it('uses --url-prefix and --project, and replaces the maps of the same release on a second run', async () => {
    const args = [
      '--release',
      'cli-2.0',
      '--dir',
      path.join(bundle.dist, 'assets'),
      '--url-prefix',
      'https://cdn.example.com/static',
      '--project',
      String(service.projectId),
    ];
    for (let i = 0; i < 2; i++) {
      const result = await upload(args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('uploaded  https://cdn.example.com/static/app.js  (');
    }
    const listed = await restApi(service.url, service.key)<{ count: number }>(
      'GET',
      `/api/projects/${service.projectId}/error_tracking/sourcemaps/?release=cli-2.0`,
    );
    expect(listed.count).toBe(2);
  });

  it('reports each failed file and exits 1: an invalid map, a key without error_tracking:write', async () => {
    const broken = fs.mkdtempSync(path.join(storage.dataDir, 'broken-'));
    fs.writeFileSync(path.join(broken, 'good.js.map'), bundle.map);
    // A minified file the service does not read: the map goes alone, and says why.
    fs.writeFileSync(path.join(broken, 'good.js'), 'function (');
    fs.writeFileSync(path.join(broken, 'bad.js.map'), '{"version": 3, "mappings": ');
    const result = await upload(['--release', 'cli-bad', '--dir', broken]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /uploaded {2}~\/good\.js {2}\(\d+\.\d KB, without the minified file: 400 \(source\): The minified file is not JavaScript the service reads: Unexpected token \(1:9\)\.\)/,
    );
    expect(result.stderr).toContain('failed    ~/bad.js  400 (map): Not a valid source map (v3): not JSON.');
    expect(result.stderr).toContain('error: 1 of 2 source maps failed to upload (release cli-bad); 1 uploaded');

    const { stdout } = await run(process.execPath, [serviceBin, 'keys', 'create', '--scopes', 'error_tracking:read,project:read', '--json'], {
      env: serviceEnv(storage),
    });
    const reader = JSON.parse(stdout).personal_api_key as string;
    const denied = await upload(['--release', 'cli-denied', '--dir', broken], { SERVICE_API_KEY: reader });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain("failed    ~/good.js  403: API key missing required scope 'error_tracking:write'");
  });

  it('says plainly what is missing: a key, maps in the folder, a reachable service', async () => {
    const noKey = await upload(['--release', 'x', '--dir', bundle.dist], { SERVICE_API_KEY: '' });
    expect(noKey).toMatchObject({ code: 1, stdout: '' });
    expect(noKey.stderr).toBe('error: a personal API key with scope error_tracking:write is needed: --api-key KEY or SERVICE_API_KEY\n');
    const empty = fs.mkdtempSync(path.join(storage.dataDir, 'empty-'));
    const none = await upload(['--release', 'x', '--dir', empty]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error: no \*\.js\.map files under .*empty-/);
    const down = await upload(['--release', 'x', '--dir', bundle.dist, '--project', '1'], { SERVICE_HOST: `http://127.0.0.1:${await freePort()}` });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); is the service running there\?/);
  });
});
