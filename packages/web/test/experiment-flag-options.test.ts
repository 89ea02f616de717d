import { describe, expect, it } from 'vitest';
import type { FeatureFlag } from '../src/api/types';
import { experimentFlagOptions } from '../src/features/experiments/flag-options';

const flag = (id: number, key: string, variants: string[]): FeatureFlag => ({
  id,
  team_id: 1,
  name: '',
  key,
  filters: { groups: [], multivariate: { variants: variants.map((v) => ({ key: v, rollout_percentage: 100 / variants.length })) } },
  deleted: false,
  active: true,
  ensure_experience_continuity: false,
  version: 1,
  created_at: '2026-01-05T10:00:00Z',
});
const flags = [
  flag(1, 'free', ['control', 'test']),
  flag(2, 'drafted', ['control', 'test']),
  flag(3, 'running', ['control', 'b']),
  flag(4, 'done', ['control', 'test']),
  flag(5, 'no-control', ['a', 'b']),
];
const experiment = (name: string, status: 'draft' | 'running' | 'complete', f: FeatureFlag) => ({ name, status, feature_flag: f });

describe('experimentFlagOptions', () => {
  it('offers the flags without an open experiment, and shows the others disabled with the experiment that has them', () => {
    const options = experimentFlagOptions(flags, [
      experiment('Pricing', 'draft', flags[1]!),
      experiment('Checkout', 'running', flags[2]!),
      experiment('Old one', 'complete', flags[3]!),
    ]);
    expect(options).toEqual([
      { value: '1', label: 'free', disabled: false },
      { value: '2', label: 'drafted (in experiment "Pricing")', disabled: true },
      { value: '3', label: 'running (in experiment "Checkout")', disabled: true },
      { value: '4', label: 'done', disabled: false },
      { value: '5', label: 'no-control (no control variant)', disabled: true },
    ]);
  });
});
