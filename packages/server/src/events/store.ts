import { sql, type Expression } from 'kysely';
import type { Dialect } from '../db/database';
import { jsonTextAt } from '../db/json-text';
import { containsPattern } from '../db/like';
import { countThenPage, rowsWithinBytes } from '../db/page';
import type { Executor } from '../db/schema';
import { isObject } from '../json';
import type { PayloadPlace } from '../capture/store';

/*
 * An `$exception` event's stack traces (most of its size, and the same for every occurrence of an error whatever its
 * message says) are stored once per project and distinct stacks, in `exception_stacks`; the event's row names them in
 * `exception_stacks`, and its `$exception_list` keeps the rest of each exception. A query of events as `e` joins their
 * stacks as `l` (`stacksOfEvent`), selects `l.stacks` beside `e.properties` (and `wholeBytes`, about their size
 * together), and `wholeProperties` puts each stack back, last in its exception, where ingestion had it.
 *
 * An LLM event's large inputs and outputs are stored apart likewise, once per project and distinct JSON, in
 * `llm_payloads`; the event's properties hold each one's hash in its place, and its row names the places
 * (`llm_payloads`) and what they add (`llm_payload_bytes`, in `wholeBytes`). A read selects `e.llm_payloads`, reads the
 * values its page names at once (`payloadsOf`) and `wholeProperties` puts them back in their places.
 */

/** The bytes a stack adds to its exception when put back in: `,"stacktrace":` and the stack. */
export const STACK_KEY_BYTES = ',"stacktrace":'.length;

/** The condition joining an event (`e`) to its stack traces (`l`), for a left join. */
export const stacksOfEvent = sql<boolean>`l.project_id = e.project_id and l.hash = e.exception_stacks`;

/** About the size of an event's properties whole, in bytes: its row's and its stacks' (a few bytes a stack apart). */
export const wholeBytes = sql<number>`(octet_length(e.properties) + coalesce(octet_length(l.stacks), 0) + coalesce(e.llm_payload_bytes, 0))`;

/** The LLM values stored apart (`llm_payloads`) that some events' rows name, parsed, by hash. */
export async function payloadsOf(db: Executor, projectId: number, rows: readonly { llm_payloads: string | null }[]): Promise<Map<string, unknown>> {
  const hashes = new Set<string>();
  for (const row of rows) if (row.llm_payloads !== null) for (const place of placesOf(row.llm_payloads)) hashes.add(place[2]);
  const values = new Map<string, unknown>();
  const list = [...hashes];
  for (let i = 0; i < list.length; i += HASHES_PER_READ) {
    const found = await db
      .selectFrom('llm_payloads')
      .select(['hash', 'payload'])
      .where('project_id', '=', projectId)
      .where('hash', 'in', list.slice(i, i + HASHES_PER_READ))
      .execute();
    for (const { hash, payload } of found) values.set(hash, JSON.parse(payload) as unknown);
  }
  return values;
}

/** Hashes per read of `llm_payloads`. */
const HASHES_PER_READ = 500;

const placesOf = (places: string) => JSON.parse(places) as PayloadPlace[];

/**
 * An event's properties whole (parsed): the stack traces stored apart put back in its exceptions, and its LLM values
 * stored apart (`places`, its row's `llm_payloads`) put back in their places from `payloads` (see `payloadsOf`).
 */
export function wholeProperties(
  properties: string,
  stacks: string | null,
  places: string | null = null,
  payloads: ReadonlyMap<string, unknown> = new Map(),
): Record<string, unknown> {
  const parsed = JSON.parse(properties) as Record<string, unknown>;
  if (places !== null) {
    for (const [property, index, hash] of placesOf(places)) {
      if (!payloads.has(hash)) continue;
      const list = parsed[property];
      if (index === null) parsed[property] = payloads.get(hash);
      else if (Array.isArray(list) && index < list.length) list[index] = payloads.get(hash);
    }
  }
  if (stacks === null) return parsed;
  const list = parsed.$exception_list;
  const traces = JSON.parse(stacks) as unknown;
  if (!Array.isArray(list) || !Array.isArray(traces)) return parsed;
  list.forEach((exception: unknown, i) => {
    if (isObject(exception) && traces[i] !== null && traces[i] !== undefined) exception.stacktrace = traces[i];
  });
  return parsed;
}

/**
 * An exact match of one property, as events are filtered by: the property `key`'s value, in comparable form
 * (`comparable`), is one of `values` (a null among them matches a property that is absent or null).
 */
export interface PropertyMatch {
  key: string;
  values: (string | null)[];
}

export interface EventFilters {
  event?: string;
  distinctId?: string;
  /** ISO timestamps; `after` and `before` are exclusive. */
  after?: string;
  before?: string;
  /** ANDed. */
  properties?: PropertyMatch[];
}

