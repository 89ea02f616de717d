import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/database';
import { comparableJson, jsonTextAt } from '../db/json-text';
import type { Database } from '../db/schema';

/**
 * SQL aggregates of a survey's results, alike on SQLite and PostgreSQL: the events and responses are counted, grouped
 * and paged in the database, never loaded whole. Every statement reads one survey's rows (by its index) under the
 * same filters: a time range, a current property of the person, a flag's value at the event.
 */

/** What results are read of: one survey's rows, within the filters given. */
export interface ResultsFilter {
  projectId: number;
  surveyId: string;
  /** ISO times as stored: from (inclusive), to (exclusive). */
  from?: string | undefined;
  to?: string | undefined;
  /** The person's current property `key` is `value` (compared as text: `3` and `"3"` are one value). */
  property?: { key: string; value: string } | undefined;
  /** The event's `$feature/<flag>` was `value` (a variant, or `true`/`false`). */
  variant?: { flag: string; value: string } | undefined;
}

/** The filters of a table aliased `t` (survey_events or survey_responses), whose time is `time`. */
function filtered(dialect: Dialect, f: ResultsFilter, time: 'timestamp' | 'last_at') {
  const parts = [sql`t.project_id = ${f.projectId}`, sql`t.survey_id = ${f.surveyId}`];
  if (f.from !== undefined) parts.push(sql`t.${sql.ref(time)} >= ${f.from}`);
  if (f.to !== undefined) parts.push(sql`t.${sql.ref(time)} < ${f.to}`);
  if (f.variant) parts.push(sql`${comparableJson(jsonTextAt(dialect, 't.flags', [f.variant.flag]))} = ${JSON.stringify(f.variant.value)}`);
  if (f.property) {
    parts.push(sql`exists (select 1 from person_distinct_ids pdi join persons p on p.id = pdi.person_id
      where pdi.project_id = t.project_id and pdi.distinct_id = t.distinct_id
      and ${comparableJson(jsonTextAt(dialect, 'p.properties', [f.property.key]))} = ${JSON.stringify(f.property.value)})`);
  }
  return sql.join(parts, sql` and `);
}

/** The answer to question `id` of a response row `t`: its raw JSON text, or null. */
const answerAt = (dialect: Dialect, id: string) => jsonTextAt(dialect, 't.answers', [id]);

/** The items of an answer (a list's, or the answer itself) as a table `j` with the column `j.value`, for a correlated read of `t`. */
function itemsOf(dialect: Dialect, id: string) {
  if (dialect === 'postgres') {
    const at = sql`(t.answers::json -> cast(${id} as text))`;
    return sql`json_array_elements_text(case when json_typeof(${at}) = 'array' then ${at} else json_build_array(${at}) end) as j(value)`;
  }
  return sql`json_each(t.answers, ${`$."${id.replace(/["\\]/g, '\\$&')}"`}) as j`;
}
/** An item's text (SQLite's json_each gives numbers as numbers). */
const itemText = (dialect: Dialect) => (dialect === 'postgres' ? sql<string>`j.value` : sql<string>`cast(j.value as text)`);
const crossJoin = (dialect: Dialect) => (dialect === 'postgres' ? sql`cross join lateral` : sql`cross join`);

/** The person (unit) of a row: its person's id, or, without a person row, its distinct id. */
const unitOf = sql`coalesce('p' || cast(pdi.person_id as text), 'd' || t.distinct_id)`;
const personJoin = sql`left join person_distinct_ids pdi on pdi.project_id = t.project_id and pdi.distinct_id = t.distinct_id`;

const num = (v: number | string | null | undefined) => Number(v ?? 0);

/** An open answer as a page lists it. */
export interface AnswerRow {
  value: string;
  distinct_id: string;
  person_id: string | null;
  timestamp: string;
  submission_id: string;
}

