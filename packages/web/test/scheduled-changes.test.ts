import { describe, expect, it } from 'vitest';
import { describeChange } from '../src/features/flags/scheduled-changes';

describe('describeChange', () => {
  it('says what a scheduled change does, in the order the form asks it', () => {
    expect(describeChange({ active: false, rollout_percentage: 50 })).toBe('Turn off, rollout 50 %');
    expect(describeChange({ active: true })).toBe('Turn on');
    expect(describeChange({ rollout_percentage: 10 })).toBe('Rollout 10 %');
    expect(
      describeChange({
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', rollout_percentage: 50 },
        ],
      }),
    ).toBe('Variants control 50 %, test 50 %');
  });
});