/** SQL reading events. */
export const eventStore = {
  /**
   * A page of a project's events, newest first: at most `limit` of them, and no more once their stored text
   * reaches `maxBytes` (one at least). Sizes are read first, so rows past the budget are never loaded.
   */
  async page(db: Executor, dialect: Dialect, projectId: number, filters: EventFilters, limit: number, offset: number, maxBytes: number) {
    let query = db.selectFrom('events as e').where('e.project_id', '=', projectId);
    if (filters.event !== undefined) query = query.where('e.event', '=', filters.event);
    if (filters.distinctId !== undefined) query = query.where('e.distinct_id', '=', filters.distinctId);
    if (filters.after !== undefined) query = query.where('e.timestamp', '>', filters.after);
    if (filters.before !== undefined) query = query.where('e.timestamp', '<', filters.before);
    for (const match of filters.properties ?? []) {
      for (const maybe of textMayMatch('e.properties', match)) query = query.where(maybe);
      query = query.where(valueIn(comparableOf(jsonTextAt(dialect, 'e.properties', [match.key])), match));
    }
    return countThenPage(query, limit, offset, async (page) => {
      const sizes = await page
        .leftJoin('exception_stacks as l', (join) => join.on(stacksOfEvent))
        .select(['e.id', sql<number>`${wholeBytes} + octet_length(e.event) + octet_length(e.distinct_id)`.as('bytes')])
        .orderBy('e.timestamp', 'desc')
        .orderBy('e.id', 'desc')
        .execute();
      return rowsWithinBytes(sizes, maxBytes, (ids) =>
        db
          .selectFrom('events as e')
          .leftJoin('exception_stacks as l', (join) => join.on(stacksOfEvent))
          .select(['e.uuid', 'e.event', 'e.distinct_id', 'e.properties', 'l.stacks', 'e.llm_payloads', 'e.timestamp'])
          .where('e.id', 'in', ids)
          .orderBy('e.timestamp', 'desc')
          .orderBy('e.id', 'desc')
          .execute(),
      );
    });
  },
};

/**
 * The distinct event names of a project, sorted (by the database), at most `limit`: a walk from one name to the next along the
 * (project_id, event, timestamp) index, one seek per name, however many events each has.
 */
export async function eventNames(db: Executor, projectId: number, limit: number): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    with recursive names(name, n) as (
      select (select min(event) from events where project_id = ${projectId}), 1
      union all
      select (select min(event) from events where project_id = ${projectId} and event > names.name), n + 1
      from names where names.name is not null and n < ${limit}
    )
    select name from names where name is not null`.execute(db);
  return rows.map((r) => r.name);
}

/** What `eventCounts` counts: one event's occurrences in a time range, optionally only those with given property values. */
export interface CountFilters {
  event: string;
  /** ISO timestamps: from `after` (inclusive) to `before` (exclusive). */
  after: string;
  before: string;
  /** How many leading characters of the stored timestamp name its bucket: 10 (a UTC day) or 13 (a UTC hour). */
  bucketChars: 10 | 13;
  /** ANDed. */
  properties: PropertyMatch[];
}

/**
 * A property value in the form counts compare and group by: the JSON text of the value's text, so that `true` and
 * `"true"`, `3` and `"3"` are one value. Objects and arrays keep their own JSON text; absent and null are null.
 */
export const comparable = (text: string | null) => (text === null ? null : JSON.stringify(text));

/** The series key of values outside the largest series: it cannot be a comparable value (which starts with `"`, `{` or `[`). */
export const OTHER_KEY = '*other';

/** `comparable` in SQL, of a property's raw JSON text (see `jsonTextAt`). */
const comparableOf = (c: Expression<string | null>) =>
  sql<string | null>`(case substr(${c}, 1, 1) when '"' then ${c} when '{' then ${c} when '[' then ${c} when 'n' then null else '"' || ${c} || '"' end)`;

