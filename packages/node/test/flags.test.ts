import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlagEvaluationError, Service, type FlagOptions } from '../src/index';
import { startService, type RunningService } from './service';
import { eventually, flagSet, personOf } from '@service/test-support';

// The benchmarks' 50 flags and persons.

/** Group flags, mixed targeting, variant overrides, a dependency, an inactive flag, more operators. */
const EXTRA_FLAGS = [
  {
    key: 'group-plan',
    filters: {
      aggregation_group_type_index: 0,
      groups: [{ properties: [{ key: 'plan', type: 'group', group_type_index: 0, operator: 'exact', value: 'enterprise' }], rollout_percentage: 60 }],
      payloads: { true: '{"seats":10}' },
    },
  },
  {
    key: 'group-variants',
    filters: {
      aggregation_group_type_index: 0,
      groups: [{ rollout_percentage: 50 }],
      multivariate: {
        variants: [
          { key: 'a', rollout_percentage: 50 },
          { key: 'b', rollout_percentage: 50 },
        ],
      },
    },
  },
  {
    key: 'mixed-targeting',
    filters: {
      groups: [
        { aggregation_group_type_index: 0, rollout_percentage: 30 },
        { properties: [{ key: 'plan', type: 'person', value: 'pro' }], rollout_percentage: 100 },
      ],
    },
  },
  {
    key: 'variant-override',
    filters: {
      groups: [{ properties: [{ key: 'plan', type: 'person', value: 'team' }], variant: 'test', rollout_percentage: 100 }, { rollout_percentage: 40 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
      payloads: { control: '"plain string"', test: '{"n":1}' },
    },
  },
  {
    key: 'depends-on-bench-9',
    filters: { groups: [{ properties: [{ key: 'bench-9', type: 'flag', operator: 'flag_evaluates_to', value: true }], rollout_percentage: 50 }] },
  },
  { key: 'inactive', active: false, filters: { groups: [{ rollout_percentage: 100 }] } },
  {
    key: 'no-nickname',
    filters: { groups: [{ properties: [{ key: 'nickname', type: 'person', operator: 'is_not_set', value: 'is_not_set' }], rollout_percentage: 75 }] },
  },
  { key: 'signed-up-early', filters: { groups: [{ properties: [{ key: 'signed_up_at', type: 'person', operator: 'is_date_before', value: '2026-06-01' }] }] } },
  { key: 'young', filters: { groups: [{ properties: [{ key: 'age', type: 'person', operator: 'lte', value: 25 }], rollout_percentage: 90 }] } },
];

let service: RunningService;
let local: Service;
let remote: Service;
let flagCount: number;

beforeAll(async () => {
  service = await startService();
  // A group type (company → index 0) exists once a group event has been ingested.
  const seeder = new Service(service.token, { host: service.url });
  seeder.groupIdentify({ groupType: 'company', groupKey: 'seed-co', properties: { plan: 'enterprise' } });
  await seeder.shutdown();
  for (const flag of [...flagSet(), ...EXTRA_FLAGS]) await service.createFlag(flag);
  // An early access feature in a release stage: its flag gets the enrollment condition.
  await service.api('POST', `/api/projects/${service.projectId}/early_access_feature/`, { name: 'Dark mode', stage: 'beta' });
  flagCount = flagSet().length + EXTRA_FLAGS.length + 1;
  local = new Service(service.token, { host: service.url, personalApiKey: service.key });
  remote = new Service(service.token, { host: service.url });
  await local.reloadFeatureFlags();
});

afterAll(async () => {
  await Promise.all([local?.shutdown(), remote?.shutdown()]);
  await service?.close();
});

/** The i-th of 1,000 varied contexts: every third enrolled or not in dark mode, every second in a company. */
function contextOf(i: number): FlagOptions {
  const personProperties: Record<string, unknown> = personOf(i);
  if (i % 3 === 0) personProperties['$feature_enrollment/dark-mode'] = i % 2 === 0;
  const inCompany = i % 2 === 0;
  return {
    personProperties,
    groups: inCompany ? { company: `co-${i % 37}` } : undefined,
    groupProperties: inCompany ? { company: { plan: i % 4 === 0 ? 'enterprise' : 'free' } } : undefined,
    sendFeatureFlagEvents: false,
  };
}

/** Runs `fn` over 0..n-1, `width` at a time. */
async function pool(n: number, width: number, fn: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

describe('local evaluation', () => {
  it('agrees with the service on every flag of a varied set for 1,000 distinct ids', async () => {
    const mismatches: string[] = [];
    const undecided = new Map<string, number>();
    const values = new Map<string, Set<unknown>>();
    let compared = 0;
    await pool(1000, 8, async (i) => {
      const id = `agree-${i}`;
      const ctx = contextOf(i);
      const [byService, onlyLocal, withFallback] = await Promise.all([
        remote.getAllFlags(id, ctx),
        local.getAllFlags(id, { ...ctx, onlyEvaluateLocally: true }),
        local.getAllFlags(id, ctx),
      ]);
      if (Object.keys(byService).length !== flagCount) mismatches.push(`${id}: the service answered ${Object.keys(byService).length} flags`);
      for (const [key, value] of Object.entries(byService)) {
        if (!(key in onlyLocal)) undecided.set(key, (undecided.get(key) ?? 0) + 1);
        else if (onlyLocal[key] !== value) mismatches.push(`${id} ${key}: local ${onlyLocal[key]}, service ${value}`);
        else compared++;
        values.set(key, (values.get(key) ?? new Set()).add(value));
        if (withFallback[key] !== value) mismatches.push(`${id} ${key}: local with fallback ${withFallback[key]}, service ${value}`);
      }
      for (const key of Object.keys(onlyLocal)) if (!(key in byService)) mismatches.push(`${id} ${key}: only local has it`);
    });
    expect(mismatches).toEqual([]);
    // Only dark mode without the enrollment property is left to the service (it may know the enrollment).
    expect(Object.fromEntries(undecided)).toEqual({ 'dark-mode': 666 });
    expect(compared).toBe(1000 * flagCount - 666);
    // The set is varied: every flag but the constant ones takes two values or more.
    const constant = [...values].filter(([, v]) => v.size < 2).map(([k]) => k);
    expect(constant.sort()).toEqual(['bench-9', 'bench-19', 'bench-29', 'bench-39', 'bench-49', 'inactive'].sort());
    expect(values.get('group-variants')).toEqual(new Set(['a', 'b', false]));
  });

  it('agrees flag by flag, payloads included (100 ids)', async () => {
    const mismatches: string[] = [];
    await pool(100, 4, async (i) => {
      const id = `agree-${i}`;
      const ctx = contextOf(i);
      const byService = await remote.getAllFlagsAndPayloads(id, ctx);
      expect(await local.getAllFlagsAndPayloads(id, ctx)).toEqual(byService);
      for (const [key, value] of Object.entries(byService.featureFlags)) {
        const single = await local.getFeatureFlag(key, id, { ...ctx, onlyEvaluateLocally: true }).catch((e: FlagEvaluationError) => e.reason);
        const expected = key === 'dark-mode' && i % 3 !== 0 ? 'inconclusive' : value;
        if (single !== expected) mismatches.push(`${id} ${key}: ${single} != ${expected}`);
        const payload = await local.getFeatureFlagPayload(key, id, ctx);
        if (JSON.stringify(payload) !== JSON.stringify(byService.featureFlagPayloads[key])) mismatches.push(`${id} ${key}: payload ${JSON.stringify(payload)}`);
      }
    });
    expect(mismatches).toEqual([]);
  });

  it('asks the service when a property is only stored there, and throws with onlyEvaluateLocally', async () => {
    await service.createFlag({ key: 'needs-plan', filters: { groups: [{ properties: [{ key: 'plan', type: 'person', value: 'pro' }] }] } });
    const client = new Service(service.token, { host: service.url, personalApiKey: service.key });
    client.identify({ distinctId: 'stored-1', properties: { plan: 'pro' } });
    await client.flush();
    expect(await client.isFeatureEnabled('needs-plan', 'stored-1')).toBe(true);
    expect(await client.isFeatureEnabled('needs-plan', 'stored-2')).toBe(false);
    expect(await client.isFeatureEnabled('needs-plan', 'stored-2', { personProperties: { plan: 'pro' }, onlyEvaluateLocally: true })).toBe(true);
    const error = await client.isFeatureEnabled('needs-plan', 'stored-1', { onlyEvaluateLocally: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlagEvaluationError);
    expect(error).toMatchObject({ reason: 'inconclusive' });
    await client.shutdown();
    const called = await service.waitForEvents({ event: '$feature_flag_called', distinct_id: 'stored-1' }, 1);
    expect(called.results[0]!.properties).toMatchObject({ $feature_flag: 'needs-plan', $feature_flag_response: true, locally_evaluated: false });
  });

  it('asks the service for a flag created since the last poll; a flag that does not exist is off', async () => {
    await local.reloadFeatureFlags();
    await service.createFlag({ key: 'created-late', filters: { groups: [{ rollout_percentage: 100 }] } });
    expect(await local.getFeatureFlag('created-late', 'late-1', { sendFeatureFlagEvents: false })).toBe(true);
    expect(await local.getFeatureFlag('created-late', 'late-1', { onlyEvaluateLocally: true })).toBeUndefined();
    expect(await local.getFeatureFlag('no-such-flag', 'late-1')).toBeUndefined();
    expect(await local.isFeatureEnabled('no-such-flag', 'late-1')).toBe(false);
    expect(await remote.isFeatureEnabled('no-such-flag', 'late-1')).toBe(false);
  });

  it('throws not_loaded for onlyEvaluateLocally without a personal API key', async () => {
    await expect(remote.isFeatureEnabled('bench-9', 'x', { onlyEvaluateLocally: true })).rejects.toMatchObject({
      name: 'FlagEvaluationError',
      reason: 'not_loaded',
    });
  });
});

describe('$feature_flag_called', () => {
  it('is sent once per distinct id, flag and value, with locally_evaluated and $feature/<key>', async () => {
    const client = new Service(service.token, { host: service.url, personalApiKey: service.key });
    const pro = { personProperties: { email: 'a@example.com' } };
    for (let i = 0; i < 5; i++) await client.isFeatureEnabled('bench-1', 'called-1', pro);
    await client.getFeatureFlag('bench-1', 'called-1', pro);
    await client.getFeatureFlag('bench-1', 'called-1', { personProperties: { email: 'a@other.org' } }); // another value
    await client.getFeatureFlagPayload('bench-9', 'called-1'); // never sends
    await client.getAllFlags('called-1', pro); // never sends
    await client.isFeatureEnabled('bench-1', 'called-2', pro);
    await client.isFeatureEnabled('bench-1', 'called-3', { ...pro, sendFeatureFlagEvents: false });
    await client.shutdown();
    const one = await service.waitForEvents({ event: '$feature_flag_called', distinct_id: 'called-1' }, 2);
    expect(one.results.map((e) => e.properties.$feature_flag_response).sort()).toEqual([false, true]);
    expect(one.results.find((e) => e.properties.$feature_flag_response === true)!.properties).toMatchObject({
      $feature_flag: 'bench-1',
      '$feature/bench-1': true,
      locally_evaluated: true,
      $feature_flag_id: expect.any(Number),
      $lib: 'service-node',
    });
    expect((await service.events({ event: '$feature_flag_called', distinct_id: 'called-2' })).count).toBe(1);
    expect((await service.events({ event: '$feature_flag_called', distinct_id: 'called-3' })).count).toBe(0);
  });
});

describe('$feature_flag_called for experiments', () => {
  const EXPERIMENT = {
    key: 'exp-checkout',
    filters: {
      groups: [{ rollout_percentage: 100 }],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      },
    },
  };
  beforeAll(async () => {
    await service.createFlag(EXPERIMENT);
  });

  /** The stored `$feature_flag_called` events of one distinct id for one flag. */
  const exposures = async (distinctId: string, flag = EXPERIMENT.key) =>
    (await service.events({ event: '$feature_flag_called', distinct_id: distinctId })).results.filter((e) => e.properties.$feature_flag === flag);

  it('sends one exposure per person, flag and variant from getFeatureFlag and isFeatureEnabled, evaluated locally or by the service', async () => {
    const byKey = new Service(service.token, { host: service.url, personalApiKey: service.key });
    const byService = new Service(service.token, { host: service.url });
    await byKey.reloadFeatureFlags();
    const seen = new Map<string, unknown>();
    for (let i = 0; i < 12; i++) {
      const client = i % 2 === 0 ? byKey : byService;
      const id = `exp-${i}`;
      const variant = await client.getFeatureFlag(EXPERIMENT.key, id);
      expect(await client.getFeatureFlag(EXPERIMENT.key, id)).toBe(variant);
      expect(await client.isFeatureEnabled(EXPERIMENT.key, id)).toBe(true);
      await client.getFeatureFlagPayload(EXPERIMENT.key, id); // sends nothing, as posthog-node
      seen.set(id, variant);
    }
    await Promise.all([byKey.shutdown(), byService.shutdown()]);
    expect(new Set(seen.values())).toEqual(new Set(['control', 'test']));
    await service.waitForEvents({ event: '$feature_flag_called', distinct_id: 'exp-11' }, 1);
    for (const [id, variant] of seen) {
      const events = await exposures(id);
      expect(events.map((e) => e.properties.$feature_flag_response)).toEqual([variant]);
      const local = Number(id.slice(4)) % 2 === 0;
      expect(events[0]!.properties).toMatchObject({ $feature_flag: EXPERIMENT.key, [`$feature/${EXPERIMENT.key}`]: variant, locally_evaluated: local });
      if (!local) expect(events[0]!.properties.$feature_flag_request_id).toEqual(expect.any(String));
    }
  });

  it('remembers the maxCacheSize most recently used distinct ids: a forgotten one is sent again', async () => {
    const client = new Service(service.token, { host: service.url, personalApiKey: service.key, maxCacheSize: 2 });
    await client.reloadFeatureFlags();
    for (const id of ['lru-a', 'lru-b', 'lru-a', 'lru-c', 'lru-a', 'lru-b']) await client.getFeatureFlag(EXPERIMENT.key, id);
    await client.shutdown();
    // a, b → a used again → c forgets b (the least recently used) → a still known → b sent again.
    await service.waitForEvents({ event: '$feature_flag_called', distinct_id: 'lru-b' }, 2);
    expect((await exposures('lru-a')).length).toBe(1);
    expect((await exposures('lru-b')).length).toBe(2);
    expect((await exposures('lru-c')).length).toBe(1);
  });

  it('sendFeatureFlagEvent: false turns exposures off for every call, sendFeatureFlagEvents: true back on for one', async () => {
    const client = new Service(service.token, { host: service.url, personalApiKey: service.key, sendFeatureFlagEvent: false });
    await client.reloadFeatureFlags();
    await client.getFeatureFlag(EXPERIMENT.key, 'quiet-1');
    await client.isFeatureEnabled(EXPERIMENT.key, 'quiet-1');
    await client.getFeatureFlag(EXPERIMENT.key, 'quiet-2', { sendFeatureFlagEvents: true });
    await client.shutdown();
    await service.waitForEvents({ event: '$feature_flag_called', distinct_id: 'quiet-2' }, 1);
    expect((await exposures('quiet-1')).length).toBe(0);
    expect((await exposures('quiet-2')).length).toBe(1);
  });

  it('reports a flag that does not exist once, without a response and with flag_missing, as posthog-node', async () => {
    const client = new Service(service.token, { host: service.url });
    expect(await client.getFeatureFlag('no-such-experiment', 'missing-1')).toBeUndefined();
    expect(await client.isFeatureEnabled('no-such-experiment', 'missing-1')).toBe(false);
    await client.shutdown();
    await service.waitForEvents({ event: '$feature_flag_called', distinct_id: 'missing-1' }, 1);
    const events = await exposures('missing-1', 'no-such-experiment');
    expect(events.length).toBe(1);
    expect(events[0]!.properties).toMatchObject({ $feature_flag_error: 'flag_missing', locally_evaluated: false });
    expect('$feature_flag_response' in events[0]!.properties).toBe(false);
  });
});

describe('getAllFlagsAndPayloads', () => {
  it("returns service-js's bootstrap: distinctID, values, and parsed payloads of enabled flags", async () => {
    const bootstrap = await local.getAllFlagsAndPayloads('user-7', { personProperties: personOf(7) });
    expect(Object.keys(bootstrap).sort()).toEqual(['distinctID', 'featureFlagPayloads', 'featureFlags']);
    expect(bootstrap.distinctID).toBe('user-7');
    expect(bootstrap.featureFlags['bench-9']).toBe(true);
    expect(bootstrap.featureFlagPayloads['bench-9']).toEqual({ banner: 'hello' });
    expect(bootstrap.featureFlags['inactive']).toBe(false);
    for (const key of Object.keys(bootstrap.featureFlagPayloads)) expect(bootstrap.featureFlags[key]).toBeTruthy();
    const variant = bootstrap.featureFlags['bench-7'];
    if (variant) expect(bootstrap.featureFlagPayloads['bench-7']).toEqual({ color: { control: 'grey', test: 'green', other: 'blue' }[variant as string] });
  });
});

describe('definitions polling', () => {
  it('re-fetches with If-None-Match, gets 304s, and picks up a change', async () => {
    const seen: Array<{ status: number; ifNoneMatch?: string; etag?: string }> = [];
    const proxy = http.createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<
          string,
          string
        >;
        const upstream = await fetch(`${service.url}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
        const etag = upstream.headers.get('etag') ?? undefined;
        if (req.url!.startsWith('/flags/definitions')) seen.push({ status: upstream.status, ifNoneMatch: req.headers['if-none-match'], etag });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json', ...(etag ? { etag } : {}) });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const host = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const client = new Service(service.token, { host, personalApiKey: service.key, featureFlagsPollingInterval: 100 });
    try {
      // Polls every 100 ms: wait for four (a busy machine may delay timers).
      await eventually(() => seen.length >= 4);
      expect(seen[0]).toMatchObject({ status: 200, ifNoneMatch: undefined });
      expect(seen.length).toBeGreaterThanOrEqual(4);
      for (const s of seen.slice(1)) expect(s).toMatchObject({ status: 304, ifNoneMatch: seen[0]!.etag });

      await service.createFlag({ key: 'polled-in', filters: { groups: [{ rollout_percentage: 100 }] } });
      const deadline = Date.now() + 5_000;
      while ((await client.getFeatureFlag('polled-in', 'p-1', { onlyEvaluateLocally: true })) === undefined && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await client.getFeatureFlag('polled-in', 'p-1', { onlyEvaluateLocally: true, sendFeatureFlagEvents: false })).toBe(true);
      const changed = seen.findIndex((s, i) => i > 0 && s.status === 200);
      expect(seen[changed]!.etag).not.toBe(seen[0]!.etag);
      await new Promise((r) => setTimeout(r, 300));
      for (const s of seen.slice(changed + 1)) expect(s).toMatchObject({ status: 304, ifNoneMatch: seen[changed]!.etag });
    } finally {
      await client.shutdown();
      proxy.close();
    }
  });
});
