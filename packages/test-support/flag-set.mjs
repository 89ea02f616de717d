// 50 flags of mixed conditions, the same set for the /flags and local-evaluation benchmarks and service-node's
// tests. Types in flag-set.d.mts.
export function flagSet() {
  const flags = [];
  for (let i = 0; i < 50; i++) {
    const kind = i % 10;
    const key = `bench-${i}`;
    let filters;
    if (kind === 0) filters = { groups: [{ properties: [], rollout_percentage: 30 + i }] };
    else if (kind === 1)
      filters = { groups: [{ properties: [{ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }], rollout_percentage: 100 }] };
    else if (kind === 2)
      filters = {
        groups: [
          { properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro', 'team'] }], rollout_percentage: 50 },
          { properties: [], rollout_percentage: 5 },
        ],
      };
    else if (kind === 3) filters = { groups: [{ properties: [{ key: 'age', type: 'person', operator: 'gt', value: 30 }], rollout_percentage: 100 }] };
    else if (kind === 4)
      filters = { groups: [{ properties: [{ key: 'app_version', type: 'person', operator: 'semver_gte', value: '2.1.0' }], rollout_percentage: 100 }] };
    else if (kind === 5)
      filters = { groups: [{ properties: [{ key: 'email', type: 'person', operator: 'regex', value: '^user-[0-9]+7@' }], rollout_percentage: 100 }] };
    else if (kind === 6)
      filters = { groups: [{ properties: [{ key: 'signed_up_at', type: 'person', operator: 'is_date_after', value: '-30d' }], rollout_percentage: 100 }] };
    else if (kind === 7)
      filters = {
        groups: [{ properties: [], rollout_percentage: 80 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'test', rollout_percentage: 30 },
            { key: 'other', rollout_percentage: 20 },
          ],
        },
        payloads: { control: '{"color":"grey"}', test: '{"color":"green"}', other: '{"color":"blue"}' },
      };
    else if (kind === 8)
      filters = {
        groups: [
          {
            properties: [
              { key: 'country', type: 'person', operator: 'is_not', value: ['FR'] },
              { key: 'plan', type: 'person', operator: 'is_set', value: 'is_set' },
            ],
            rollout_percentage: 70,
          },
        ],
      };
    else filters = { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"banner":"hello"}' } };
    flags.push({ key, name: `Bench flag ${i}`, filters });
  }
  return flags;
}

/** Person properties of the i-th of the 10k distinct ids. */
export function personOf(i) {
  return {
    email: `user-${i}@${i % 3 ? 'example.com' : 'other.org'}`,
    plan: ['free', 'pro', 'team'][i % 3],
    age: 18 + (i % 50),
    app_version: `${1 + (i % 3)}.${i % 5}.0`,
    signed_up_at: new Date(Date.UTC(2026, 0, 1) + (i % 400) * 86_400_000).toISOString(),
    country: ['US', 'FR', 'DE', 'GB'][i % 4],
  };
}

export const DISTINCT_IDS = 10_000;
