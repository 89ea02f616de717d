/** A version reduced to `[major, minor, patch]` (pre-release and build metadata dropped). */
export type SemverTuple = readonly [number, number, number];

/** A half-open version range `[lower, upper)`. */
export interface SemverRange {
  lower: SemverTuple;
  upper: SemverTuple;
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/** Parses one dot-separated component in `text[from, to)`: empty → 0, digits → number, else NaN. */
function component(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

/** The last string parsed and its result: flags often test the same property, so one evaluation parses it once. */
let lastText: string | undefined;
let lastVersion: SemverTuple | null = null;

/**
 * Parses a version like posthog-node: trims, drops a leading `v`/`V`, cuts at the first `-` or `+`,
 * pads missing parts with 0, ignores parts after the third, accepts leading zeros ("1.02" = 1.2).
 * Returns null when the version is not valid.
 */
export function parseSemver(value: unknown): SemverTuple | null {
  if (typeof value !== 'string') return parseVersion(String(value));
  if (value !== lastText) {
    lastVersion = parseVersion(value);
    lastText = value;
  }
  return lastVersion;
}

function parseVersion(text: string): SemverTuple | null {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  if (start < end && (text[start] === 'v' || text[start] === 'V')) start++;
  let stop = start;
  while (stop < end && text[stop] !== '-' && text[stop] !== '+') stop++;
  if (stop === start || text[start] === '.') return null;
  const parts = [0, 0, 0];
  let from = start;
  for (let i = 0; i < 3 && from <= stop; i++) {
    let to = text.indexOf('.', from);
    if (to < 0 || to > stop) to = stop;
    const n = component(text, from, to);
    if (Number.isNaN(n)) return null;
    parts[i] = n;
    from = to + 1;
  }
  return [parts[0], parts[1], parts[2]];
}

/** -1, 0 or 1 as `a` is lower than, equal to or greater than `b`. */
export function compareSemver(a: SemverTuple, b: SemverTuple): number {
  for (let i = 0; i < 3; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/** `~X.Y.Z` → `[X.Y.Z, X.(Y+1).0)`. */
export function tildeRange(value: unknown): SemverRange | null {
  const v = parseSemver(value);
  return v && { lower: v, upper: [v[0], v[1] + 1, 0] };
}

/** `^X.Y.Z` → `[X.Y.Z, (X+1).0.0)`, or `0.(Y+1).0` / `0.0.(Z+1)` for zero majors / minors. */
export function caretRange(value: unknown): SemverRange | null {
  const v = parseSemver(value);
  if (!v) return null;
  const [major, minor, patch] = v;
  const upper: SemverTuple = major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1];
  return { lower: v, upper };
}

/** `X.*` → `[X.0.0, (X+1).0.0)`, `X.Y.*` → `[X.Y.0, X.(Y+1).0)`, `*` → everything (`x` works like `*`). */
export function wildcardRange(value: unknown): SemverRange | null {
  let text = String(value).trim().replace(/^[vV]/, '');
  if (text === '') return null;
  while (/(^|\.)[*xX]$/.test(text)) text = text.slice(0, text.length - 1).replace(/\.$/, '');
  if (text === '') return { lower: [0, 0, 0], upper: [Infinity, 0, 0] };
  const parts = text.split('.');
  const major = parseInt(parts[0], 10);
  if (Number.isNaN(major)) return null;
  if (parts.length === 1) return { lower: [major, 0, 0], upper: [major + 1, 0, 0] };
  const minor = parseInt(parts[1], 10);
  if (Number.isNaN(minor)) return null;
  return { lower: [major, minor, 0], upper: [major, minor + 1, 0] };
}

/** True when `v` lies in `[range.lower, range.upper)`. */
export function inRange(v: SemverTuple, range: SemverRange): boolean {
  return compareSemver(v, range.lower) >= 0 && compareSemver(v, range.upper) < 0;
}
