// Shared pieces of the benchmarks: start the service in its own process, find ports, run autocannon.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnService } from '@service/test-support';
import autocannon from 'autocannon';

export { freePort, record } from '@service/test-support';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts `service start` in a child process on a fresh database, without rate limits; resolves once it listens. */
export async function startService(env = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-bench-'));
  const service = await spawnService({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
    API_RATE_LIMIT_PER_MINUTE: '100000000',
    ...env,
  });
  return {
    ...service,
    dataDir,
    async stop() {
      await service.stop();
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

export const machine = () =>
  `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
