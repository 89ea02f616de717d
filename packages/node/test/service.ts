// A real service in a child process (`service start` on a fresh SQLite folder), as users run it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { restApi, spawnService } from '@service/test-support';

// eslint-disable-next-line no-restricted-syntax -- the child is configured through its environment, like any deployment
const serviceEnv = process.env;

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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-node-test-'));
  const env = { ...serviceEnv, DATA_DIR: dataDir, API_RATE_LIMIT_PER_MINUTE: '1000000', PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000' };
  let running = await spawnService(env);
  const { url, port, projectId, token, key } = running;
  const api = restApi(url, key);

  /** Stored events matching the query (newest first), up to 1000. */
  const events = async (query: { event?: string; distinct_id?: string }) => {
    const params = new URLSearchParams({ ...query, limit: '1000' });
    return api<{ count: number; results: StoredEvent[] }>('GET', `/api/projects/${projectId}/events/?${params}`);
  };

  return {
    url,
    port,
    projectId,
    token,
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
    stop: () => running.stop(),
    /** Starts again on the same port and data, after `stop()`: together an outage. */
    async start() {
      running = await spawnService(env, port);
    },
    async close() {
      await this.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
