import { RE2JS } from 're2js';
import { compileDate, parseDate, resolveDate } from './dates';
import { caretRange, compareSemver, inRange, parseSemver, tildeRange, wildcardRange } from './semver';
import type { SemverRange, SemverTuple } from './semver';

/** Three-valued match result: no, yes, or cannot tell here (local mode only). */
export const NO = 0;
export const YES = 1;
export const UNKNOWN = 2;
export type Tri = typeof NO | typeof YES | typeof UNKNOWN;

/** Supplies the current time to relative date filters (read at most once per evaluation). */
export interface Clock {
  now(): number;
}

/** Operators whose result is true on the server when the property is absent. */
const NEGATIVE_OPERATORS = new Set(['is_not', 'not_icontains', 'not_regex', 'not_starts_with', 'not_ends_with', 'not_icontains_multi', 'not_between']);

/** Every operator a person / group property filter may use. */
export const PROPERTY_OPERATORS: ReadonlySet<string> = new Set([
  'exact',
  'is_not',
  'is_set',
  'is_not_set',
  'icontains',
  'not_icontains',
  'icontains_multi',
  'not_icontains_multi',
  'regex',
  'not_regex',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'not_between',
  'is_date_before',
  'is_date_after',
  'is_date_exact',
  'starts_with',
  'not_starts_with',
  'ends_with',
  'not_ends_with',
  'semver_eq',
  'semver_neq',
  'semver_gt',
  'semver_gte',
  'semver_lt',
  'semver_lte',
  'semver_tilde',
  'semver_caret',
  'semver_wildcard',
]);

/** A property filter's operator and value, compiled once. */
export interface ValueMatcher {
  /** Result when the property is absent. */
  readonly missing: Tri;
  /** `is_set` (1), `is_not_set` (-1) or neither (0): these only look at presence. */
  readonly presence: -1 | 0 | 1;
  /** Whether `test` runs for a present `null` (only `is_not`); otherwise null never matches. */
  readonly nullable: boolean;
  /** Tests a present value. May answer UNKNOWN (bad date, bad semver, unknown operator). */
  readonly test: (value: unknown, clock: Clock) => Tri;
}

const tri = (b: boolean): Tri => (b ? YES : NO);
const lower = (v: unknown): string => String(v).toLowerCase();
const unknown = (): Tri => UNKNOWN;

/** Compiles `operator` + `value` of a property filter; `local` decides what an absent property means. */
export function compileMatcher(operator: string | null | undefined, value: unknown, local: boolean): ValueMatcher {
  const op = operator || 'exact';
  const missing: Tri = op === 'is_not_set' ? YES : local ? UNKNOWN : tri(NEGATIVE_OPERATORS.has(op));
  const presence = op === 'is_set' ? 1 : op === 'is_not_set' ? -1 : 0;
  return { missing, presence, nullable: op === 'is_not', test: PROPERTY_OPERATORS.has(op) ? compileTest(op, value) : unknown };
}

function compileTest(op: string, value: unknown): (v: unknown, clock: Clock) => Tri {
  switch (op) {
    case 'exact':
    case 'is_not': {
      const negate = op === 'is_not';
      if (Array.isArray(value)) {
        const options = value.map(lower);
        return (v) => tri(options.includes(lower(v)) !== negate);
      }
      const expected = lower(value);
      return (v) => tri((lower(v) === expected) !== negate);
    }
    case 'icontains':
    case 'not_icontains':
      return textTest(lower(value), (s, n) => s.includes(n), op === 'not_icontains');
    case 'starts_with':
    case 'not_starts_with':
      return textTest(lower(value), (s, n) => s.startsWith(n), op === 'not_starts_with');
    case 'ends_with':
    case 'not_ends_with':
      return textTest(lower(value), (s, n) => s.endsWith(n), op === 'not_ends_with');
    case 'icontains_multi':
    case 'not_icontains_multi': {
      const needles = (Array.isArray(value) ? value : [value]).map(lower);
      const negate = op === 'not_icontains_multi';
      return (v) => {
        const s = lower(v);
        return tri(needles.some((n) => s.includes(n)) !== negate);
      };
    }
    case 'regex':
    case 'not_regex': {
      const re = compileRegex(value);
      if (typeof re === 'string') return () => NO; // an invalid pattern matches nothing, with either operator
      const negate = op === 'not_regex';
      return (v) => tri(search(re, String(v)) !== negate);
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return numericTest(op, value);
    case 'between':
    case 'not_between':
      return betweenTest(value, op === 'not_between');
    case 'is_date_before':
    case 'is_date_after':
    case 'is_date_exact': {
      const spec = compileDate(value);
      if (!spec) return unknown;
      return (v, clock) => {
        const ms = parseDate(v);
        if (Number.isNaN(ms)) return UNKNOWN;
        const target = resolveDate(spec, spec.kind === 'relative' ? clock.now() : 0);
        return tri(op === 'is_date_before' ? ms < target : op === 'is_date_after' ? ms > target : ms === target);
      };
    }
    case 'semver_tilde':
      return rangeTest(tildeRange(value));
    case 'semver_caret':
      return rangeTest(caretRange(value));
    case 'semver_wildcard':
      return rangeTest(wildcardRange(value));
    default:
      return semverTest(op, parseSemver(value));
  }
}

function textTest(needle: string, has: (s: string, needle: string) => boolean, negate: boolean): (v: unknown) => Tri {
  return (v) => tri(has(lower(v), needle) !== negate);
}

/** Compiled patterns by source, so recompiling a project's flags after each change reuses them. */
const regexCache = new Map<string, RE2JS | string>();
const REGEX_CACHE_SIZE = 1000;

/**
 * The filter value as an RE2 regex (linear-time matching, so no pattern and input can freeze the process;
 * `test` searches, unanchored, like PostHog's Python `re.search` / Rust `regex`), or why it is not a valid pattern.
 */
export function compileRegex(value: unknown): RE2JS | string {
  const pattern = String(value);
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      re = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    }
    if (regexCache.size >= REGEX_CACHE_SIZE) regexCache.delete(regexCache.keys().next().value as string);
    regexCache.set(pattern, re);
  }
  return re;
}

