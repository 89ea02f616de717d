import { sql, type Insertable } from 'kysely';
import type { Dialect } from '../db/database';
import type { LlmPayloadTable } from '../db/llm-schema';
import type { EventTable, ExceptionStacksTable, Executor } from '../db/schema';

export type NewEvent = Omit<Insertable<EventTable>, 'id'>;
export type NewExceptionStacks = Insertable<ExceptionStacksTable>;
export type NewLlmPayload = Insertable<LlmPayloadTable>;

/**
 * An event's stack traces as stored: the JSON list of each exception's `stacktrace` (null for one without), once per
 * project and distinct stacks (`exception_stacks`), named by `hash` in the rows of the events that sent them. How
 * reads put them back: `events/store.ts`.
 */
export interface StoredStacks {
  hash: string;
  json: string;
  /** The bytes they add to their event's properties when put back in: `,"stacktrace":` and each stack. */
  bytes: number;
}

/**
 * An LLM event's large inputs and outputs as stored: each value (or message of a list) once per project and distinct
 * JSON (`llm_payloads`), named by its hash where it was in the event's properties. How reads put them back:
 * `events/store.ts`.
 */
export interface StoredPayloads {
  /** Where each value stored apart was, as the event's row names them: JSON list of `[property, index in its list or null, hash]`. */
  places: string;
  /** The values stored apart: each one's hash and JSON. */
  values: { hash: string; json: string }[];
  /** The bytes they add to their event's properties when put back in (each value's JSON in place of its hash's). */
  bytes: number;
}

/** A value's place, as `llm_payloads` on its event names it: its property, its index in that property's list (null: the whole value) and its hash. */
export type PayloadPlace = [property: string, index: number | null, hash: string];

/** Rows per SQLite INSERT: 11 parameters each stays far below SQLite's parameter limit. */
const CHUNK = 500;
/** Rows per INSERT of `llm_payloads`. */
const PAYLOADS_PER_INSERT = 50;

function insertValues(db: Executor, rows: NewEvent[]) {
  return db
    .insertInto('events')
    .values(rows)
    .onConflict((oc) => oc.columns(['project_id', 'uuid']).doNothing())
    .returning('uuid')
    .execute();
}

/** PostgreSQL: the rows as one JSON parameter, cheaper to send, parse and plan than 11 parameters per row. */
async function insertRecordset(db: Executor, rows: NewEvent[]) {
  const { rows: result } = await sql<{ uuid: string }>`
    insert into events (project_id, uuid, event, distinct_id, properties, timestamp, created_at, exception_stacks, session_id, llm_payloads,
      llm_payload_bytes)
    select project_id, uuid, event, distinct_id, properties, timestamp, created_at, exception_stacks, session_id, llm_payloads, llm_payload_bytes
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as r(project_id int, uuid text, event text, distinct_id text, properties text, timestamp text, created_at text, exception_stacks text,
        session_id text, llm_payloads text, llm_payload_bytes bigint)
    on conflict (project_id, uuid) do nothing
    returning uuid`.execute(db);
  return result;
}

/** SQL storing events. */
export const eventWrites = {
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

  /** Stores the stack traces their events name, each once: stacks the project has already are left as they are. */
  async insertStacks(db: Executor, stacks: NewExceptionStacks[]) {
    for (let i = 0; i < stacks.length; i += CHUNK) {
      await db
        .insertInto('exception_stacks')
        .values(stacks.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['project_id', 'hash']).doNothing())
        .execute();
    }
  },

  /** Stores the LLM inputs and outputs their events name, each once: values the project has already are left as they are. */
  async insertPayloads(db: Executor, payloads: NewLlmPayload[]) {
    // A few values a statement: each may be megabytes.
    for (let i = 0; i < payloads.length; i += PAYLOADS_PER_INSERT) {
      await db
        .insertInto('llm_payloads')
        .values(payloads.slice(i, i + PAYLOADS_PER_INSERT))
        .onConflict((oc) => oc.columns(['project_id', 'hash']).doNothing())
        .execute();
    }
  },
};
