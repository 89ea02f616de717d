// `/flags/stream` across processes: on PostgreSQL two service instances on one database (LISTEN/NOTIFY), on SQLite one
// service with two workers (the cluster's messages); a change made through one reaches the streams of the other.
import { openEventStream, restApi, spawnService, type EventStream } from '@service/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect, serviceEnv, testStorage, type TestStorage } from './helpers';

const START_MS = 120_000;
const NOTICE = /event: message\ndata: \{"type":"refetchEvaluation","etag":"[^"]+"\}\n\n/;

let storage: TestStorage;
let first: Awaited<ReturnType<typeof spawnService>>;
let second: typeof first;

beforeAll(async () => {
  storage = testStorage();
  if (dialect === 'postgres') {
    first = await spawnService(serviceEnv(storage), undefined, undefined, START_MS);
    second = await spawnService(serviceEnv(storage), undefined, undefined, START_MS);
  } else {
    // New connections go to the workers in turn: the streams below are spread over both.
    first = second = await spawnService(serviceEnv(storage, { WORKERS: '2' }), undefined, undefined, START_MS);
  }
}, 2 * START_MS);
afterAll(async () => {
  await Promise.all([first.stop(), second.stop()]);
  await storage.drop();
});

describe(`/flags/stream on ${dialect === 'postgres' ? 'two instances' : 'two workers'}`, () => {
  let streams: EventStream[];

  it('tells the streams of one process of a flag change made through the other', async () => {
    streams = await Promise.all(Array.from({ length: 4 }, () => openEventStream(`${second.url}/flags/stream?token=${first.token}`)));
    await Promise.all(streams.map((stream) => stream.waitFor(/: connected\n/)));
    await restApi(first.url, first.key)('POST', `/api/projects/${first.projectId}/feature_flags/`, {
      key: 'across-processes',
      filters: { groups: [{ properties: [], rollout_percentage: 100 }] },
    });
    await Promise.all(streams.map((stream) => stream.waitFor(NOTICE)));
  });

  it('ends its streams as it stops, and stops', async () => {
    await second.stop();
    await Promise.all(streams.map((stream) => stream.closed));
    expect(streams.every((stream) => stream.ended)).toBe(true);
    expect(second.child.exitCode).toBe(0);
  });
});
