import { sql, type Insertable } from 'kysely';
import type { Dialect } from '../db/database';
import { countThenPage, rowsWithinBytes } from '../db/page';
import type { EventTable, Executor } from '../db/schema';

export type NewEvent = Omit<Insertable<EventTable>, 'id'>;

export interface EventFilters {
  event?: string;
  distinctId?: string;
  /** ISO timestamps; `after` and `before` are exclusive. */
  after?: string;
  before?: string;
}

/** Rows per SQLite INSERT: 7 parameters each stays far below SQLite's parameter limit. */
const CHUNK = 500;

function insertValues(db: Executor, rows: NewEvent[]) {
  return db
    .insertInto('events')
    .values(rows)
    .onConflict((oc) => oc.columns(['project_id', 'uuid']).doNothing())
    .returning('uuid')
    .execute();
}

/** PostgreSQL: the rows as one JSON parameter, cheaper to send, parse and plan than 7 parameters per row. */
async function insertRecordset(db: Executor, rows: NewEvent[]) {
  const { rows: result } = await sql<{ uuid: string }>`
    insert into events (project_id, uuid, event, distinct_id, properties, timestamp, created_at)
    select project_id, uuid, event, distinct_id, properties, timestamp, created_at
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as r(project_id int, uuid text, event text, distinct_id text, properties text, timestamp text, created_at text)
    on conflict (project_id, uuid) do nothing
    returning uuid`.execute(db);
  return result;
}

/** SQL for events. */
export const eventStore = {
  /**
   * Inserts the rows, skipping any whose uuid the project already has (or that repeats one earlier in
   * `rows`); returns the uuids actually inserted.
   */
  async insert(db: Executor, dialect: Dialect, rows: NewEvent[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    // PostgreSQL takes any number of rows in one statement; SQLite in chunks.
    const size = dialect === 'postgres' ? Math.max(rows.length, 1) : CHUNK;
    for (let i = 0; i < rows.length; i += size) {
      const chunk = rows.slice(i, i + size);
      const result = dialect === 'postgres' ? await insertRecordset(db, chunk) : await insertValues(db, chunk);
      for (const { uuid } of result) inserted.add(uuid);
    }
    return inserted;
  },

  /**
   * A page of a project's events, newest first: at most `limit` of them, and no more once their stored text
   * reaches `maxBytes` (one at least). Sizes are read first, so rows past the budget are never loaded.
   */
  async page(db: Executor, projectId: number, filters: EventFilters, limit: number, offset: number, maxBytes: number) {
    let query = db.selectFrom('events').where('project_id', '=', projectId);
    if (filters.event !== undefined) query = query.where('event', '=', filters.event);
    if (filters.distinctId !== undefined) query = query.where('distinct_id', '=', filters.distinctId);
    if (filters.after !== undefined) query = query.where('timestamp', '>', filters.after);
    if (filters.before !== undefined) query = query.where('timestamp', '<', filters.before);
    return countThenPage(query, limit, offset, async (page) => {
      const sizes = await page
        .select(['id', sql<number>`octet_length(properties) + octet_length(event) + octet_length(distinct_id)`.as('bytes')])
        .orderBy('timestamp', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rowsWithinBytes(sizes, maxBytes, (ids) =>
        db
          .selectFrom('events')
          .select(['uuid', 'event', 'distinct_id', 'properties', 'timestamp'])
          .where('id', 'in', ids)
          .orderBy('timestamp', 'desc')
          .orderBy('id', 'desc')
          .execute(),
      );
    });
  },
};
