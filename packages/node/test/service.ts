// A real service in a child process (`service start` on a fresh SQLite folder), as users run it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface StoredEvent {
  id: string;
  event: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  timestamp: string;
}

export type RunningService = Awaited<ReturnType<typeof startService>>;

/** Starts the service; `stop()` and `start()` again on the same port and data simulate an outage. */
export async function startService() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-node-test-'));
  let child: ChildProcess | null = null;
  const launch = async () => {
    const proc = spawn(process.execPath, [path.join(root, 'packages/server/bin/service.js'), 'start'], {
      // eslint-disable-next-line no-restricted-syntax -- the child is configured through its environment, like any deployment
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', API_RATE_LIMIT_PER_MINUTE: '1000000', PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = proc;
    let output = '';
    proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 20_000;
    while (!output.includes('Service listening')) {
      if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`service did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return output;
  };
  const output = await launch();
  const grab = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(output)?.[1] ?? '';
  const url = `http://127.0.0.1:${port}`;
  const key = grab('personal API key');
  const projectId = Number(grab('project id'));

  /** A REST call with the personal API key; throws on a non-2xx answer. */
  const api = async <T = unknown>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  /** Stored events matching the query (newest first), up to 1000. */
  const events = async (query: { event?: string; distinct_id?: string }) => {
    const params = new URLSearchParams({ ...query, limit: '1000' });
    return api<{ count: number; results: StoredEvent[] }>('GET', `/api/projects/${projectId}/events/?${params}`);
  };

  return {
    url,
    port,
    projectId,
    token: grab('project token'),
    key,
    api,
    events,
    /** Polls until `count` events match (ingestion acknowledges before we read, but be patient anyway). */
    async waitForEvents(query: { event?: string; distinct_id?: string }, count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const page = await events(query);
        if (page.count >= count || Date.now() > deadline) return page;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /** Creates a feature flag through the REST API. */
    createFlag(flag: { key: string; name?: string; filters: unknown; active?: boolean }) {
      return api<{ id: number; key: string }>('POST', `/api/projects/${projectId}/feature_flags/`, flag);
    },
    async stop() {
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((resolve) => (proc.exitCode !== null ? resolve(null) : proc.once('exit', resolve)));
    },
    async start() {
      await launch();
    },
    async close() {
      await this.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
