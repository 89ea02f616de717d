import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restApi, spawnService, type ServiceProcess } from '@service/test-support';
import { dialect, serviceEnv, testStorage, type TestStorage } from './helpers';

// Several instances share the job: on PostgreSQL two `service start` processes on one database, each running the job
// (they claim changes with `for update skip locked`); on SQLite one process with two workers (jobs run in one of them).

const FLAGS = 20;
const STEPS = 3;

let storage: TestStorage;
const services: ServiceProcess[] = [];
beforeAll(async () => {
  storage = testStorage();
  if (dialect === 'postgres') {
    // One after the other: the first migrates and creates the project and key.
    services.push(await spawnService(serviceEnv(storage)));
    services.push(await spawnService(serviceEnv(storage)));
  } else {
    services.push(await spawnService(serviceEnv(storage, { WORKERS: '2' }), undefined, undefined, 90_000));
  }
}, 120_000);
afterAll(async () => {
  for (const service of services) await service.stop();
  await storage.drop();
});

interface Change {
  status: string;
}

describe(`scheduled changes with several instances (${dialect})`, { timeout: 120_000 }, () => {
  it('applies each due change exactly once: one activity entry and one version per change', async () => {
    const [first] = services;
    const api = restApi(first!.url, first!.key);
    const project = `/api/projects/${first!.projectId}`;
    const flags: number[] = [];
    for (let i = 0; i < FLAGS; i++) {
      const flag = await api<{ id: number }>('POST', `${project}/feature_flags/`, {
        key: `ramped-${i}`,
        filters: { groups: [{ properties: [], rollout_percentage: 0 }] },
      });
      flags.push(flag.id);
    }
    // Every flag's ramp starts at the same moment, a few seconds ahead: more changes than one batch, due at once.
    const start = Date.now() + 3_000;
    for (const [i, id] of flags.entries()) {
      const via = restApi(services[i % services.length]!.url, first!.key);
      const ramp = Array.from({ length: STEPS }, (_, step) => ({ scheduled_at: new Date(start + step).toISOString(), rollout_percentage: (step + 1) * 25 }));
      await via('POST', `${project}/feature_flags/${id}/scheduled_changes/`, { ramp });
    }

    const pending = async () => {
      let left = 0;
      for (const id of flags) {
        const { results } = await api<{ results: Change[] }>('GET', `${project}/feature_flags/${id}/scheduled_changes/`);
        left += results.filter((change) => change.status === 'pending').length;
      }
      return left;
    };
    // The job sleeps until the changes are due; poll until none is pending (the test's timeout bounds it).
    while ((await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 250));

    for (const id of flags) {
      const { results } = await api<{ results: Change[] }>('GET', `${project}/feature_flags/${id}/scheduled_changes/`);
      expect(results.map((change) => change.status)).toEqual(Array(STEPS).fill('applied'));
      const flag = await api<{ version: number; filters: { groups: { rollout_percentage: number }[] } }>('GET', `${project}/feature_flags/${id}/`);
      expect(flag.filters.groups[0]!.rollout_percentage).toBe(STEPS * 25);
      expect(flag.version).toBe(1 + STEPS);
      const log = await api<{ results: { activity: string; detail: { changes: { field: string }[] } }[] }>(
        'GET',
        `${project}/activity_log/?scope=FeatureFlag&item_id=${id}`,
      );
      // One entry per applied change, besides the one of scheduling the ramp.
      const applied = log.results.filter((entry) => entry.activity === 'updated' && entry.detail.changes[0]!.field !== 'scheduled_change');
      expect(applied).toHaveLength(STEPS);
    }
  });
});
