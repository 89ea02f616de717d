import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../db/database';
import { jsonTextAt } from '../db/json-text';
import { containsPattern } from '../db/like';
import type { Database } from '../db/schema';

/**
 * SQL aggregates of an experiment's results, computed in the database: events are never loaded. One
 * statement per request reads the exposures once (a materialized CTE) and answers, per variant, the exposed people
 * and for every metric Σy and Σy² over them (y per person: 1/0 converted, an event count, or a property's sum), plus
 * the exposures per UTC day and variant.
 */

/** Where the exposures are: the flag's `$feature_flag_called` events, with one of `variants`, from `start` (inclusive) to `end` (exclusive). */
export interface ExposureSpec {
  projectId: number;
  flagKey: string;
  variants: string[];
  /** ISO timestamps as stored (`toISOString`). */
  start: string;
  end: string;
}

/** An exact property filter: the property's value (compared as text: `3` and `"3"` are one value); null matches absent or null; a list matches any of its values. */
export interface PropertyMatch {
  key: string;
  value: unknown;
}

/** What is summed per exposed person, over the metric `event`'s events (with `properties`) from their exposure on. */
export type MetricSpec =
  | {
      /** y = 1 when the person did the event within `windowSeconds` of exposure (inclusive of the exposure instant), else 0. */
      kind: 'conversion';
      event: string;
      properties: PropertyMatch[];
      windowSeconds: number;
    }
  | {
      /** y = the number of the person's events until `end` (exclusive), or the sum of the numeric `property` of them (non-numbers count 0). */
      kind: 'mean';
      event: string;
      property?: string;
      properties: PropertyMatch[];
      end: string;
    };

/** Per variant: exposed people, and per metric Σy and Σy² over them (people without events count y = 0). */
export interface VariantAggregate {
  key: string;
  exposures: number;
  metrics: { sum: number; sumSquares: number }[];
}

export interface ExperimentAggregates {
  variants: VariantAggregate[];
  /** People with exposures to more than one variant: excluded from everything else. */
  excludedMultipleVariants: number;
  /** First exposures per UTC day (`YYYY-MM-DD`) and variant, of the people not excluded. */
  byDay: { day: string; variant: string; exposures: number }[];
}

/** The unit of a distinct id: its person (`p<id>`), or, without a person row, the distinct id itself (`d<id>`). */
const unitOf = sql`coalesce('p' || cast(pdi.person_id as text), 'd' || e.distinct_id)`;
const personJoin = sql`left join person_distinct_ids pdi on pdi.project_id = e.project_id and pdi.distinct_id = e.distinct_id`;
/** Ends a subquery so that its columns are computed once per row, not once per use (see events/store.ts). */
const fence = (dialect: Dialect) => (dialect === 'postgres' ? sql`offset 0` : sql`limit -1 offset 0`);

/** A property value as JSON text, in the form filters compare (see `comparable` in events/store.ts): strings quoted, the rest as their text quoted. */
function comparableOf(column: RawBuilder<unknown>) {
  return sql<
    string | null
  >`(case substr(${column}, 1, 1) when '"' then ${column} when '{' then ${column} when '[' then ${column} when 'n' then null else '"' || ${column} || '"' end)`;
}

/** `comparable` of a filter value: the JSON text of its text (objects and lists keep their JSON); null for null. */
function comparableValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return JSON.stringify(String(value));
}

/** One filter on a fenced column: the comparable value is one of the wanted ones (a null among them: absent or null). */
function matchCondition(column: RawBuilder<unknown>, match: PropertyMatch) {
  const wanted = (Array.isArray(match.value) ? match.value : [match.value]).map(comparableValue);
  const texts = wanted.filter((v): v is string => v !== null);
  const value = comparableOf(column);
  const parts = [...(texts.length ? [sql`${value} in (${sql.join(texts)})`] : []), ...(texts.length < wanted.length ? [sql`${value} is null`] : [])];
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`1 = 0`;
}

/**
 * A first test on the stored text, before JSON is read (properties are stored as JSON.stringify writes them): the
 * property with one of its values appears as `"key":value` or `"key":"value"`. None when absent/null may match.
 */