/** The last search and its result: flags often test the same property with the same pattern. */
let lastPattern: RE2JS | null = null;
let lastInput = '';
let lastFound = false;

function search(re: RE2JS, input: string): boolean {
  if (re !== lastPattern || input !== lastInput) {
    lastFound = re.test(input);
    lastPattern = re;
    lastInput = input;
  }
  return lastFound;
}

/** Numeric when both sides parse as finite floats (like posthog-node), else string comparison. */
function numericTest(op: string, value: unknown): (v: unknown) => Tri {
  const num = typeof value === 'number' ? value : parseFloat(String(value));
  const str = String(value);
  const cmp =
    op === 'gt' ? <T>(a: T, b: T) => a > b : op === 'gte' ? <T>(a: T, b: T) => a >= b : op === 'lt' ? <T>(a: T, b: T) => a < b : <T>(a: T, b: T) => a <= b;
  return (v) => {
    const n = typeof v === 'number' ? v : parseFloat(String(v));
    return tri(Number.isFinite(num) && Number.isFinite(n) ? cmp(n, num) : cmp(String(v), str));
  };
}

/** Inclusive `[min, max]` of a two-number array (server operator); anything else cannot be decided. */
function betweenTest(value: unknown, negate: boolean): (v: unknown) => Tri {
  const [low, high] = Array.isArray(value) && value.length === 2 ? value.map(strictNumber) : [NaN, NaN];
  if (Number.isNaN(low) || Number.isNaN(high) || low > high) return unknown;
  return (v) => {
    const n = strictNumber(v);
    return Number.isNaN(n) ? NO : tri((n >= low && n <= high) !== negate);
  };
}

const strictNumber = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

function rangeTest(range: SemverRange | null): (v: unknown) => Tri {
  if (!range) return unknown;
  return (v) => {
    const parsed = parseSemver(v);
    return parsed ? tri(inRange(parsed, range)) : UNKNOWN;
  };
}

function semverTest(op: string, expected: SemverTuple | null): (v: unknown) => Tri {
  if (!expected) return unknown;
  const accept =
    op === 'semver_eq'
      ? (c: number) => c === 0
      : op === 'semver_neq'
        ? (c: number) => c !== 0
        : op === 'semver_gt'
          ? (c: number) => c > 0
          : op === 'semver_gte'
            ? (c: number) => c >= 0
            : op === 'semver_lt'
              ? (c: number) => c < 0
              : (c: number) => c <= 0;
  return (v) => {
    const parsed = parseSemver(v);
    return parsed ? tri(accept(compareSemver(parsed, expected))) : UNKNOWN;
  };
}

/** Matches a property (present or not) against a compiled matcher. UNKNOWN only comes back in local mode. */
export function matchValue(m: ValueMatcher, present: boolean, value: unknown, clock: Clock, local: boolean): Tri {
  if (!present) return m.missing;
  if (m.presence !== 0) return tri(m.presence > 0);
  if (value == null && !m.nullable) return NO;
  const r = m.test(value, clock);
  return r === UNKNOWN && !local ? NO : r;
}