/** A comparable value (see `comparableOf`) is one of a property match's values. */
function valueIn(value: Expression<string | null>, { values }: PropertyMatch) {
  const texts = values.filter((v): v is string => v !== null);
  const parts = [
    ...(texts.length ? [sql<boolean>`${value} in (${sql.join(texts)})`] : []),
    ...(texts.length < values.length ? [sql<boolean>`${value} is null`] : []),
  ];
  return sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

/**
 * The matching events, one row each: `bucket`, the raw JSON of the breakdown property (`b`) and of each filtered
 * property (`f0`, `f1`, …). A fence (offset 0) keeps each property read once per event, not once per use.
 */
function matching(dialect: Dialect, projectId: number, filters: CountFilters, breakdown: string | undefined) {
  const columns = [
    sql`substr(${sql.ref('timestamp')}, 1, ${sql.lit(filters.bucketChars)}) as bucket`,
    ...(breakdown === undefined ? [] : [sql`${jsonTextAt(dialect, 'properties', [breakdown])} as b`]),
    ...filters.properties.map((p, i) => sql`${jsonTextAt(dialect, 'properties', [p.key])} as ${sql.ref(`f${i}`)}`),
  ];
  const fence = dialect === 'postgres' ? sql`offset 0` : sql`limit -1 offset 0`;
  return sql`(select ${sql.join(columns)} from events
    where project_id = ${projectId} and event = ${filters.event} and ${sql.ref('timestamp')} >= ${filters.after} and ${sql.ref('timestamp')} < ${filters.before}
    ${sql.join(
      filters.properties.flatMap((match) => textMayMatch('properties', match).map((maybe) => sql`and ${maybe}`)),
      sql` `,
    )}
    ${fence}) as m`;
}

/**
 * A cheap first test of a property filter on the stored text, before any JSON is read: properties are stored as
 * JSON.stringify writes them, so a top-level property with one of the values reads `"key":"value"` or `"key":value`
 * in it (the exact test follows on the JSON). None when the filter also takes an absent property.
 */
function textMayMatch(column: string, { key, values }: PropertyMatch) {
  if (values.includes(null)) return [];
  const name = `${JSON.stringify(key)}:`;
  const patterns = values.flatMap((value) => [containsPattern(`${name}${value}`), containsPattern(`${name}${JSON.parse(value!) as string}`)]);
  return [
    sql<boolean>`(${sql.join(
      patterns.map((pattern) => sql`${sql.ref(column)} like ${pattern} escape '\\'`),
      sql` or `,
    )})`,
  ];
}

/** The property filters on `matching`'s columns, ANDed. */
function propertyConditions(filters: CountFilters) {
  const conditions = filters.properties.map((p, i) => valueIn(comparableOf(sql.ref(`m.f${i}`)), p));
  return conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
}

/** Counts for charts (see `eventCounts`). */
export const eventCounts = {
  /** Matching events per bucket. */
  async perBucket(db: Executor, dialect: Dialect, projectId: number, filters: CountFilters) {
    const { rows } = await sql<{ bucket: string; n: number | string }>`
      select m.bucket as bucket, count(*) as n from ${matching(dialect, projectId, filters, undefined)} ${propertyConditions(filters)}
      group by 1`.execute(db);
    return rows.map((r) => ({ bucket: r.bucket, n: Number(r.n) }));
  },

  /**
   * The `limit` breakdown values (comparable form) with the most matching events, most first; ties in null-first,
   * then byte order, alike on both databases.
   */
  async topValues(db: Executor, dialect: Dialect, projectId: number, filters: CountFilters, breakdown: string, limit: number) {
    const order = dialect === 'postgres' ? sql`t.v collate "C"` : sql`t.v`;
    const { rows } = await sql<{ v: string | null; n: number | string }>`
      select t.v as v, t.n as n from (
        select ${comparableOf(sql.ref('m.b'))} as v, count(*) as n from ${matching(dialect, projectId, filters, breakdown)} ${propertyConditions(filters)}
        group by 1
      ) as t
      order by t.n desc, (t.v is null) desc, ${order} limit ${sql.lit(limit)}`.execute(db);
    return rows.map((r) => ({ v: r.v, n: Number(r.n) }));
  },

  /**
   * Matching events per bucket and breakdown value (comparable form), at most `maxRows` rows (in no order). With
   * `top`, values not in it are counted under `OTHER_KEY` (null too, unless `top.null`).
   */
  async perBucketAndValue(
    db: Executor,
    dialect: Dialect,
    projectId: number,
    filters: CountFilters,
    breakdown: string,
    top?: { values: string[]; null: boolean },
    maxRows?: number,
  ) {
    const value = comparableOf(sql.ref('m.b'));
    const series = top
      ? sql`case when ${value} is null then ${top.null ? sql`null` : sql.lit(OTHER_KEY)} when ${top.values.length ? sql`${value} in (${sql.join(top.values)})` : sql`1 = 0`} then ${value} else ${sql.lit(OTHER_KEY)} end`
      : value;
    const { rows } = await sql<{ bucket: string; v: string | null; n: number | string }>`
      select m.bucket as bucket, ${series} as v, count(*) as n from ${matching(dialect, projectId, filters, breakdown)} ${propertyConditions(filters)}
      group by 1, 2 ${maxRows === undefined ? sql`` : sql`limit ${sql.lit(maxRows)}`}`.execute(db);
    return rows.map((r) => ({ bucket: r.bucket, v: r.v, n: Number(r.n) }));
  },
};
