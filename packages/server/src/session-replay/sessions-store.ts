import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../db/database';
import { comparableJson, jsonTextAt } from '../db/json-text';
import { containsIgnoringCase } from '../db/like';
import { countThenPage, type Page } from '../db/page';
import type { Executor } from '../db/schema';

/** The filters of the recordings list, checked (times as stored: ISO 8601 UTC). */
export interface SessionFilters {
  /** The person's internal id (their distinct ids' sessions too, whether or not ingest has named the person yet). */
  personId?: number | undefined;
  distinctId?: string | undefined;
  /** Start time from (inclusive) and to (exclusive). */
  from?: string | undefined;
  to?: string | undefined;
  /** Duration in seconds, inclusive bounds. */
  durationMin?: number | undefined;
  durationMax?: number | undefined;
  hasErrors?: boolean | undefined;
  /** A substring of a URL visited, ignoring case. */
  url?: string | undefined;
  /** An event of the session had `$feature/<flag>` = `value` (a variant, or `true` for a boolean flag on). */
  flag?: { key: string; value: string | undefined } | undefined;
}

/** A session's duration in seconds, in SQL. */
function durationSeconds(dialect: Dialect) {
  return dialect === 'postgres'
    ? sql<number>`extract(epoch from (cast(s.end_time as timestamptz) - cast(s.start_time as timestamptz)))`
    : sql<number>`((julianday(s.end_time) - julianday(s.start_time)) * 86400.0)`;
}

/** The person of a session row `s`: the one ingest named, else the one its distinct id belongs to now. */
const personOfSession = sql<number | null>`coalesce(s.person_id, (select pdi.person_id from person_distinct_ids pdi
  where pdi.project_id = s.project_id and pdi.distinct_id = s.distinct_id))`;

function conditions(dialect: Dialect, f: SessionFilters): Expression<SqlBool>[] {
  const parts: Expression<SqlBool>[] = [];
  if (f.personId !== undefined) parts.push(sql<SqlBool>`${personOfSession} = ${f.personId}`);
  if (f.distinctId !== undefined) parts.push(sql<SqlBool>`s.distinct_id = ${f.distinctId}`);
  if (f.from !== undefined) parts.push(sql<SqlBool>`s.start_time >= ${f.from}`);
  if (f.to !== undefined) parts.push(sql<SqlBool>`s.start_time < ${f.to}`);
  if (f.durationMin !== undefined) parts.push(sql<SqlBool>`${durationSeconds(dialect)} >= ${f.durationMin}`);
  if (f.durationMax !== undefined) parts.push(sql<SqlBool>`${durationSeconds(dialect)} <= ${f.durationMax}`);
  if (f.hasErrors === true) parts.push(sql<SqlBool>`s.exception_count + s.console_error_count > 0`);
  if (f.hasErrors === false) parts.push(sql<SqlBool>`s.exception_count + s.console_error_count = 0`);
  if (f.url !== undefined) {
    parts.push(sql<SqlBool>`exists (select 1 from replay_session_urls u
      where u.project_id = s.project_id and u.session_id = s.session_id and ${containsIgnoringCase('u.url', f.url)})`);
  }
  if (f.flag !== undefined) {
    const value = comparableJson(jsonTextAt(dialect, 'e.properties', [`$feature/${f.flag.key}`]));
    const matches = f.flag.value === undefined ? sql`${value} is not null and ${value} <> '"false"'` : sql`${value} = ${JSON.stringify(f.flag.value)}`;
    parts.push(sql<SqlBool>`exists (select 1 from events e where e.project_id = s.project_id and e.session_id = s.session_id and ${matches})`);
  }
  return parts;
}

/** What the list and a recording show of a session row. */
const COLUMNS = [
  's.session_id',
  's.distinct_id',
  's.start_time',
  's.end_time',
  's.start_url',
  's.active_ms',
  's.click_count',
  's.keypress_count',
  's.console_log_count',
  's.console_warn_count',
  's.console_error_count',
  's.exception_count',
  's.event_count',
  's.size_bytes',
  's.skipped_count',
  's.block_count',
  's.updated_at',
] as const;

export const sessionsStore = {
  /** A page of the project's recordings (sessions with snapshots) within the filters, newest first. */
  async page(db: Executor, dialect: Dialect, projectId: number, filters: SessionFilters, limit: number, offset: number) {
    const filtered = db
      .selectFrom('replay_sessions as s')
      .where('s.project_id', '=', projectId)
      .where('s.start_time', 'is not', null)
      .where((eb) => eb.and(conditions(dialect, filters)));
    return countThenPage(filtered, limit, offset, (page) =>
      page
        .select([...COLUMNS, personOfSession.as('person')])
        .orderBy('s.start_time', 'desc')
        .orderBy('s.session_id')
        .execute(),
    );
  },

  /** A recorded session (one with snapshots). */
  get(db: Executor, projectId: number, sessionId: string) {
    return db
      .selectFrom('replay_sessions as s')
      .select([...COLUMNS, personOfSession.as('person')])
      .where('s.project_id', '=', projectId)
      .where('s.session_id', '=', sessionId)
      .where('s.start_time', 'is not', null)
      .executeTakeFirst();
  },

  async urls(db: Executor, projectId: number, sessionId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('replay_session_urls')
      .select('url')
      .where('project_id', '=', projectId)
      .where('session_id', '=', sessionId)
      .orderBy('url')
      .execute();
    return rows.map((row) => row.url);
  },

  /** The persons of some sessions, with at most `maxDistinctIds` of each one's distinct ids. */
  async persons(db: Executor, projectId: number, ids: number[], maxDistinctIds: number) {
    if (!ids.length) return [];
    const persons = await db.selectFrom('persons').select(['id', 'uuid', 'properties']).where('project_id', '=', projectId).where('id', 'in', ids).execute();
    const distinctIds = await db
      .selectFrom('person_distinct_ids')
      .select(['person_id', 'distinct_id'])
      .where('project_id', '=', projectId)
      .where('person_id', 'in', ids)
      .orderBy('distinct_id')
      .execute();
    return persons.map((person) => ({
      ...person,
      distinct_ids: distinctIds
        .filter((row) => row.person_id === person.id)
        .slice(0, maxDistinctIds)
        .map((row) => row.distinct_id),
    }));
  },

  /** The person with this uuid (as the persons API names people). */
  async personIdOf(db: Executor, projectId: number, uuid: string): Promise<number | undefined> {
    return (await db.selectFrom('persons').select('id').where('project_id', '=', projectId).where('uuid', '=', uuid).executeTakeFirst())?.id;
  },

  /** The session's events, in time order, with the few properties a timeline shows (read in SQL, never whole). */
  events(db: Executor, dialect: Dialect, projectId: number, sessionId: string, limit: number) {
    const at = (key: string) => jsonTextAt(dialect, 'events.properties', [key]);
    return db
      .selectFrom('events')
      .select([
        'uuid',
        'event',
        'timestamp',
        at('$current_url').as('current_url'),
        at('$pathname').as('pathname'),
        at('$event_type').as('event_type'),
        at('$el_text').as('el_text'),
        at('$exception_types').as('exception_types'),
        at('$exception_message').as('exception_message'),
        at('$exception_list').as('exception_list'),
      ])
      .where('project_id', '=', projectId)
      .where('session_id', '=', sessionId)
      .orderBy('timestamp')
      .orderBy('id')
      .limit(limit)
      .execute();
  },
};

export type SessionRow = Awaited<ReturnType<typeof sessionsStore.get>> & object;
export type { Page };
