import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database';
import type { Database } from '../db/schema';
import { storable } from '../db/text';
import { ValidationError } from '../errors';
import { PAGE_MAX_BYTES } from '../db/page';
import { isObject, type Properties } from '../json';
import {
  OTHER_KEY,
  comparable,
  eventCounts,
  eventNames,
  eventStore,
  payloadsOf,
  wholeProperties,
  type CountFilters,
  type EventFilters,
  type PropertyMatch,
} from './store';

export interface EventQuery {
  event?: string;
  distinct_id?: string;
  after?: string;
  before?: string;
  /** JSON list of `{key, value}`, as for counts. */
  properties?: string;
}

/** An ISO time filter, normalized to the stored form; 400 naming the field when it is not a time. */
function timeFilter(value: string | undefined, attr: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new ValidationError('Enter a valid date/time, e.g. 2026-01-31T12:00:00Z.', attr, 'invalid');
  return new Date(ms).toISOString();
}

export type CountInterval = 'day' | 'hour';

export interface EventCountQuery {
  event: string;
  after: string;
  before?: string;
  interval?: CountInterval;
  breakdown?: string;
  /** JSON list of `{key, value}`. */
  properties?: string;
}

export interface EventCounts {
  interval: CountInterval;
  /** Every bucket of the range: UTC dates (`2026-11-23`), or hour starts (`2026-11-23T14:00:00Z`). */
  days: string[];
  series: { breakdown_value: string | null; counts: number[]; total: number }[];
}

/** Most event names listed. */
export const MAX_EVENT_NAMES = 1000;

/** Longest range of event counts: by day, and by hour. */
export const MAX_COUNT_DAYS = 366;
export const MAX_COUNT_HOUR_DAYS = 31;
/** Most series of event counts, `$other` included. */
export const MAX_SERIES = 25;
export const OTHER = '$other';
/** Most property filters of event counts, and values per filter. */
const MAX_PROPERTY_FILTERS = 20;
const MAX_FILTER_VALUES = 100;
/** Longest key or value of a property filter (a LIKE pattern holds both: SQLite takes up to 50,000 bytes). */
const MAX_FILTER_TEXT = 1000;

const ROWS_AT_ONCE = 20_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO 8601 date (UTC midnight) or date-time (UTC when it names no offset) as epoch milliseconds; 400 naming the field otherwise. */
function instant(value: string, attr: string): number {
  const m = ISO_TIME.exec(value.trim().replace(' ', 'T').toUpperCase());
  const date = m && new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  const ms =
    !m || !date || date.getUTCDate() !== Number(m[3]) || date.getUTCMonth() !== Number(m[2]) - 1
      ? NaN
      : Date.parse(m[4] === undefined ? `${m[0]}T00:00:00Z` : m[6] === undefined ? `${m[0]}Z` : m[0]);
  if (!Number.isFinite(ms)) throw new ValidationError('Enter a valid ISO 8601 date or date/time, e.g. 2026-01-31 or 2026-01-31T12:00:00Z.', attr, 'invalid');
  return ms;
}

const badProperties = (detail: string, code = 'invalid') => new ValidationError(detail, 'properties', code);
const hasNul = (s: string) => s.includes('\u0000');

/** A filter value as text (numbers and booleans as their JSON), or null; 400 for anything else. */
function filterText(value: unknown): string | null {
  if (value === null || typeof value === 'string') {
    if (value !== null && hasNul(value)) throw badProperties('Null characters are not allowed.', 'null_characters_not_allowed');
    if (value !== null && value.length > MAX_FILTER_TEXT) throw badProperties(`Each value has at most ${MAX_FILTER_TEXT} characters.`, 'max_length');
    return value;
  }
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return JSON.stringify(value);
  throw badProperties('Each value must be a string, a number, a boolean or null (or a list of them).');
}

