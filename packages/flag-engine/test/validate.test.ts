import { describe, expect, it } from 'vitest';
import { enrollmentCondition, validateFilters } from '../src/index';

const variants = {
  variants: [
    { key: 'control', rollout_percentage: 50 },
    { key: 'test', rollout_percentage: 50 },
  ],
};
const invalid = (attr: string, detail: string) => ({ attr, code: 'invalid_input', detail });

describe('validateFilters', () => {
  it.each([
    ['a boolean flag', { groups: [{ properties: [], rollout_percentage: 30 }], payloads: { true: '{"a":1}' } }],
    ['a multivariate flag with payloads and an override', { groups: [{ variant: 'test' }], multivariate: variants, payloads: { control: 'x', test: 1 } }],
    ['an early access flag', { groups: [{ rollout_percentage: 0 }], super_groups: [enrollmentCondition('k')] }],
    ['an early access group flag', { aggregation_group_type_index: 1, groups: [{ rollout_percentage: 0 }], super_groups: [enrollmentCondition('k', 1)] }],
    ['a group flag', { aggregation_group_type_index: 2, groups: [{ properties: [{ key: 'plan', type: 'group', group_type_index: 2, value: 'pro' }] }] }],
    [
      'mixed targeting',
      { groups: [{ aggregation_group_type_index: 0, properties: [{ key: 'x', type: 'group', value: 1 }] }, { properties: [{ key: 'y', value: 2 }] }] },
    ],
    [
      'cohorts and dependencies',
      {
        groups: [
          {
            properties: [
              { key: 'id', type: 'cohort', value: 7 },
              { key: 'other', type: 'flag', operator: 'flag_evaluates_to', value: true },
            ],
          },
        ],
      },
    ],
    ['a holdout with its payload', { groups: [], multivariate: variants, holdout: { id: 3, exclusion_percentage: 10 }, payloads: { 'holdout-3': 'h' } }],
    ['empty filters', {}],
    [
      'null fields',
      { groups: null, multivariate: null, payloads: null, aggregation_group_type_index: null, super_groups: null, holdout: null, feature_enrollment: null },
    ],
  ])('accepts %s', (_name, filters) => {
    expect(validateFilters(filters)).toBeNull();
  });

  it.each([
    ['filters that are not an object', [], invalid('filters', 'Filters must be an object.')],
    ['groups that are not a list', { groups: {} }, invalid('filters__groups', 'Filters are not valid (groups must be a list of conditions)')],
    ['a condition that is not an object', { groups: [1] }, invalid('filters__groups', 'Filters are not valid (each condition must be an object)')],
    ['properties that are not a list', { groups: [{ properties: 'x' }] }, invalid('filters__groups', 'Filters are not valid (properties must be a list)')],
    ['a property without key', { groups: [{ properties: [{ value: 1 }] }] }, invalid('filters__groups', 'Filters are not valid (every property needs a key)')],
    [
      'a group property on a person flag',
      { groups: [{ properties: [{ key: 'plan', type: 'group', group_type_index: 0, value: 'x' }] }] },
      invalid('filters', 'Filters are not valid (can only use person and cohort properties)'),
    ],
    [
      'an event property',
      { groups: [{ properties: [{ key: 'plan', type: 'event', value: 'x' }] }] },
      invalid('filters', 'Filters are not valid (can only use person and cohort properties)'),
    ],
    [
      'a person property on a group flag',
      { aggregation_group_type_index: 0, groups: [{ properties: [{ key: 'plan', type: 'person', value: 'x' }] }] },
      invalid('filters', 'Filters are not valid (can only use group properties)'),
    ],
    [
      'an unknown operator',
      { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'sounds_like', value: 'x' }] }] },
      invalid('filters__groups', 'Filters are not valid (unknown operator "sounds_like")'),
    ],
    [
      'a cohort filter without id',
      { groups: [{ properties: [{ key: 'id', type: 'cohort', value: 'abc' }] }] },
      invalid('filters__groups', 'Filters are not valid (cohort filters need a cohort id and the operator in or not_in)'),
    ],
    [
      'a flag filter with another operator',
      { groups: [{ properties: [{ key: 'f', type: 'flag', operator: 'exact', value: true }] }] },
      invalid('filters__groups', 'Filters are not valid (flag filters need the operator flag_evaluates_to and a boolean or variant value)'),
    ],
    [
      'a rollout above 100',
      { groups: [{ rollout_percentage: 101 }] },
      invalid('filters__groups', 'Filters are not valid (rollout_percentage must be between 0 and 100)'),
    ],
    [
      'a negative rollout',
      { groups: [{ rollout_percentage: -1 }] },
      invalid('filters__groups', 'Filters are not valid (rollout_percentage must be between 0 and 100)'),
    ],
    [
      'a rollout that is a string',
      { groups: [{ rollout_percentage: '50' }] },
      invalid('filters__groups', 'Filters are not valid (rollout_percentage must be between 0 and 100)'),
    ],
    [
      'multivariate without variants',
      { multivariate: { variants: 'a' } },
      invalid('filters__multivariate', 'Invalid variant definitions: multivariate must be an object with a list of variants.'),
    ],
    [
      'a variant without key',
      { multivariate: { variants: [{ key: '', rollout_percentage: 100 }] } },
      invalid('filters__multivariate', 'Invalid variant definitions: every variant needs a non-empty key.'),
    ],
    [
      'duplicate variant keys',
      {
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'a', rollout_percentage: 50 },
          ],
        },
      },
      invalid('filters__multivariate', 'Invalid variant definitions: variant keys must be unique.'),
    ],
    [
      'a variant percentage that is not a number',
      { multivariate: { variants: [{ key: 'a', rollout_percentage: null }] } },
      invalid('filters__multivariate', 'Invalid variant definitions: variant rollout percentages must be numbers between 0 and 100.'),
    ],
    [
      'variant percentages not summing to 100',
      {
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 50 },
            { key: 'b', rollout_percentage: 49 },
          ],
        },
      },
      invalid('filters', 'Invalid variant definitions: Variant rollout percentages must sum to 100.'),
    ],
    [
      'a variant override that does not exist',
      { groups: [{ variant: 'nope' }], multivariate: variants },
      invalid('filters', 'Filters are not valid (variant override does not exist)'),
    ],
    ['a variant override on a boolean flag', { groups: [{ variant: 'test' }] }, invalid('filters', 'Filters are not valid (variant override does not exist)')],
    [
      'payload keys other than true on a boolean flag',
      { groups: [], payloads: { control: 'x' } },
      invalid('filters', "Payload keys must be 'true' for boolean flags"),
    ],
    [
      'a true payload on a multivariate flag',
      { multivariate: variants, payloads: { true: 'x' } },
      invalid('filters', 'Payload keys must match a variant key for multivariate flags'),
    ],
    ['payloads that are not an object', { payloads: ['x'] }, invalid('filters', 'Payloads must be passed as a dictionary')],
    [
      'an aggregation index out of range',
      { aggregation_group_type_index: 5 },
      invalid('filters__aggregation_group_type_index', 'Aggregation group type index must be an integer between 0 and 4, or null.'),
    ],
    [
      'a fractional aggregation index',
      { aggregation_group_type_index: 1.5 },
      invalid('filters__aggregation_group_type_index', 'Aggregation group type index must be an integer between 0 and 4, or null.'),
    ],
    [
      'a condition aggregation index out of range',
      { groups: [{ aggregation_group_type_index: -1 }] },
      invalid('filters__groups', 'Filters are not valid (aggregation_group_type_index must be an integer between 0 and 4, or null)'),
    ],
    [
      'a group property in super_groups',
      { super_groups: [{ properties: [{ key: 'x', type: 'group', value: 1 }] }] },
      invalid('filters', 'Filters are not valid (can only use person and cohort properties)'),
    ],
    [
      'super_groups that are not a list',
      { super_groups: {} },
      invalid('filters__super_groups', 'Filters are not valid (super_groups must be a list of conditions)'),
    ],
    [
      'a holdout without percentage',
      { holdout: { id: 1 } },
      invalid('filters__holdout', 'Holdout must have an id and an exclusion_percentage between 0 and 100.'),
    ],
    ['a non-boolean feature_enrollment', { feature_enrollment: 'yes' }, invalid('filters__feature_enrollment', 'Must be a boolean.')],
  ])('rejects %s', (_name, filters, error) => {
    expect(validateFilters(filters)).toEqual(error);
  });

  it('reports only the first error', () => {
    const filters = { groups: [{ rollout_percentage: 500, variant: 'nope' }], payloads: { nope: 1 } };
    expect(validateFilters(filters)).toEqual(invalid('filters__groups', 'Filters are not valid (rollout_percentage must be between 0 and 100)'));
  });
});
