// Cohort parity: random flags on random person property cohorts (nested, negated, in / not_in) × random people, the
// official posthog-node's local evaluation of our /flags/definitions?send_cohorts against /flags: no mismatch. Flags on
// static and behavioral cohorts are inconclusive locally, and posthog-node's fallback to /flags answers them.
import { PostHog } from 'posthog-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
let url: string;
beforeAll(async () => {
  s = await startService();
  url = await s.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => s.close());

/** mulberry32: the same random cases on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(36);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

const PLANS = ['free', 'pro', 'team'];
const COUNTRIES = ['DE', 'FR', 'US', 'JP'];

/** A random person property leaf over the properties every person has. */
function propertyLeaf(): Record<string, unknown> {
  const leaf = pick([
    () => ({ key: 'plan', type: 'person', operator: 'exact', value: pick([pick(PLANS), [pick(PLANS), pick(PLANS)]]) }),
    () => ({ key: 'plan', type: 'person', operator: 'is_not', value: pick(PLANS) }),
    () => ({ key: 'country', type: 'person', operator: pick(['exact', 'is_not']), value: pick(COUNTRIES) }),
    () => ({ key: 'age', type: 'person', operator: pick(['gt', 'lt', 'gte', 'lte']), value: Math.floor(rand() * 60) + 15 }),
    () => ({ key: 'email', type: 'person', operator: pick(['icontains', 'not_icontains']), value: pick(['@acme', 'example', 'X']) }),
    () => ({ key: 'beta', type: 'person', operator: 'exact', value: pick([true, false, ['true']]) }),
  ])();
  return rand() < 0.2 ? { ...leaf, negation: true } : leaf;
}

const api = (method: 'POST' | 'PATCH', path: string, payload: unknown) =>
  s.app.inject({ method, url: `/api/projects/${s.projectId}/${path}`, headers: s.headers, payload: payload as Record<string, unknown> });

describe('cohorts: /flags against posthog-node local evaluation', () => {
  const propertyCohorts: number[] = [];
  const propertyFlags: string[] = [];
  const serverFlags: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 12; i++) {
      const leaves = () =>
        Array.from({ length: 1 + Math.floor(rand() * 3) }, () =>
          propertyCohorts.length && rand() < 0.25 ? { key: 'id', type: 'cohort', value: pick(propertyCohorts) } : propertyLeaf(),
        );
      const groups = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => ({ type: pick(['AND', 'OR']), values: leaves() }));
      const res = await api('POST', 'cohorts/', { name: `Random ${i}`, filters: { properties: { type: pick(['AND', 'OR']), values: groups } } });
      expect(res.statusCode, res.body).toBe(201);
      propertyCohorts.push(res.json().id);
    }
    for (let i = 0; i < 25; i++) {
      const conditions = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => ({
        properties: [
          { key: 'id', type: 'cohort', value: pick(propertyCohorts), operator: pick(['in', 'not_in']) },
          ...(rand() < 0.3 ? [propertyLeaf()] : []).map(({ negation: _, ...leaf }) => leaf),
        ],
        rollout_percentage: pick([100, 100, 50]),
      }));
      const multivariate =
        rand() < 0.3
          ? {
              variants: [
                { key: 'a', rollout_percentage: 50 },
                { key: 'b', rollout_percentage: 50 },
              ],
            }
          : undefined;
      const res = await api('POST', 'feature_flags/', { key: `parity-${i}`, filters: { groups: conditions, ...(multivariate ? { multivariate } : {}) } });
      expect(res.statusCode, res.body).toBe(201);
      propertyFlags.push(`parity-${i}`);
    }

    const listed = await api('POST', 'cohorts/', { name: 'Listed', is_static: true, distinct_ids: ['person-1', 'person-4', 'person-9'] });
    const behaved = await api('POST', 'cohorts/', {
      name: 'Signed up',
      filters: {
        properties: {
          type: 'OR',
          values: [
            {
              type: 'AND',
              values: [
                { type: 'behavioral', value: 'performed_event', key: 'signed_up', operator: 'gte', operator_value: 1, time_value: 30, time_interval: 'day' },
              ],
            },
          ],
        },
      },
    });
    // A property cohort over a static one is not a property cohort: it is left out of the definitions too.
    const mixed = await api('POST', 'cohorts/', {
      name: 'Listed pros',
      filters: {
        properties: {
          type: 'AND',
          values: [
            { key: 'id', type: 'cohort', value: listed.json().id },
            { key: 'plan', type: 'person', value: 'pro' },
          ],
        },
      },
    });
    for (const [key, id] of [
      ['on-static', listed.json().id],
      ['on-behavioral', behaved.json().id],
      ['on-mixed', mixed.json().id],
    ] as const) {
      expect(
        (
          await api('POST', 'feature_flags/', {
            key,
            filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: id }], rollout_percentage: 100 }] },
          })
        ).statusCode,
      ).toBe(201);
      serverFlags.push(key);
    }
    const capture = await s.app.inject({
      method: 'POST',
      url: '/batch/',
      payload: { api_key: s.token, batch: ['person-2', 'person-4'].map((distinct_id) => ({ event: 'signed_up', distinct_id })) },
    });
    expect(capture.statusCode).toBe(200);
  });

  it('gives the same answers locally as /flags for property cohorts, and is inconclusive on static and behavioral ones', async () => {
    const client = new PostHog(s.token, { host: url, personalApiKey: s.key, featureFlagsPollingInterval: 60_000, sendFeatureFlagEvent: false });
    try {
      await client.reloadFeatureFlags();
      let compared = 0;
      const mismatches: string[] = [];
      const seen = new Set<unknown>();
      for (let p = 0; p < 60; p++) {
        const distinctId = `person-${p}`;
        const personProperties = {
          plan: pick(PLANS),
          country: pick(COUNTRIES),
          age: Math.floor(rand() * 70) + 10,
          email: `${pick(['ann', 'bo', 'Xi'])}@${pick(['acme.io', 'example.com'])}`,
          beta: pick([true, false]),
        };
        const remote = (
          await s.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token: s.token, distinct_id: distinctId, person_properties: personProperties } })
        ).json().flags;
        for (const key of propertyFlags) {
          const local = await client.getFeatureFlag(key, distinctId, { personProperties, onlyEvaluateLocally: true });
          const want = remote[key].variant ?? remote[key].enabled;
          seen.add(want);
          compared++;
          if (local !== want) mismatches.push(`${key} ${distinctId} ${JSON.stringify(personProperties)}: local ${String(local)}, /flags ${String(want)}`);
        }
        for (const key of serverFlags) {
          expect(await client.getFeatureFlag(key, distinctId, { personProperties, onlyEvaluateLocally: true }), key).toBeUndefined();
          expect(await client.getFeatureFlag(key, distinctId, { personProperties }), `${key} ${distinctId}`).toBe(remote[key].enabled);
        }
        const expected = {
          'on-static': [1, 4, 9].includes(p),
          'on-behavioral': [2, 4].includes(p),
          'on-mixed': [1, 4, 9].includes(p) && personProperties.plan === 'pro',
        };
        for (const [key, value] of Object.entries(expected)) expect(remote[key].enabled, `${key} ${distinctId}`).toBe(value);
      }
      expect(mismatches).toEqual([]);
      expect(compared).toBe(60 * 25);
      expect([...seen].sort()).toEqual(expect.arrayContaining([true, false]));
    } finally {
      await client.shutdown();
    }
  }, 60_000);
});
