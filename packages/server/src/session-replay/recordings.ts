import { Readable } from 'node:stream';
import { recordActivity } from '../activity/service';
import type { Db } from '../db/database';
import { NotFoundError, ValidationError } from '../errors';
import type { Actor } from '../http/actor';
import { timeOf } from '../http/query-time';
import { sessionsStore, type SessionFilters, type SessionRow } from './sessions-store';

/** How a recording's session reads its rrweb events (the storage's `snapshots`) and forgets them (`deleteSession`). */
export interface SnapshotStorage {
  /** Each rrweb event's JSON once, in timestamp order: what is stored so far of a session still being recorded. */
  snapshots(projectId: number, sessionId: string): AsyncIterable<string>;
  /** Forgets the session: its blocks, their bytes, its metadata and URLs. */
  deleteSession(projectId: number, sessionId: string): Promise<unknown>;
}

/** The query of the recordings list, as sent. */
export interface RecordingsQuery {
  person_id?: string | undefined;
  distinct_id?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
  duration_min?: string | undefined;
  duration_max?: string | undefined;
  has_errors?: string | undefined;
  url?: string | undefined;
  flag?: string | undefined;
  variant?: string | undefined;
}

/** A session is ongoing while batches arrive: one came within this long. */
export const ONGOING_MS = 5 * 60 * 1000;
/** Events a timeline reads of a session at most. */
export const MAX_TIMELINE_EVENTS = 2000;
/** Distinct ids shown of a recording's person. */
const MAX_DISTINCT_IDS = 10;
/** The activity log's kind for a deleted recording (the item is the session id). */
export const RECORDING_ACTIVITY = 'SessionRecording';

export interface RecordingPerson {
  id: string;
  name: string | null;
  distinct_ids: string[];
}

export interface Recording {
  id: string;
  distinct_id: string;
  person: RecordingPerson | null;
  start_time: string;
  end_time: string;
  duration: number;
  active_seconds: number;
  click_count: number;
  keypress_count: number;
  console_log_count: number;
  console_warn_count: number;
  console_error_count: number;
  exception_count: number;
  start_url: string | null;
  event_count: number;
  size_bytes: number;
  ongoing: boolean;
}

const blank = (value: string | undefined) => value === undefined || value.trim() === '';

