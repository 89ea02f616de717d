// Realtime flags: local evaluation hears of a change through `/flags/stream` instead of waiting for its poll. With
// TEST_DATABASE_URL, two service processes on one PostgreSQL schema (the change made through one, the client streaming
// from the other); else one SQLite service with two workers, whose workers tell each other as the instances do.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually, postgresSchema, restApi, spawnService } from '@service/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Service } from '../src/index';

// eslint-disable-next-line no-restricted-syntax -- the children are configured through their environment, like any deployment
const { TEST_DATABASE_URL: databaseUrl, ...parentEnv } = process.env;
const START_MS = 60_000;

type Instance = Awaited<ReturnType<typeof spawnService>>;
let first: Instance;
let second: Instance;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-node-realtime-'));
  const env: NodeJS.ProcessEnv = { ...parentEnv, DATA_DIR: dataDir, API_RATE_LIMIT_PER_MINUTE: '1000000', PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000' };
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  if (databaseUrl) {
    const schema = postgresSchema(databaseUrl);
    first = await spawnService({ ...env, ...schema.env }, undefined, undefined, START_MS);
    // The second instance finds the first one's project and key: it prints none of its own.
    second = await spawnService({ ...env, ...schema.env }, undefined, undefined, START_MS);
    cleanup = async () => {
      await Promise.all([first.stop(), second.stop()]);
      await schema.drop();
    };
  } else {
    first = second = await spawnService({ ...env, WORKERS: '2' }, undefined, undefined, START_MS);
    cleanup = () => first.stop();
  }
  const done = cleanup;
  cleanup = async () => {
    await done();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}, 2 * START_MS);
afterAll(() => cleanup());

/** Whether `check` came true within `ms` (looked at every 20 ms). */
async function until(check: () => Promise<boolean>, ms = 10_000) {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) if (await check()) return true;
  return false;
}

const flagBody = (rollout: number) => ({ filters: { groups: [{ properties: [], rollout_percentage: rollout }] } });

describe('realtimeFlags', () => {
  it('reloads the definitions as soon as a flag changes on another instance, long before its 60 s poll', async () => {
    const api = restApi(first.url, first.key);
    const flag = await api<{ id: number }>('POST', `/api/projects/${first.projectId}/feature_flags/`, { key: 'realtime-flag', ...flagBody(0) });
    const errors: Error[] = [];
    const client = new Service(first.token, { host: second.url, personalApiKey: first.key, featureFlagsPollingInterval: 60_000, realtimeFlags: true });
    client.on('error', (error) => errors.push(error));
    try {
      const enabled = () => client.isFeatureEnabled('realtime-flag', 'user-1', { onlyEvaluateLocally: true, sendFeatureFlagEvents: false });
      expect(await enabled()).toBe(false);
      for (const rollout of [100, 0, 100]) {
        await api('PATCH', `/api/projects/${first.projectId}/feature_flags/${flag.id}/`, flagBody(rollout));
        expect(await until(async () => (await enabled()) === (rollout === 100))).toBe(true);
      }
      expect(errors).toEqual([]);
    } finally {
      await client.shutdown();
    }
  });

  it('never throws into the app when the stream cannot be had: it reports, and local evaluation goes on', async () => {
    const errors: Error[] = [];
    const client = new Service(first.token, { host: second.url, personalApiKey: 'phx_not_a_key', realtimeFlags: true });
    client.on('error', (error) => errors.push(error));
    try {
      expect(await eventually(() => errors.some((error) => /flags\/stream answered 401/.test(error.message)))).toBe(true);
      await expect(client.getAllFlags('user-1')).resolves.toBeDefined();
    } finally {
      await client.shutdown();
    }
  });
});