export const resultsStore = {
  /** Whether any event or response names the survey (an unknown survey's are kept). */
  async anyStored(db: Kysely<Database>, projectId: number, surveyId: string): Promise<boolean> {
    const found = await db
      .selectFrom('survey_events')
      .select('id')
      .where('project_id', '=', projectId)
      .where('survey_id', '=', surveyId)
      .union(db.selectFrom('survey_responses').select('id').where('project_id', '=', projectId).where('survey_id', '=', surveyId))
      .limit(1)
      .execute();
    return found.length > 0;
  },

  /** Shown, dismissed and abandoned events per UTC day. */
  async eventsByDay(db: Kysely<Database>, dialect: Dialect, f: ResultsFilter) {
    const { rows } = await sql<{ day: string; kind: string; n: number | string }>`
      select substr(t.timestamp, 1, 10) as day, t.kind as kind, count(*) as n from survey_events t
      where ${filtered(dialect, f, 'timestamp')} and t.kind in ('shown', 'dismissed', 'abandoned')
      group by substr(t.timestamp, 1, 10), t.kind`.execute(db);
    return rows.map((r) => ({ day: r.day, kind: r.kind, n: num(r.n) }));
  },

  /** Completed responses per UTC day of their last event. */
  async sentByDay(db: Kysely<Database>, dialect: Dialect, f: ResultsFilter) {
    const { rows } = await sql<{ day: string; n: number | string }>`
      select substr(t.last_at, 1, 10) as day, count(*) as n from survey_responses t
      where ${filtered(dialect, f, 'last_at')} and t.completed = 1 group by substr(t.last_at, 1, 10)`.execute(db);
    return rows.map((r) => ({ day: r.day, n: num(r.n) }));
  },

  /** Responses not completed, and responses stored while the survey did not run. */
  async responseTotals(db: Kysely<Database>, dialect: Dialect, f: ResultsFilter) {
    const { rows } = await sql<{ partial: number | string | null; late: number | string | null }>`
      select sum(case when t.completed = 0 then 1 else 0 end) as partial, sum(t.late) as late from survey_responses t
      where ${filtered(dialect, f, 'last_at')}`.execute(db);
    return { partial: num(rows[0]?.partial), late: num(rows[0]?.late) };
  },

  /** People shown the survey, and those of them who completed a response. */
  async reach(db: Kysely<Database>, dialect: Dialect, f: ResultsFilter) {
    const { rows } = await sql<{ shown: number | string; responded: number | string }>`
      with shown as (select distinct ${unitOf} as unit from survey_events t ${personJoin}
        where ${filtered(dialect, f, 'timestamp')} and t.kind = 'shown'),
      sent as (select distinct ${unitOf} as unit from survey_responses t ${personJoin}
        where ${filtered(dialect, f, 'last_at')} and t.completed = 1)
      select (select count(*) from shown) as shown,
        (select count(*) from (select unit from shown intersect select unit from sent) x) as responded`.execute(db);
    return { shown: num(rows[0]?.shown), responded: num(rows[0]?.responded) };
  },

  /** Responses that answer each question, by question id. */
  async answered(db: Kysely<Database>, dialect: Dialect, f: ResultsFilter): Promise<Map<string, number>> {
    const each = dialect === 'postgres' ? sql`json_each(t.answers::json) as k` : sql`json_each(t.answers) as k`;
    const { rows } = await sql<{ id: string; n: number | string }>`
      select k.key as id, count(*) as n from survey_responses t ${crossJoin(dialect)} ${each}
      where ${filtered(dialect, f, 'last_at')} group by k.key`.execute(db);
    return new Map(rows.map((r) => [r.id, num(r.n)]));
  },

  /**
   * How many responses answered question `id` with each item (a list answer counts once per item): only the items
   * of `within` when given, else the `limit` most frequent items not in `without`.
   */
  async itemCounts(
    db: Kysely<Database>,
    dialect: Dialect,
    f: ResultsFilter,
    id: string,
    select: { within: string[] } | { without: string[]; limit: number },
  ): Promise<{ value: string; n: number }[]> {
    const text = itemText(dialect);
    let which = sql`${text} is not null`;
    if ('within' in select) {
      if (!select.within.length) return [];
      which = sql`${text} in (${sql.join(select.within)})`;
    } else if (select.without.length) which = sql`${text} is not null and ${text} not in (${sql.join(select.without)})`;
    const { rows } = await sql<{ value: string; n: number | string }>`
      select ${text} as value, count(*) as n from survey_responses t ${crossJoin(dialect)} ${itemsOf(dialect, id)}
      where ${filtered(dialect, f, 'last_at')} and ${which}
      group by ${text} order by count(*) desc, ${text} ${'within' in select ? sql`` : sql`limit ${select.limit}`}`.execute(db);
    return rows.map((r) => ({ value: String(r.value), n: num(r.n) }));
  },

  /**
   * A page of the answers to question `id`, newest first, with their person; with `otherThan`, only answers holding
   * an item that is none of them (an open choice's own text).
   */
  async answers(
    db: Kysely<Database>,
    dialect: Dialect,
    f: ResultsFilter,
    id: string,
    otherThan: string[] | undefined,
    limit: number,
    offset: number,
  ): Promise<{ count: number; rows: AnswerRow[] }> {
    const answer = answerAt(dialect, id);
    const other = otherThan
      ? sql`and exists (select 1 from ${itemsOf(dialect, id)} where ${itemText(dialect)} is not null
          ${otherThan.length ? sql`and ${itemText(dialect)} not in (${sql.join(otherThan)})` : sql``})`
      : sql``;
    const where = sql`${filtered(dialect, f, 'last_at')} and ${answer} is not null ${other}`;
    const { rows: counted } = await sql<{ n: number | string }>`select count(*) as n from survey_responses t where ${where}`.execute(db);
    const count = num(counted[0]?.n);
    if (!count || offset >= count) return { count, rows: [] };
    const { rows } = await sql<AnswerRow>`
      select ${answer} as value, t.distinct_id as distinct_id, p.uuid as person_id, t.last_at as timestamp, t.submission_id as submission_id
      from survey_responses t ${personJoin} left join persons p on p.id = pdi.person_id
      where ${where} order by t.last_at desc, t.id desc limit ${limit} offset ${offset}`.execute(db);
    return { count, rows };
  },
};
