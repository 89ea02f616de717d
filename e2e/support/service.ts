import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restApi, spawnService } from '@service/test-support';

export const root = join(import.meta.dirname, '..', '..');

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON from the service */

/** A started service with its project and a `*` personal API key, and helpers over its REST API. */
export interface Service {
  url: string;
  projectId: number;
  token: string;
  key: string;
  output: () => string;
  /** `fetch` on the REST API with the personal key; throws on a non-2xx answer. */
  api(path: string, init?: { method?: string; body?: unknown }): Promise<any>;
  /** Creates a feature flag and returns it. */
  flag(key: string, filters: object, active?: boolean): Promise<{ id: number; key: string }>;
  /** `POST /flags/?v=2` as an SDK would, with the project token. */
  flags(body: object): Promise<any>;
  /** Stored events (newest first) of a name, optionally of one distinct id. */
  events(event: string, distinctId?: string): Promise<any[]>;
  /** Polls `events` until `until` is true of the list (default: not empty); throws after `timeoutMs`. */
  waitForEvents(event: string, distinctId: string, until?: (events: any[]) => boolean, timeoutMs?: number): Promise<any[]>;
  stop(): Promise<void>;
}

/**
 * Starts `node packages/server/bin/service.js start` on a temporary DATA_DIR and a free port, and
 * reads the project id, token and personal API key that the first start prints. `more` adds to its environment
 * (a `DATABASE_URL` and `DATABASE_SCHEMA` for PostgreSQL; a second instance on the same database prints none of them).
 */
export async function startService(more: NodeJS.ProcessEnv = {}): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, API_RATE_LIMIT_PER_MINUTE: '100000' };
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  Object.assign(env, more);
  const running = await spawnService(env).catch((error) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const { url, projectId, token, key } = running;
  const rest = restApi(url, key);
  const api = (path: string, init: { method?: string; body?: unknown } = {}) => rest<any>(init.method ?? 'GET', path, init.body);
  const stop = async () => {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const events = async (event: string, distinctId?: string) => {
    const q = new URLSearchParams({ event, limit: '1000' });
    if (distinctId) q.set('distinct_id', distinctId);
    return (await api(`/api/projects/${projectId}/events/?${q}`)).results as any[];
  };
  return {
    url,
    projectId,
    token,
    key,
    output: running.output,
    api,
    flag: (flagKey, filters, active = true) =>
      api(`/api/projects/${projectId}/feature_flags/`, { method: 'POST', body: { key: flagKey, name: flagKey, filters, active } }),
    flags: async (body) => {
      const res = await fetch(`${url}/flags/?v=2`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, ...body }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`POST /flags/?v=2: ${res.status} ${await res.text()}`);
      return res.json();
    },
    events,
    async waitForEvents(event, distinctId, until = (e) => e.length > 0, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      let last: any[] = [];
      for (;;) {
        try {
          last = await events(event, distinctId);
          if (until(last)) return last;
        } catch (e) {
          if (Date.now() > end) throw e;
        }
        if (Date.now() > end)
          throw new Error(`no matching ${event} events for ${distinctId} within ${timeoutMs} ms; last: ${JSON.stringify(last).slice(0, 2000)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    stop,
  };
}
