import { describe, expect, it } from 'vitest';
import { reasonInWords } from '../src/features/flags/reason';

// The reasons /flags?v=2 gives (packages/flag-engine/src/evaluate.ts), as the web app says them to people.
const reason = (code: string, condition_index: number | null, description = '') => ({ code, condition_index, description });

describe('reasonInWords', () => {
  it('says "opted in" or "opted out" for an early access choice, never super_condition_value', () => {
    expect(reasonInWords({ reason: reason('super_condition_value', 0, 'Super condition value'), enabled: true })).toBe('Opted in to its early access feature');
    expect(reasonInWords({ reason: reason('super_condition_value', 0, 'Super condition value'), enabled: false })).toBe(
      'Opted out of its early access feature',
    );
  });

  it('counts condition sets from 1, as the flag form shows them', () => {
    expect(reasonInWords({ reason: reason('condition_match', 1, 'Matched condition set 2'), enabled: true })).toBe('Matched condition set 2');
    expect(reasonInWords({ reason: reason('out_of_rollout_bound', 0, 'Out of rollout bound'), enabled: false })).toBe(
      'Matched condition set 1, but outside its rollout percentage',
    );
  });

  it('says why nobody matched, and when group conditions could not run', () => {
    expect(reasonInWords({ reason: reason('no_condition_match', 0, 'No matching condition set'), enabled: false })).toBe('No condition set matched');
    const groups = 'No matching condition set (group conditions were not evaluated because no group type was provided)';
    expect(reasonInWords({ reason: reason('no_condition_match', 1, groups), enabled: false })).toBe(
      'No condition set matched: the request named no group of the type its group conditions need',
    );
  });

  it('says the flag is off, a holdout, a missing group or dependency in words', () => {
    expect(reasonInWords({ reason: reason('flag_disabled', null, 'Feature flag is disabled'), enabled: false })).toBe('The flag is off');
    expect(reasonInWords({ reason: reason('holdout_condition_value', null), enabled: true })).toBe("In the experiment's holdout");
    expect(reasonInWords({ reason: reason('no_group_type', null), enabled: false })).toBe(
      'The flag matches groups, and the request named no group of its type',
    );
    expect(reasonInWords({ reason: reason('missing_dependency', null), enabled: false })).toBe('It depends on a flag that is missing');
  });

  it("keeps the service's description for a code it does not know", () => {
    expect(reasonInWords({ reason: reason('something_new', null, 'Something new happened'), enabled: true })).toBe('Something new happened');
  });
});
