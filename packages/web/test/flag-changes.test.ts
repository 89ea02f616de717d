import { describe, expect, it } from 'vitest';
import { launchChanges, shipChanges } from '../src/features/experiments/flag-changes';

// What the web app shows, and asks to confirm, before launching an experiment or shipping a variant changes its flag.
const SPLIT = [
  { key: 'control', rollout_percentage: 50 },
  { key: 'test', rollout_percentage: 50 },
];
const everyone = [{ properties: [], rollout_percentage: 100, variant: null }];
const flag = (active: boolean, variants = SPLIT, groups: object[] = everyone) => ({ active, filters: { groups, multivariate: { variants } } });

describe('launchChanges', () => {
  it('a flag that is off with the same split: it turns on, nothing else', () => {
    expect(launchChanges(flag(false), SPLIT)).toEqual([{ what: 'Status', before: 'Off: nobody gets a variant', after: 'On' }]);
  });

  it('a live flag with the same split: nothing changes', () => {
    expect(launchChanges(flag(true), SPLIT)).toEqual([]);
  });

  it("a live flag whose split the draft changed: its variants change, in the experiment's order", () => {
    const next = [
      { key: 'control', rollout_percentage: 70 },
      { key: 'test', rollout_percentage: 30 },
    ];
    expect(launchChanges(flag(true), next)).toEqual([{ what: 'Variants', before: 'control 50 %, test 50 %', after: 'control 70 %, test 30 %' }]);
    expect(launchChanges(flag(true), [...SPLIT].reverse())).toHaveLength(1);
  });
});

describe('shipChanges', () => {
  it('gives the variant 100 % and the others 0 %', () => {
    expect(shipChanges(flag(true), 'test')).toEqual([{ what: 'Variants', before: 'control 50 %, test 50 %', after: 'control 0 %, test 100 %' }]);
  });

  it('says when the flag reached only some people, and that everyone gets it after', () => {
    const some = flag(true, SPLIT, [{ properties: [], rollout_percentage: 20 }]);
    expect(shipChanges(some, 'test')).toContainEqual({ what: 'Who gets it', before: '20% of all users', after: '100% of all users' });
  });

  it('turns a flag that is off on', () => {
    expect(shipChanges(flag(false), 'control')[0]).toEqual({ what: 'Status', before: 'Off: nobody gets a variant', after: 'On' });
  });
});
