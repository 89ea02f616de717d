/** A filter date: fixed epoch milliseconds, or "now minus n units" resolved at evaluation time. */
export type DateSpec = { kind: 'absolute'; ms: number } | { kind: 'relative'; n: number; unit: 'h' | 'd' | 'w' | 'm' | 'y' };

const RELATIVE = /^-?(\d+)([a-z])$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month (1 to 12) of a given year; years 0 to 99 are 1900 to 1999, as `Date.UTC` takes them. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return MONTH_DAYS[month - 1]!;
  const y = year < 100 ? year + 1900 : year;
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
}

/** The last ISO-8601 string parsed and its result: flags often test the same property, so one evaluation parses it once. */
let lastText: string | undefined;
let lastMs = NaN;

/**
 * Epoch milliseconds of a property or filter value, or NaN. Numbers are epoch milliseconds; ISO-8601 strings
 * without an offset are UTC (PostHog's default team timezone); other strings go through Date.parse.
 */
export function parseDate(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) <= 8.64e15 ? value : NaN;
  if (typeof value !== 'string') return NaN;
  if (value === lastText) return lastMs;
  const m = ISO.exec(value.trim());
  if (!m) return Date.parse(value); // may depend on the time zone: not kept
  lastMs = isoDate(m);
  lastText = value;
  return lastMs;
}

/** Epoch milliseconds of a match of ISO, or NaN for a day or time out of range. */
function isoDate(m: RegExpExecArray): number {
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4] ?? 0);
  const minute = Number(m[5] ?? 0);
  const second = Number(m[6] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    return NaN;
  }
  const ms = m[7] ? Math.floor(Number(m[7]) * 1000) : 0;
  let offset = 0;
  const tz = m[8];
  if (tz && tz.toUpperCase() !== 'Z') {
    const digits = tz.replace(':', '');
    offset = (digits[0] === '-' ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0)) * 60_000;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset;
}

/** Compiles a filter value of a date operator; null when it is not a date (booleans included). */
export function compileDate(value: unknown): DateSpec | null {
  if (typeof value === 'boolean') return null;
  const rel = RELATIVE.exec(String(value));
  if (rel) {
    const n = Number(rel[1]);
    const unit = rel[2];
    if (n < 10_000 && (unit === 'h' || unit === 'd' || unit === 'w' || unit === 'm' || unit === 'y')) {
      return { kind: 'relative', n, unit };
    }
  }
  const ms = parseDate(value);
  return Number.isNaN(ms) ? null : { kind: 'absolute', ms };
}

/** Epoch milliseconds a compiled filter date stands for, given the current time. */
export function resolveDate(spec: DateSpec, now: number): number {
  if (spec.kind === 'absolute') return spec.ms;
  switch (spec.unit) {
    case 'h':
      return now - spec.n * HOUR;
    case 'd':
      return now - spec.n * DAY;
    case 'w':
      return now - spec.n * 7 * DAY;
    case 'm': {
      const d = new Date(now);
      d.setUTCMonth(d.getUTCMonth() - spec.n);
      return d.getTime();
    }
    case 'y': {
      const d = new Date(now);
      d.setUTCFullYear(d.getUTCFullYear() - spec.n);
      return d.getTime();
    }
  }
}
