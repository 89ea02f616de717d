import { ValidationError } from '../errors';

const DAY_MS = 86_400_000;

/** A time of the query: `YYYY-MM-DD` (UTC midnight; for `date_to` the whole day counts), an ISO date-time, or `-<n>d`/`-<n>h` ago. */
export function timeOf(value: string | undefined, attr: 'date_from' | 'date_to', now: number): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const relative = /^-(\d{1,5})([dh])$/.exec(text);
  let ms: number;
  if (relative) ms = now - Number(relative[1]) * (relative[2] === 'd' ? DAY_MS : 3_600_000);
  else if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    ms = Date.parse(`${text}T00:00:00Z`);
    if (attr === 'date_to') ms += DAY_MS;
    if (Number.isFinite(ms) && new Date(ms - (attr === 'date_to' ? DAY_MS : 0)).toISOString().slice(0, 10) !== text) ms = NaN;
  } else ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms) || ms < 0 || ms > 253402300799999) {
    throw new ValidationError('Enter a date (2026-01-31), a date-time (2026-01-31T12:00:00Z) or a time ago (-7d, -12h).', attr, 'invalid');
  }
  return new Date(ms).toISOString();
}
