// A real service in a child process (`service start`), as users run it; shared by the server's, service-node's,
// the browser and the packaging tests, and the benchmarks. Types in service-process.d.mts.
/* global AbortSignal -- Node's, like fetch */
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.resolve(here, '../server');

/** The repository's `service` command: `packages/server/bin/service.js` (it runs the sources through tsx). */
export const repositoryBin = path.join(server, 'bin/service.js');

/**
 * The service's command line for tests and benchmarks: the build of the sources a test run made first (`SERVICE_BIN`,
 * set by `buildService` in the suites' global setup), else the repository's command.
 */
export const serviceBin = process.env.SERVICE_BIN || repositoryBin;

/**
 * Builds the server from its sources (tsup, the flag engine bundled in), as it is installed, into `outDir` of the server
 * package (default `dist`; another folder there for a test run, which suites running at once must not share: tsup
 * empties its folder first), and returns the entry's path. A process started from the build starts in a second or so;
 * from the sources through tsx, in three.
 */
export function buildService(outDir = 'dist') {
  // tsup's errors (on stderr) go into the error thrown when the build fails.
  execFileSync(process.execPath, [path.resolve(here, '../../node_modules/tsup/dist/cli-default.js'), '--out-dir', outDir], {
    cwd: server,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return path.resolve(server, outDir, 'main.js');
}

/**
 * A TCP port free on 127.0.0.1 right now, below the ephemeral range (32768 and up on Linux, 49152 and up elsewhere):
 * a port the system hands out (`listen(0)`) may be taken by any outgoing connection before the service binds it, which
 * a busy machine (a benchmark's thousands of client sockets) does.
 */
export async function freePort() {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = net.createServer();
    const bound = await new Promise((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
}

/**
 * The last line `service start` prints once it listens ("Open http://… to use the web app."), whole: what it prints
 * on listening is in `output` by then, so that a test reading what comes after sees only what it caused. (Resolving
 * on the first line, "Service listening on …", let the second arrive later on a busy machine, in a test's log lines.)
 */
const LISTENING = /to use the web app[^\n]*\n/;

/**
 * Starts `service start` with this environment (PORT, DATA_DIR, DATABASE_URL ...) and resolves once it listens;
 * `bin` is the command's script, by default the repository's (another is an installed package's); `startTimeoutMs`:
 * how long it may take to listen (several workers take longer).
 */
export async function spawnService(env, port, bin = serviceBin, startTimeoutMs = 30_000) {
  port ??= await freePort();
  const child = spawn(process.execPath, [bin, 'start'], { env: { LOG_LEVEL: 'warn', ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + startTimeoutMs;
  while (!LISTENING.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const printed = (label) => new RegExp(`${label}:\\s+(\\S+)`).exec(output)?.[1] ?? '';
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    projectId: Number(printed('project id')),
    token: printed('project token'),
    key: printed('personal API key'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Calls the REST API with a personal API key; the parsed JSON answer, or a thrown error on a non-2xx status. */
export function restApi(url, key) {
  return async (method, route, body) => {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}