/** `properties`: a JSON list of `{key, value}` (value: one or a list of values, any of which matches; operator `exact` if any). */
function propertyFilters(raw: string | undefined): PropertyMatch[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badProperties('Expected a JSON list of {"key": ..., "value": ...}, e.g. [{"key": "$feature_flag", "value": "my-flag"}].');
  }
  if (!Array.isArray(parsed)) throw badProperties('Expected a JSON list of {"key": ..., "value": ...}, e.g. [{"key": "$feature_flag", "value": "my-flag"}].');
  if (parsed.length > MAX_PROPERTY_FILTERS) throw badProperties(`At most ${MAX_PROPERTY_FILTERS} property filters.`);
  return parsed.map((item: unknown) => {
    if (!isObject(item) || typeof item.key !== 'string' || item.key === '' || !('value' in item))
      throw badProperties('Each property filter is {"key": "<property name>", "value": <value>}.');
    if (hasNul(item.key)) throw badProperties('Null characters are not allowed.', 'null_characters_not_allowed');
    if (item.key.length > MAX_FILTER_TEXT) throw badProperties(`Each key has at most ${MAX_FILTER_TEXT} characters.`, 'max_length');
    if (item.operator !== undefined && item.operator !== 'exact') throw badProperties('Only exact property filters are supported (operator "exact").');
    const values = Array.isArray(item.value) ? item.value : [item.value];
    if (!values.length || values.length > MAX_FILTER_VALUES) throw badProperties(`A list of values holds 1 to ${MAX_FILTER_VALUES} values.`);
    return { key: item.key, values: values.map((v) => comparable(filterText(v))) };
  });
}

/** A breakdown value as the answer shows it, from its comparable form; NUL and lone surrogates as U+FFFD on both databases. */
function breakdownValue(key: string | null): string | null {
  if (key === null) return null;
  if (key === OTHER_KEY) return OTHER;
  return storable(key.startsWith('"') ? (JSON.parse(key) as string) : key, Infinity);
}

/** Series order: most events first, `$other` last; ties null first, then by value. */
function bySize(a: EventCounts['series'][number], b: EventCounts['series'][number]) {
  if ((a.breakdown_value === OTHER) !== (b.breakdown_value === OTHER)) return a.breakdown_value === OTHER ? 1 : -1;
  if (a.total !== b.total) return b.total - a.total;
  if (a.breakdown_value === null || b.breakdown_value === null) return a.breakdown_value === null ? -1 : b.breakdown_value === null ? 1 : 0;
  return a.breakdown_value < b.breakdown_value ? -1 : a.breakdown_value > b.breakdown_value ? 1 : 0;
}