function textMayMatch(match: PropertyMatch) {
  const values = Array.isArray(match.value) ? match.value : [match.value];
  if (!values.length || values.some((v) => v === null || v === undefined)) return sql``;
  const name = `${JSON.stringify(match.key)}:`;
  const patterns = [
    ...new Set(
      values.flatMap((v) => {
        const text = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
        return [containsPattern(`${name}${JSON.stringify(text)}`), containsPattern(`${name}${text}`)];
      }),
    ),
  ];
  return sql`and (${sql.join(
    patterns.map((p) => sql`e.properties like ${p} escape '\\'`),
    sql` or `,
  )})`;
}

/** ISO text of `column` (an ISO timestamp) plus `seconds` (bound), formatted as stored, alike on both databases. */
function plusSeconds(dialect: Dialect, column: RawBuilder<unknown>, seconds: number) {
  if (dialect === 'postgres') {
    return sql`to_char((cast(${column} as timestamptz) + make_interval(secs => ${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${column}, ${`+${seconds} seconds`})`;
}

/** The numeric value of a property's raw JSON text: JSON numbers only, anything else 0 (PostgreSQL: numeric, so sums never overflow). */
function numericOf(dialect: Dialect, column: RawBuilder<unknown>) {
  const type = dialect === 'postgres' ? sql`numeric` : sql`real`;
  return sql`(case when substr(${column}, 1, 1) in ('-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9') then cast(${column} as ${type}) else 0 end)`;
}

/** The SQL upper bound (exclusive) of a metric's events: the end (mean), or the latest end of a conversion window. */
const upperOf = (spec: ExposureSpec, metric: MetricSpec) => (metric.kind === 'mean' ? metric.end : addSeconds(spec.end, metric.windowSeconds));

/** An ISO time plus seconds, as stored (for bounds computed once, not per row). */
function addSeconds(time: string, seconds: number): string {
  const ms = Date.parse(time) + seconds * 1000;
  return new Date(Math.min(ms, 253402300799999)).toISOString();
}

/**
 * The metrics' CTE `per_unit`: one row per exposed unit with any metric event, `(unit, variant, nv, y0, y1, …)`.
 * Events are read once per event name (metrics on one event share the read), each property once. No join of events
 * with exposures (whose size the planner cannot estimate): exposures and events are one stream, and a window over
 * each unit hands its exposure to its events.
 */
function perUnitCte(dialect: Dialect, spec: ExposureSpec, metrics: MetricSpec[]) {
  const names = [...new Set(metrics.map((m) => m.event))];
  // Typed nulls: PostgreSQL gives a union's column the type of its first typed branch.
  const none = (i: number) => [sql`cast(null as numeric) as ${sql.ref(`v${i}`)}`, sql`0 as ${sql.ref(`c${i}`)}`];
  const reads = names.map((name) => {
    const on = metrics.map((m, i) => ({ m, i })).filter(({ m }) => m.event === name);
    // The properties read: each metric's value (a mean of a property) and filters, by distinct key.
    const keys = [
      ...new Set(on.flatMap(({ m }) => [...(m.kind === 'mean' && m.property !== undefined ? [m.property] : []), ...m.properties.map((f) => f.key)])),
    ];
    const column = (key: string) => sql.ref(`f.p${keys.indexOf(key)}`);
    const fenced = sql`(select ${sql.join([
      sql`${unitOf} as unit`,
      sql`e.timestamp as ts`,
      ...keys.map((key, j) => sql`${jsonTextAt(dialect, 'e.properties', [key])} as ${sql.ref(`p${j}`)}`),
    ])}
      from events e ${personJoin}
      where e.project_id = ${spec.projectId} and e.event = ${name} and e.timestamp >= ${spec.start}
      and e.timestamp < ${on.map(({ m }) => upperOf(spec, m)).reduce((a, b) => (a > b ? a : b))}
      ${on.length === 1 ? sql.join(on[0]!.m.properties.map(textMayMatch), sql` `) : sql``}
      ${fence(dialect)}) f`;
    const columns = metrics.flatMap((m, i) => {
      if (m.event !== name) return none(i);
      const value = m.kind === 'mean' && m.property !== undefined ? numericOf(dialect, column(m.property)) : sql`1`;
      const match = m.properties.length
        ? sql`case when ${sql.join(
            m.properties.map((p) => matchCondition(column(p.key), p)),
            sql` and `,
          )} then 1 else 0 end`
        : sql`1`;
      return [sql`${value} as ${sql.ref(`v${i}`)}`, sql`${match} as ${sql.ref(`c${i}`)}`];
    });
    return sql`select f.unit, 1, f.ts, null, null, null, ${sql.join(columns)} from ${fenced}`;
  });
  const ys = metrics.map((m, i) => {
    const counted = sql`w.${sql.ref(`c${i}`)} = 1`;
    if (m.kind === 'conversion') {
      return sql`max(case when ${counted} and w.ts < ${plusSeconds(dialect, sql.ref('w.t0'), m.windowSeconds)} then 1 else 0 end) as ${sql.ref(`y${i}`)}`;
    }
    return sql`sum(case when ${counted} and w.ts < ${m.end} then w.${sql.ref(`v${i}`)} else 0 end) as ${sql.ref(`y${i}`)}`;
  });
  const unit = sql`(partition by s.unit)`;
  const carried = metrics.flatMap((_, i) => [sql`s.${sql.ref(`v${i}`)} as ${sql.ref(`v${i}`)}`, sql`s.${sql.ref(`c${i}`)} as ${sql.ref(`c${i}`)}`]);
  return sql`per_unit as (
    select w.unit as unit, max(w.variant) as variant, max(w.nv) as nv, ${sql.join(ys)} from (
      select s.unit as unit, s.kind as kind, s.ts as ts, ${sql.join(carried)},
        max(s.t0) over ${unit} as t0, max(s.variant) over ${unit} as variant, max(s.nv) over ${unit} as nv
      from (
        select u.unit as unit, 0 as kind, u.t0 as ts, u.t0 as t0, u.variant as variant, u.nv as nv, ${sql.join(metrics.flatMap((_, i) => none(i)))} from units u
        ${sql.join(
          reads.map((read) => sql`union all ${read}`),
          sql` `,
        )}
      ) s
    ) w
    where w.kind = 1 and w.t0 is not null and w.ts >= w.t0
    group by w.unit)`;
}

interface AggregateRow {
  /** `v`: exposed people per variant (variant null: excluded); `d`: first exposures per day; `m`: the metrics' sums per variant. */
  kind: string;
  variant: string | null;
  day: string | null;
  n: number | string;
  [sums: `s${number}` | `q${number}`]: number | string | null;
}

/** The statement of `experimentAggregates`: rows `(kind, variant, day, n, s0, q0, s1, q1, …)` (see `AggregateRow`). */
export function aggregatesQuery(dialect: Dialect, spec: ExposureSpec, metrics: MetricSpec[]) {
  const variant = jsonTextAt(dialect, 'e.properties', ['$feature_flag_response']);
  const flag = jsonTextAt(dialect, 'e.properties', ['$feature_flag']);
  // The flag's exposure events (a text test first, then the JSON), each property read once.
  const exposures = sql`(select e.distinct_id as distinct_id, e.timestamp as ts, ${variant} as variant, ${flag} as flag from events e
      where e.project_id = ${spec.projectId} and e.event = ${'$feature_flag_called'} and e.timestamp >= ${spec.start} and e.timestamp < ${spec.end}
      and e.properties like ${containsPattern(`"$feature_flag":${JSON.stringify(spec.flagKey)}`)} escape '\\'
      ${fence(dialect)})`;
  // Per distinct id first (fewer rows to resolve to persons), then per person: first exposure, and the least and
  // greatest variant seen (they differ for people who saw several).
  const perDistinctId = sql`(select x.distinct_id as distinct_id, min(x.ts) as t0, min(x.variant) as v_min, max(x.variant) as v_max from ${exposures} x
      where x.flag = ${JSON.stringify(spec.flagKey)} and x.variant in (${sql.join(spec.variants.map((v) => JSON.stringify(v)))})
      group by x.distinct_id)`;
  const ctes = [
    sql`units as materialized (
      select coalesce('p' || cast(pdi.person_id as text), 'd' || d.distinct_id) as unit, min(d.t0) as t0, min(d.v_min) as variant,
        (case when min(d.v_min) = max(d.v_max) then 1 else 2 end) as nv
      from ${perDistinctId} d left join person_distinct_ids pdi on pdi.project_id = ${spec.projectId} and pdi.distinct_id = d.distinct_id
      group by 1)`,
    ...(metrics.length ? [perUnitCte(dialect, spec, metrics)] : []),
  ];
  const noSums = metrics.flatMap((_, i) => [sql`cast(null as numeric) as ${sql.ref(`s${i}`)}`, sql`cast(null as numeric) as ${sql.ref(`q${i}`)}`]);
  const sums = metrics.flatMap((_, i) => {
    const y = sql.ref(`m.y${i}`);
    return [sql`sum(${y}) as ${sql.ref(`s${i}`)}`, sql`sum(${y} * ${y}) as ${sql.ref(`q${i}`)}`];
  });
  const tail = (columns: RawBuilder<unknown>[]) => (columns.length ? sql`, ${sql.join(columns)}` : sql``);
  const perVariant = sql`case when u.nv > 1 then null else u.variant end`;
  return sql<AggregateRow>`with ${sql.join(ctes)}
    select 'v' as kind, ${perVariant} as variant, null as day, count(*) as n${tail(noSums)}
    from units u
    group by ${perVariant}
    union all
    select 'd' as kind, u.variant as variant, substr(u.t0, 1, 10) as day, count(*) as n${tail(noSums)}
    from units u where u.nv = 1
    group by u.variant, substr(u.t0, 1, 10)
    ${
      metrics.length
        ? sql`union all
    select 'm' as kind, m.variant as variant, null as day, count(*) as n${tail(sums)}
    from per_unit m where m.nv = 1
    group by m.variant`
        : sql``
    }`;
}

/** Runs the experiment's aggregates in one statement (see the module comment). */
export async function experimentAggregates(db: Kysely<Database>, dialect: Dialect, spec: ExposureSpec, metrics: MetricSpec[]): Promise<ExperimentAggregates> {
  if (!spec.variants.length) return { variants: [], excludedMultipleVariants: 0, byDay: [] };
  const query = aggregatesQuery(dialect, spec, metrics);
  // PostgreSQL cannot estimate how many rows pass the JSON tests (it guesses one), and with one row a nested loop
  // looks cheapest: for this statement, hash joins instead (the same plan whatever the estimates).
  const { rows } =
    dialect === 'postgres'
      ? await db.transaction().execute(async (trx) => {
          await sql`set local enable_nestloop = off`.execute(trx);
          return query.execute(trx);
        })
      : await query.execute(db);

  const keyOf = (json: string) => JSON.parse(json) as string;
  const exposed = new Map<string, number>();
  const sums = new Map<string, AggregateRow>();
  let excluded = 0;
  const byDay: ExperimentAggregates['byDay'] = [];
  for (const row of rows) {
    if (row.kind === 'd') byDay.push({ day: row.day!, variant: keyOf(row.variant!), exposures: Number(row.n) });
    else if (row.kind === 'v' && row.variant === null) excluded = Number(row.n);
    else if (row.kind === 'v') exposed.set(keyOf(row.variant!), Number(row.n));
    else sums.set(keyOf(row.variant!), row);
  }
  const variants = spec.variants.map((key) => ({
    key,
    exposures: exposed.get(key) ?? 0,
    metrics: metrics.map((_, i) => ({ sum: Number(sums.get(key)?.[`s${i}`] ?? 0), sumSquares: Number(sums.get(key)?.[`q${i}`] ?? 0) })),
  }));
  byDay.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  return { variants, excludedMultipleVariants: excluded, byDay };
}
