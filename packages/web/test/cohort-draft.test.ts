import { describe, expect, it } from 'vitest';
import type { Cohort } from '../src/api/types';
import { cohortKind, criteriaOf, fromCohortDraft, newCriterion, parseIds, toCohortDraft } from '../src/features/cohorts/cohort-draft';

const cohort = (filters: object, is_static = false): Cohort => ({
  id: 4,
  name: 'Buyers',
  description: '',
  is_static,
  filters: filters as Cohort['filters'],
  count: 0,
  deleted: false,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

const bought = {
  type: 'behavioral',
  value: 'performed_event',
  key: 'purchase',
  event_type: 'events',
  operator: 'gte',
  operator_value: 2,
  time_value: 30,
  time_interval: 'day',
};
const gotTest = {
  type: 'behavioral',
  value: 'performed_event',
  key: '$feature_flag_called',
  event_type: 'events',
  operator: 'gte',
  operator_value: 1,
  time_value: 14,
  time_interval: 'day',
  event_filters: [
    { key: '$feature_flag', type: 'event', operator: 'exact', value: 'checkout' },
    { key: '$feature_flag_response', type: 'event', operator: 'exact', value: 'test' },
  ],
};
const pro = { key: 'plan', type: 'person', operator: 'exact', value: 'pro' };
const inCohort = { key: 'id', type: 'cohort', value: 9, operator: 'not_in' };

describe("a cohort's criteria in the form", () => {
  it('reads an OR of ANDs of every kind of criterion and sends back the same filters', () => {
    const filters = {
      properties: {
        type: 'OR',
        values: [
          { type: 'AND', values: [pro, bought] },
          { type: 'AND', values: [gotTest, inCohort] },
        ],
      },
    };
    const draft = toCohortDraft(cohort(filters));
    expect(draft.json).toBeNull();
    expect(draft.groups.map((g) => g.map((c) => c.kind))).toEqual([
      ['person', 'behavioral'],
      ['flag_variant', 'cohort'],
    ]);
    expect(draft.groups[0]![1]).toMatchObject({ event: 'purchase', count: 2, days: 30 });
    expect(draft.groups[1]![0]).toMatchObject({ flag: 'checkout', variant: 'test', days: 14 });
    expect(fromCohortDraft(draft).body).toEqual({ name: 'Buyers', description: '', filters });
  });

  it('reads a lone AND as one group and an OR of leaves as a group each', () => {
    expect(criteriaOf({ properties: { type: 'AND', values: [pro, bought] } })?.map((g) => g.length)).toEqual([2]);
    expect(criteriaOf({ properties: { type: 'OR', values: [pro, bought] } })?.map((g) => g.length)).toEqual([1, 1]);
  });

  it('keeps what the criteria cannot show as JSON, and sends that JSON as it is', () => {
    const negated = { properties: { type: 'OR', values: [{ type: 'AND', values: [{ ...bought, negation: true }] }] } };
    const weekly = { properties: { type: 'AND', values: [{ ...bought, time_interval: 'week' }] } };
    const nested = {
      properties: {
        type: 'AND',
        values: [
          { type: 'OR', values: [pro, bought] },
          { type: 'OR', values: [pro] },
        ],
      },
    };
    for (const filters of [negated, weekly, nested, {}]) {
      const draft = toCohortDraft(cohort(filters));
      expect(draft.json).not.toBeNull();
      expect(fromCohortDraft(draft).body?.filters).toEqual(filters);
    }
    expect(fromCohortDraft({ ...toCohortDraft(cohort(negated)), json: '[1]' }).errors).toEqual({ filters: expect.stringContaining('JSON object') });
  });

  it('names each criterion that cannot be sent, and an empty group', () => {
    const draft = {
      ...toCohortDraft(),
      name: ' ',
      groups: [[newCriterion('behavioral'), { ...newCriterion('flag_variant'), flag: 'checkout' }, newCriterion('cohort')], []],
    };
    expect(fromCohortDraft(draft).errors).toEqual({
      name: 'Name the cohort.',
      'criterion-0-0': 'Name the event.',
      'criterion-0-1': 'Pick the variant.',
      'criterion-0-2': 'Pick a cohort.',
      'group-1': 'Add a criterion to this group, or remove the group.',
    });
    const days = { ...newCriterion('behavioral'), event: 'purchase', days: 0 };
    expect(fromCohortDraft({ ...draft, name: 'x', groups: [[days]] }).errors).toEqual({ 'criterion-0-0': expect.stringContaining('1 to 3650') });
  });

  it('a static cohort sends no filters; its ids are pasted one a line or separated by commas, repeats once', () => {
    expect(fromCohortDraft({ ...toCohortDraft(), name: 'VIPs', isStatic: true }).body).toEqual({ name: 'VIPs', description: '' });
    expect(parseIds(' a\nb, c\r\n\n a ,')).toEqual(['a', 'b', 'c']);
  });

  it('tells the kinds apart: a list, events done, or properties', () => {
    expect(cohortKind(cohort({}, true))).toBe('static');
    expect(cohortKind(cohort({ properties: { type: 'OR', values: [{ type: 'AND', values: [pro, bought] }] } }))).toBe('behavioral');
    expect(cohortKind(cohort({ properties: { type: 'AND', values: [pro, inCohort] } }))).toBe('properties');
  });
});