/** Reading stored events back. */
export class EventService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    /** Rows of (bucket, breakdown value) counts read at once before the largest values are picked in SQL instead. */
    private readonly rowsAtOnce = ROWS_AT_ONCE,
  ) {}

  /**
   * One event's counts per UTC day (or hour) from `after` (inclusive) to `before` (exclusive, default now), every
   * bucket present; optionally only events with given property values, and one series per value of `breakdown`:
   * the 25 largest, or 24 and the rest summed as `$other`.
   */
  async counts(projectId: number, query: EventCountQuery): Promise<EventCounts> {
    const interval = query.interval ?? 'day';
    const after = instant(query.after, 'after');
    const before = query.before === undefined || query.before === '' ? Date.now() : instant(query.before, 'before');
    if (before <= after)
      throw new ValidationError('`after` must be earlier than `before` (which is now unless given).', query.before ? 'before' : 'after', 'invalid');
    const step = interval === 'hour' ? HOUR_MS : DAY_MS;
    const first = Math.floor(after / step) * step;
    const count = (Math.floor((before - 1) / step) * step - first) / step + 1;
    if (interval === 'day' && count > MAX_COUNT_DAYS)
      throw new ValidationError(`The range covers at most ${MAX_COUNT_DAYS} days: give a later \`after\` or an earlier \`before\`.`, 'after', 'range_too_long');
    if (interval === 'hour' && count > MAX_COUNT_HOUR_DAYS * 24)
      throw new ValidationError(
        `By hour, the range covers at most ${MAX_COUNT_HOUR_DAYS} days (${MAX_COUNT_HOUR_DAYS * 24} hours): use interval=day, or a shorter range.`,
        'interval',
        'range_too_long',
      );
    const bucketChars = interval === 'hour' ? 13 : 10;
    const keys = Array.from({ length: count }, (_, i) => new Date(first + i * step).toISOString().slice(0, bucketChars));
    const index = new Map(keys.map((key, i) => [key, i]));
    const days = interval === 'hour' ? keys.map((key) => `${key}:00:00Z`) : keys;
    const filters: CountFilters = {
      event: query.event,
      after: new Date(after).toISOString(),
      before: new Date(before).toISOString(),
      bucketChars,
      properties: propertyFilters(query.properties),
    };
    const series = new Map<string | null, { breakdown_value: string | null; counts: number[]; total: number }>();
    const add = (value: string | null, bucket: string, n: number) => {
      const i = index.get(bucket);
      if (i === undefined) return;
      let s = series.get(value);
      if (!s) series.set(value, (s = { breakdown_value: value, counts: keys.map(() => 0), total: 0 }));
      s.counts[i]! += n;
      s.total += n;
    };

    const breakdown = query.breakdown || undefined;
    if (breakdown === undefined) {
      add(null, keys[0]!, 0);
      for (const row of await eventCounts.perBucket(this.db, this.dialect, projectId, filters)) add(null, row.bucket, row.n);
      return { interval, days, series: [...series.values()] };
    }
    // Most breakdowns have a few values: one read, every value's counts, the largest picked here. With many
    // values, the largest are found first, and the counts read again with the rest summed in SQL.
    let rows = await eventCounts.perBucketAndValue(this.db, this.dialect, projectId, filters, breakdown, undefined, this.rowsAtOnce + 1);
    if (rows.length > this.rowsAtOnce) {
      const top = await eventCounts.topValues(this.db, this.dialect, projectId, filters, breakdown, MAX_SERIES + 1);
      const kept = top.length > MAX_SERIES ? top.slice(0, MAX_SERIES - 1) : undefined;
      rows = await eventCounts.perBucketAndValue(
        this.db,
        this.dialect,
        projectId,
        filters,
        breakdown,
        kept && { values: kept.flatMap((t) => (t.v === null ? [] : [t.v])), null: kept.some((t) => t.v === null) },
      );
    }
    for (const row of rows) add(breakdownValue(row.v), row.bucket, row.n);
    const sorted = [...series.values()].sort(bySize);
    if (sorted.length <= MAX_SERIES) return { interval, days, series: sorted };
    // More values than series: the largest 24, and the rest summed.
    const other = { breakdown_value: OTHER, counts: keys.map(() => 0), total: 0 };
    for (const s of sorted.slice(MAX_SERIES - 1)) {
      s.counts.forEach((n, i) => (other.counts[i]! += n));
      other.total += s.total;
    }
    return { interval, days, series: [...sorted.slice(0, MAX_SERIES - 1), other] };
  }

  /** The project's event names (up to 1,000, sorted by code unit), those containing `search` (ignoring case) if given. */
  async names(projectId: number, search: string | undefined): Promise<{ results: string[] }> {
    // In code unit order on both databases (PostgreSQL's collation may order them otherwise).
    const names = (await eventNames(this.db, projectId, MAX_EVENT_NAMES)).sort();
    const needle = search?.toLowerCase();
    return { results: needle ? names.filter((name) => name.toLowerCase().includes(needle)) : names };
  }

  async list(projectId: number, query: EventQuery, limit: number, offset: number) {
    const filters: EventFilters = {
      event: query.event || undefined,
      distinctId: query.distinct_id || undefined,
      after: timeFilter(query.after, 'after'),
      before: timeFilter(query.before, 'before'),
      properties: propertyFilters(query.properties),
    };
    const { count, rows } = await eventStore.page(this.db, this.dialect, projectId, filters, limit, offset, PAGE_MAX_BYTES);
    const payloads = await payloadsOf(this.db, projectId, rows);
    const results = rows.map((row) => ({
      id: row.uuid,
      event: row.event,
      distinct_id: row.distinct_id,
      properties: wholeProperties(row.properties, row.stacks, row.llm_payloads, payloads) as Properties,
      timestamp: row.timestamp,
    }));
    return { count, results };
  }
}
