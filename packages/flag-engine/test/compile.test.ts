import { RE2JS } from 're2js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileFlags, enrollmentCondition, ENROLLMENT_PROPERTY_PREFIX } from '../src/index';
import type { FlagDefinition, FlagFilters, FlagResult } from '../src/index';

const flag = (key: string, filters: FlagFilters, extra: Partial<FlagDefinition> = {}): FlagDefinition => ({
  id: 1,
  key,
  active: true,
  filters,
  ...extra,
});
const regexFlag = (pattern: string, operator = 'regex'): FlagDefinition =>
  flag('re', { groups: [{ properties: [{ key: 'name', type: 'person', operator, value: pattern }] }] });

describe('compile once, evaluate many', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('builds each filter regex once, at compile time, never during evaluation', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    const flags = compileFlags([regexFlag('^ann')]);
    expect(compile).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 100; i++) flags.evaluate('re', { distinctId: `u${i}`, personProperties: { name: i % 2 ? 'anna' : 'bob' } });
    expect(flags.evaluate('re', { distinctId: 'u', personProperties: { name: 'anna' } })).toMatchObject({ enabled: true });
    compileFlags([regexFlag('^ann'), regexFlag('^ann', 'not_regex')]); // a recompile after a change reuses the pattern
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('keeps at most 1000 compiled patterns, dropping the oldest first', () => {
    const compile = vi.spyOn(RE2JS, 'compile');
    for (let i = 0; i <= 1000; i++) compileFlags([regexFlag(`^cached-${i}$`)]);
    compileFlags([regexFlag('^cached-1000$')]);
    expect(compile).toHaveBeenCalledTimes(1001);
    compileFlags([regexFlag('^cached-0$')]);
    expect(compile).toHaveBeenCalledTimes(1002);
  });

  it('compiles an invalid regex without throwing, and it never matches', () => {
    const ctx = { distinctId: 'u', personProperties: { name: '(' } };
    for (const operator of ['regex', 'not_regex']) {
      const flags = compileFlags([regexFlag('(', operator)]);
      expect(flags.evaluate('re', ctx)).toMatchObject({ enabled: false, reason: { code: 'no_condition_match' } });
      expect(compileFlags([regexFlag('(', operator)], { mode: 'local' }).evaluate('re', ctx)).toMatchObject({ enabled: false });
    }
  });

  it('resolves relative dates against the time of evaluation, not of compilation', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-10T00:00:00Z'));
    const flags = compileFlags([flag('recent', { groups: [{ properties: [{ key: 'seen', type: 'person', operator: 'is_date_after', value: '-7d' }] }] })]);
    const ctx = { distinctId: 'u', personProperties: { seen: '2030-01-05T00:00:00Z' } };
    expect(flags.evaluate('recent', ctx)).toMatchObject({ enabled: true });
    vi.setSystemTime(new Date('2030-01-20T00:00:00Z'));
    expect(flags.evaluate('recent', ctx)).toMatchObject({ enabled: false });
  });

  it('compiles malformed definitions without throwing', () => {
    const defs = [
      flag('a', { groups: [{ properties: [{ key: 'v', type: 'person', operator: 'semver_gt', value: 'x.y' }] }] }),
      flag('b', { groups: [{ properties: [{ key: 'd', type: 'person', operator: 'is_date_before', value: 'soon' }] }] }),
      flag('c', { groups: [{ properties: [{ key: 'id', type: 'cohort', value: 42 }] }] }),
      flag('d', { groups: null, multivariate: null, payloads: null }),
      flag('e', {} as FlagFilters),
    ];
    expect(() => compileFlags(defs)).not.toThrow();
    expect(() => compileFlags(defs, { mode: 'local' })).not.toThrow();
  });

  it('lists compiled keys without deleted flags and returns undefined for unknown keys', () => {
    const flags = compileFlags([flag('a', { groups: [{}] }), flag('b', { groups: [{}] }, { deleted: true })]);
    expect(flags.keys).toEqual(['a']);
    expect(flags.mode).toBe('server');
    expect(flags.evaluate('b', { distinctId: 'u' })).toBeUndefined();
    expect(flags.evaluateAll({ distinctId: 'u' }, ['a', 'b', 'nope'])).toEqual({ a: expect.objectContaining({ enabled: true }) });
  });

  it('shares frozen reason objects between evaluations', () => {
    const flags = compileFlags([flag('a', { groups: [{ rollout_percentage: 100 }] })]);
    const first = flags.evaluate('a', { distinctId: 'u1' }) as FlagResult;
    const second = flags.evaluate('a', { distinctId: 'u2' }) as FlagResult;
    expect(first.reason).toBe(second.reason);
    expect(Object.isFrozen(first.reason)).toBe(true);
    expect(first.reason).toEqual({ code: 'condition_match', condition_index: 0, description: 'Matched condition set 1' });
  });

  it('evaluates a dependency once per evaluateAll call', () => {
    const dep = { key: 'base', type: 'flag', operator: 'flag_evaluates_to', value: true };
    const defs = [
      flag('base', { groups: [{ properties: [{ key: 'x', type: 'person', operator: 'regex', value: 'y' }] }] }),
      flag('c1', { groups: [{ properties: [dep] }] }),
      flag('c2', { groups: [{ properties: [dep] }] }),
    ];
    let lookups = 0;
    const flags = compileFlags(defs);
    const props = new Proxy({ x: 'y' } as Record<string, unknown>, {
      getOwnPropertyDescriptor(target, key) {
        if (key === 'x') lookups++;
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    });
    const all = flags.evaluateAll({ distinctId: 'u', personProperties: props });
    expect(lookups).toBe(1);
    expect([all.c1, all.c2].map((r) => r && !r.inconclusive && r.enabled)).toEqual([true, true]);
  });
});

describe('early access enrollment helpers', () => {
  it('builds the super condition the service stores', () => {
    expect(ENROLLMENT_PROPERTY_PREFIX).toBe('$feature_enrollment/');
    expect(JSON.stringify(enrollmentCondition('my-flag'))).toBe(
      '{"properties":[{"key":"$feature_enrollment/my-flag","type":"person","operator":"exact","value":["true"]}],"rollout_percentage":100}',
    );
  });

  it('turns a 0% flag on for an opted-in person through super_groups', () => {
    const flags = compileFlags([flag('eaf', { groups: [{ rollout_percentage: 0 }], super_groups: [enrollmentCondition('eaf')] })]);
    expect(flags.evaluate('eaf', { distinctId: 'u', personProperties: { '$feature_enrollment/eaf': true } })).toMatchObject({
      enabled: true,
      reason: { code: 'super_condition_value', condition_index: 0, description: 'Super condition value' },
    });
  });
});
