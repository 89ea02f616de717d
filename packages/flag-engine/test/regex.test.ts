import { describe, expect, it } from 'vitest';
import { compileFlags, validateFilters } from '../src/index';
import type { EvaluationMode, FlagDefinition } from '../src/index';

const regexFlag = (pattern: unknown, operator = 'regex'): FlagDefinition => ({
  id: 1,
  key: 're',
  active: true,
  filters: { groups: [{ properties: [{ key: 'name', type: 'person', operator, value: pattern }] }] },
});
const enabled = (pattern: unknown, name: unknown, operator = 'regex', mode: EvaluationMode = 'server') => {
  const result = compileFlags([regexFlag(pattern, operator)], { mode }).evaluate('re', { distinctId: 'u', personProperties: { name } });
  return result && !result.inconclusive ? result.enabled : result;
};
/** The pattern and input of issue 10: a backtracking engine takes ~2^32 steps (52 s) on it. */
const CATASTROPHIC = '^(a+)+$';
const EVIL_INPUT = `${'a'.repeat(32)}!`;

describe('regex operators run in linear time (issue 10: a backtracking pattern froze the service)', () => {
  it.each(['server', 'local'] as const)('answers ^(a+)+$ against 32 a\'s and "!" at once (%s mode)', (mode) => {
    expect(enabled(CATASTROPHIC, EVIL_INPUT, 'regex', mode)).toBe(false);
    expect(enabled(CATASTROPHIC, EVIL_INPUT, 'not_regex', mode)).toBe(true);
    expect(enabled(CATASTROPHIC, 'a'.repeat(32), 'regex', mode)).toBe(true);
  });

  it('answers nested repetitions on a long input', () => {
    expect(enabled('(x+x+)+y', 'x'.repeat(5000))).toBe(false);
    expect(enabled('(.*a){12}', 'a'.repeat(11) + 'b'.repeat(5000))).toBe(false);
  });
});

describe('regex syntax PostHog users write (Python re / Rust regex)', () => {
  it('honours inline flags such as (?i)', () => {
    expect(enabled('(?i)^ANN@EXAMPLE\\.com$', 'ann@example.com')).toBe(true);
    expect(enabled('(?i)ann', 'JoANNa')).toBe(true);
    expect(enabled('(?i)ann', 'bob')).toBe(false);
    expect(enabled('(?i)ann', 'ANNA', 'not_regex')).toBe(false);
    expect(enabled('ann', 'ANNA')).toBe(false);
  });

  it.each([
    ['\\d{3}-\\d{4}', 'call 555-1234 now', true],
    ['^\\w+@(gmail|yahoo)\\.com$', 'ann@yahoo.com', true],
    ['^\\w+@(gmail|yahoo)\\.com$', 'ann@hotmail.com', false],
    ['(?P<user>[a-z]+)@', 'ann@x', true],
    ['\\bpro\\b', 'plan pro monthly', true],
    ['^$', '', true],
    ['é', 'café', true],
    ['(?s)a.b', 'a\nb', true],
    ['(?m)^b$', 'a\nb\nc', true],
    ['42', 1423, true],
  ])('%s searched in %j → %s', (pattern, value, expected) => {
    expect(enabled(pattern, value)).toBe(expected);
  });

  it('compiles an unsupported or invalid pattern without throwing; it never matches, with either operator, in both modes', () => {
    for (const pattern of ['(', 'a{2,1}', '(?=a)b', '(a)\\1', '[z-a]']) {
      for (const operator of ['regex', 'not_regex']) {
        expect(enabled(pattern, 'aab', operator, 'server')).toBe(false);
        expect(enabled(pattern, 'aab', operator, 'local')).toBe(false);
      }
    }
  });
});

describe('validateFilters on regex patterns', () => {
  const filters = (pattern: unknown, operator = 'regex', where = 'groups') => ({
    [where]: [{ properties: [{ key: 'name', type: 'person', operator, value: pattern }] }],
  });

  it.each(['^(a+)+$', '(?i)^ann', '\\d+', '.*', 'a|b'])('accepts %s', (pattern) => {
    expect(validateFilters(filters(pattern))).toBeNull();
    expect(validateFilters(filters(pattern, 'not_regex'))).toBeNull();
  });

  it.each(['(', 'a{2,1}', '(?=a)b', '(a)\\1', '[z-a]', '*'])('rejects %s with the path of the condition', (pattern) => {
    for (const operator of ['regex', 'not_regex']) {
      expect(validateFilters(filters(pattern, operator))).toEqual({
        attr: 'filters__groups',
        code: 'invalid_input',
        detail: expect.stringMatching(/^Filters are not valid \(invalid regular expression .+\)$/),
      });
    }
    expect(validateFilters(filters(pattern, 'regex', 'super_groups'))).toMatchObject({ attr: 'filters__super_groups' });
  });

  it('names the pattern in the message', () => {
    expect(validateFilters(filters('a{2,1}'))?.detail).toContain('"a{2,1}"');
  });

  it('leaves the value of other operators alone', () => {
    expect(validateFilters(filters('(', 'icontains'))).toBeNull();
  });
});
