// The official posthog-node SDK, pointed at the service unchanged: capture, identify, local and remote flags.
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISTINCT_IDS, flagSet, personOf } from '@service/test-support';
import { startService, type RunningService } from './service';

let service: RunningService;
const ids = Array.from({ length: 200 }, (_, i) => (i * 37) % DISTINCT_IDS);

beforeAll(async () => {
  service = await startService();
  for (const flag of flagSet()) await service.createFlag(flag);
});
afterAll(() => service?.close());

/** What our `/flags` answers for a person, as `{key: value}`. */
async function served(distinctId: string, personProperties: Record<string, unknown>) {
  const res = await fetch(`${service.url}/flags/?v=2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: service.token, distinct_id: distinctId, person_properties: personProperties }),
  });
  return ((await res.json()) as { featureFlags: Record<string, string | boolean> }).featureFlags;
}

describe('posthog-node against the service', () => {
  it('captures and identifies: the events are stored and the person gets its properties', async () => {
    const client = new PostHog(service.token, { host: service.url, flushAt: 1, flushInterval: 0 });
    client.capture({ distinctId: 'ph-1', event: 'signed_up', properties: { plan: 'pro' } });
    client.identify({ distinctId: 'ph-1', properties: { email: 'ph@example.com' } });
    await client.shutdown();
    const { results } = await service.waitForEvents({ event: 'signed_up', distinct_id: 'ph-1' }, 1);
    expect(results[0]!.properties).toMatchObject({ plan: 'pro', $lib: 'posthog-node' });
    const persons = await service.api<{ results: { properties: Record<string, unknown> }[] }>(
      'GET',
      `/api/projects/${service.projectId}/persons/?distinct_id=ph-1`,
    );
    expect(persons.results[0]!.properties).toMatchObject({ email: 'ph@example.com' });
  });

  it('evaluates our definitions locally to the same values as our /flags, for 200 people and 50 flags', async () => {
    const client = new PostHog(service.token, { host: service.url, personalApiKey: service.key, featureFlagsPollingInterval: 60_000 });
    try {
      for (const i of ids) {
        const local = await client.getAllFlags(`user-${i}`, { personProperties: personOf(i), onlyEvaluateLocally: true });
        expect(Object.keys(local)).toHaveLength(50);
        expect(local).toEqual(await served(`user-${i}`, personOf(i)));
      }
    } finally {
      await client.shutdown();
    }
  });

  it('gets the same values and payloads remotely through /flags', async () => {
    const client = new PostHog(service.token, { host: service.url });
    try {
      for (const i of ids.slice(0, 20)) {
        const remote = await client.getAllFlagsAndPayloads(`user-${i}`, { personProperties: personOf(i) });
        expect(remote.featureFlags).toEqual(await served(`user-${i}`, personOf(i)));
        const enabledWithPayload = Object.entries(remote.featureFlags ?? {}).find(
          ([key, value]) => value !== false && flagSet().find((f) => f.key === key)?.filters.payloads,
        );
        if (enabledWithPayload) expect(remote.featureFlagPayloads?.[enabledWithPayload[0]]).toBeDefined();
      }
    } finally {
      await client.shutdown();
    }
  });
});
