// Shared pieces of the benchmarks: start the service in its own process, find ports, run autocannon.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export { record } from './results.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `service start` in a child process on a fresh database; resolves once it listens. */
export async function startService(env = {}, nodeArgs = []) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-bench-'));
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'packages/server/bin/service.js'), 'start'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000', API_RATE_LIMIT_PER_MINUTE: '100000000', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (!output.includes('Service listening')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`service did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const grab = (label) => new RegExp(`${label}:\\s+(\\S+)`).exec(output)?.[1];
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    projectId: Number(grab('project id')),
    token: grab('project token'),
    key: grab('personal API key'),
    child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs autocannon and returns the figures we report. */
export async function load(options) {
  const result = await autocannon({ connections: 32, duration: 10, ...options });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    total: result.requests.total,
  };
}

export const machine = () => `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