function secondsOf(value: string | undefined, attr: string): number | undefined {
  if (blank(value)) return undefined;
  const n = /^\d{1,9}(\.\d{1,3})?$/.test(value!.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new ValidationError('Enter a number of seconds (0 or more).', attr, 'invalid');
  return n;
}

/** A stored JSON text read back: a string's value, anything else as it is (null when absent or not valid JSON). */
function jsonValue(raw: string | null): unknown {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

/** The recordings of a project: listed with filters, read (metadata, snapshots, events), deleted. */
export class RecordingsService {
  constructor(
    private readonly db: Db,
    private readonly storage: SnapshotStorage,
  ) {}

  async list(projectId: number, query: RecordingsQuery, limit: number, offset: number, now = Date.now()) {
    const filters = await this.filtersOf(projectId, query, now);
    if (filters === null) return { count: 0, results: [] };
    const page = await sessionsStore.page(this.db.kysely, this.db.dialect, projectId, filters, limit, offset);
    return { count: page.count, results: await this.shown(projectId, page.rows, now) };
  }

  async get(projectId: number, sessionId: string, now = Date.now()) {
    const row = await this.row(projectId, sessionId);
    const [recording] = await this.shown(projectId, [row], now);
    return {
      ...recording!,
      urls: await sessionsStore.urls(this.db.kysely, projectId, sessionId),
      skipped_count: Number(row.skipped_count),
      block_count: Number(row.block_count),
    };
  }

  /**
   * The session's rrweb events as one JSON array, streamed as the storage yields them: the first frame goes out before
   * the rest is read. A session unknown (or another project's) is a 404 before anything is sent.
   */
  async snapshots(projectId: number, sessionId: string): Promise<Readable> {
    await this.row(projectId, sessionId);
    const events = this.storage.snapshots(projectId, sessionId);
    async function* array() {
      let first = true;
      for await (const event of events) {
        yield first ? `[${event}` : `,${event}`;
        first = false;
      }
      yield first ? '[]' : ']';
    }
    return Readable.from(array(), { objectMode: false });
  }

  /** The session's events for a timeline, in time order (at most `MAX_TIMELINE_EVENTS`). */
  async events(projectId: number, sessionId: string) {
    await this.row(projectId, sessionId);
    const rows = await sessionsStore.events(this.db.kysely, this.db.dialect, projectId, sessionId, MAX_TIMELINE_EVENTS);
    return {
      results: rows.map((row) => {
        const properties: Record<string, unknown> = {};
        const set = (key: string, raw: string | null) => {
          const value = jsonValue(raw);
          if (value !== null && value !== undefined) properties[key] = value;
        };
        set('$current_url', row.current_url);
        set('$pathname', row.pathname);
        set('$event_type', row.event_type);
        set('$el_text', row.el_text);
        set('$exception_types', row.exception_types);
        set('$exception_message', row.exception_message);
        // posthog-js names an exception's types and message in its list; older clients sent them alone.
        const list = jsonValue(row.exception_list);
        if (Array.isArray(list) && list.length) {
          const items = list.filter((item): item is { type?: unknown; value?: unknown } => typeof item === 'object' && item !== null);
          properties.$exception_types ??= items.map((item) => item.type).filter((type) => typeof type === 'string');
          const message = items[0]?.value;
          if (typeof message === 'string') properties.$exception_message ??= message;
        }
        return { uuid: row.uuid, event: row.event, timestamp: row.timestamp, properties };
      }),
    };
  }

  /** Deletes the session's recording (its blocks and their bytes, its metadata and URLs), logged in the activity log. */
  async delete(projectId: number, sessionId: string, actor: Actor) {
    await this.row(projectId, sessionId);
    await this.storage.deleteSession(projectId, sessionId);
    await recordActivity(this.db.kysely, actor, {
      projectId,
      scope: RECORDING_ACTIVITY,
      itemId: sessionId,
      activity: 'deleted',
      name: sessionId,
      changes: null,
    });
  }

  private async row(projectId: number, sessionId: string): Promise<SessionRow> {
    const row = await sessionsStore.get(this.db.kysely, projectId, sessionId);
    if (!row) throw new NotFoundError('No such recording.');
    return row;
  }

  /** The filters of a query, checked (400 naming the parameter); null when nothing can match (an unknown person). */
  private async filtersOf(projectId: number, query: RecordingsQuery, now: number): Promise<SessionFilters | null> {
    const from = timeOf(query.date_from, 'date_from', now);
    const to = timeOf(query.date_to, 'date_to', now);
    if (from !== undefined && to !== undefined && from >= to) throw new ValidationError('`date_from` must be earlier than `date_to`.', 'date_from', 'invalid');
    const durationMin = secondsOf(query.duration_min, 'duration_min');
    const durationMax = secondsOf(query.duration_max, 'duration_max');
    if (durationMin !== undefined && durationMax !== undefined && durationMin > durationMax) {
      throw new ValidationError('`duration_min` must not be more than `duration_max`.', 'duration_min', 'invalid');
    }
    let hasErrors: boolean | undefined;
    if (!blank(query.has_errors)) {
      if (query.has_errors !== 'true' && query.has_errors !== 'false') throw new ValidationError('Enter true or false.', 'has_errors', 'invalid');
      hasErrors = query.has_errors === 'true';
    }
    if (blank(query.flag) && !blank(query.variant)) throw new ValidationError('Give `flag` with `variant`.', 'flag', 'required');
    let personId: number | undefined;
    if (!blank(query.person_id)) {
      personId = await sessionsStore.personIdOf(this.db.kysely, projectId, query.person_id!.trim());
      if (personId === undefined) return null;
    }
    return {
      personId,
      distinctId: blank(query.distinct_id) ? undefined : query.distinct_id,
      from,
      to,
      durationMin,
      durationMax,
      hasErrors,
      url: blank(query.url) ? undefined : query.url,
      flag: blank(query.flag) ? undefined : { key: query.flag!, value: blank(query.variant) ? undefined : query.variant },
    };
  }

  private async shown(projectId: number, rows: SessionRow[], now: number): Promise<Recording[]> {
    const ids = [...new Set(rows.map((row) => row.person).filter((id): id is number => id !== null))].map(Number);
    const persons = new Map((await sessionsStore.persons(this.db.kysely, projectId, ids, MAX_DISTINCT_IDS)).map((person) => [Number(person.id), person]));
    return rows.map((row) => {
      const person = row.person === null ? undefined : persons.get(Number(row.person));
      const start = row.start_time!;
      const end = row.end_time ?? start;
      return {
        id: row.session_id,
        distinct_id: row.distinct_id,
        person: person ? { id: person.uuid, name: nameOf(person.properties), distinct_ids: person.distinct_ids } : null,
        start_time: start,
        end_time: end,
        duration: Math.max(0, (Date.parse(end) - Date.parse(start)) / 1000),
        active_seconds: Number(row.active_ms) / 1000,
        click_count: Number(row.click_count),
        keypress_count: Number(row.keypress_count),
        console_log_count: Number(row.console_log_count),
        console_warn_count: Number(row.console_warn_count),
        console_error_count: Number(row.console_error_count),
        exception_count: Number(row.exception_count),
        start_url: row.start_url,
        event_count: Number(row.event_count),
        size_bytes: Number(row.size_bytes),
        ongoing: now - Date.parse(row.updated_at) < ONGOING_MS,
      };
    });
  }
}

/** What people are called in lists: their email, else their name. */
function nameOf(properties: string): string | null {
  const value = jsonValue(properties);
  if (typeof value !== 'object' || value === null) return null;
  const { email, name } = value as { email?: unknown; name?: unknown };
  return typeof email === 'string' ? email : typeof name === 'string' ? name : null;
}
