import { describe, expect, it } from 'vitest';
import type { FeatureFlag } from '../src/api/types';
import { fromDraft, toDraft, type FlagDraft } from '../src/features/flags/flag-draft';

// The flag form's draft: a flag as the form edits it, and back to the body the API takes, or the errors that stop it.
const flag = (filters: FeatureFlag['filters'], patch: Partial<FeatureFlag> = {}): FeatureFlag => ({
  id: 4,
  team_id: 1,
  name: 'Checkout',
  key: 'new-checkout',
  filters,
  deleted: false,
  active: true,
  ensure_experience_continuity: false,
  version: 2,
  created_at: '2026-01-05T10:00:00Z',
  ...patch,
});

describe('toDraft and fromDraft', () => {
  it('a new flag is off, for everyone in one condition; without a key it is not sent', () => {
    const draft = toDraft();
    expect(draft).toMatchObject({ key: '', active: false, aggregation: 'person', multivariate: false });
    expect(draft.conditions).toEqual([{ filters: [], rollout: 100, variant: null }]);
    expect(fromDraft(draft)).toEqual({ errors: { key: 'Enter a key: it is what your code asks for.' } });
  });

  it('gives back the conditions, variants and payloads of a flag it was made from', () => {
    const original = flag({
      aggregation_group_type_index: null,
      groups: [
        {
          properties: [
            { key: 'email', type: 'person', operator: 'icontains', value: '@example.com' },
            { key: 'plan', type: 'person', operator: 'exact', value: ['pro', 'team'] },
            { key: 'age', type: 'person', operator: 'gt', value: 30 },
          ],
          rollout_percentage: 50,
          variant: 'test',
        },
      ],
      multivariate: {
        variants: [
          { key: 'control', rollout_percentage: 50 },
          { key: 'test', name: 'One page', rollout_percentage: 50 },
        ],
      },
      payloads: { test: '{"steps":1}' },
    });
    const { body, errors } = fromDraft(toDraft(original));
    expect(errors).toBeUndefined();
    expect(body).toEqual({
      key: 'new-checkout',
      name: 'Checkout',
      active: true,
      ensure_experience_continuity: false,
      filters: {
        aggregation_group_type_index: null,
        groups: [
          {
            properties: [
              { key: 'email', type: 'person', operator: 'icontains', value: '@example.com' },
              { key: 'plan', type: 'person', operator: 'exact', value: ['pro', 'team'] },
              { key: 'age', type: 'person', operator: 'gt', value: 30 },
            ],
            rollout_percentage: 50,
            variant: 'test',
          },
        ],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'test', name: 'One page', rollout_percentage: 50 },
          ],
        },
        payloads: { test: '{"steps":1}' },
      },
    });
  });

  it('a flag matched by groups sends its filters as group filters of that type', () => {
    const draft: FlagDraft = {
      ...toDraft(),
      key: 'team-billing',
      aggregation: '1',
      conditions: [
        { filters: [{ key: 'seats', type: 'person', group_type_index: '0', operator: 'gte', values: [], value: '10' }], rollout: 100, variant: null },
      ],
    };
    expect(fromDraft(draft).body?.filters).toMatchObject({
      aggregation_group_type_index: 1,
      groups: [{ properties: [{ key: 'seats', type: 'group', operator: 'gte', value: 10, group_type_index: 1 }], rollout_percentage: 100 }],
    });
  });

  it('names each mistake where it is: the key, the split, a rollout, a filter without a value, a payload that is not JSON', () => {
    const draft: FlagDraft = {
      ...toDraft(),
      key: 'has space',
      multivariate: true,
      variants: [
        { key: 'control', name: '', rollout: 50, payload: '' },
        { key: 'test', name: '', rollout: 40, payload: '{nope' },
      ],
      conditions: [
        { filters: [{ key: 'email', type: 'person', group_type_index: '0', operator: 'exact', values: [], value: '' }], rollout: 120, variant: null },
      ],
    };
    const { body, errors } = fromDraft(draft);
    expect(body).toBeUndefined();
    expect(errors).toMatchObject({
      key: 'Only letters, numbers, hyphens (-) and underscores (_), no spaces.',
      variants: 'Variant percentages must add up to 100 (now 90).',
      'rollout-0': 'A percentage from 0 to 100.',
      'filter-0-0': 'Enter a value to compare with.',
    });
    expect(errors!['payload-1']).toMatch(/\S/);
  });

  it('"is set" needs no value, and sends its operator as the value, as the engine reads it', () => {
    const draft: FlagDraft = {
      ...toDraft(),
      key: 'beta',
      conditions: [
        { filters: [{ key: 'email', type: 'person', group_type_index: '0', operator: 'is_set', values: [], value: '' }], rollout: 100, variant: null },
      ],
    };
    expect(fromDraft(draft).body?.filters).toMatchObject({ groups: [{ properties: [{ key: 'email', operator: 'is_set', value: 'is_set' }] }] });
  });
});
