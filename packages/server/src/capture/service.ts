import { sql, type Transaction } from 'kysely';
import type { Changes } from '../changes';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { storable } from '../db/text';
import { eventStore, type NewEvent } from '../events/store';
import { ApiError, validationError } from '../http/errors';
import { GroupTypeCache, PersonBatch, type PersonEvent } from '../persons/service';
import type { Properties } from '../persons/store';
import { GroupCommit, QueueFullError } from './group-commit';
import { isUuid, uuidv7 } from './uuid';
import { isObject } from '../json';

/** An event as validated at the door, ready to store. */
export interface CapturedEvent extends PersonEvent {
  uuid: string;
}

const nonEmpty = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
/** Timestamps more than this far in the future are client clock errors; they become "now" (as in PostHog). */
const MAX_FUTURE_MS = 23 * 3600 * 1000;

/** The events of a decoded capture body and its batch-level fields: one event, an array, or `{batch: [...]}`. */
export function eventsOf(body: unknown): { items: unknown[]; batch: Properties } {
  if (body === undefined || body === null || body === '') {
    throw validationError('No events: send an event, a list of events, or {"batch": [...]}.', null, 'required');
  }
  if (Array.isArray(body)) return { items: body, batch: {} };
  if (!isObject(body)) throw validationError('The body is not an event or a batch of events.', null);
  if ('batch' in body) {
    if (!Array.isArray(body.batch)) throw validationError('batch must be a list of events.', 'batch');
    return { items: body.batch, batch: body };
  }
  return { items: [body], batch: body };
}

/**
 * The project token of a capture request: the batch's `api_key` / `token`, else the query's, else the
 * events' own (`api_key`, `token`, or `properties.token`). Every token an event names must be that one.
 */
export function captureTokenOf(body: unknown, query: Properties): string | undefined {
  let items: unknown[] = [];
  let batch: Properties = {};
  try {
    ({ items, batch } = eventsOf(body));
  } catch {
    // a body without events has no token of its own; the query may still have one
  }
  const own = (e: unknown) => (isObject(e) ? (nonEmpty(e.api_key) ?? nonEmpty(e.token) ?? (isObject(e.properties) ? nonEmpty(e.properties.token) : undefined)) : undefined);
  const token =
    nonEmpty(batch.api_key) ?? nonEmpty(batch.token) ?? nonEmpty(query.token) ?? nonEmpty(query.api_key) ?? items.map(own).find((t) => t !== undefined);
  if (token !== undefined && items.some((e) => own(e) !== undefined && own(e) !== token)) {
    throw new ApiError(401, 'authentication_error', 'invalid_api_key', 'Events in one request must all use the same project API key.');
  }
  return token;
}

/** Unix milliseconds of an ISO string or a number of milliseconds; undefined when not a usable time. */
function timeOf(value: unknown): number | undefined {
  let ms: number | undefined;
  if (typeof value === 'string' && value !== '') ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Date.parse(value);
  else if (typeof value === 'number') ms = value;
  // Between 1970 and 9999, so that ISO strings compare as times.
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms < 253402300800000 ? ms : undefined;
}

/** `sent_at` of the batch, else of the query (`sent_at` or `_`, in milliseconds; values that look like seconds are ignored). */
function sentAtOf(batch: Properties, query: Properties): number | undefined {
  const fromBody = timeOf(batch.sent_at);
  if (fromBody !== undefined) return fromBody;
  const raw = Number(query.sent_at ?? query._);
  return Number.isFinite(raw) && raw > 1e12 ? timeOf(raw) : undefined;
}

/**
 * When the event happened, by the server's clock: `now - offset` when the client sent an offset; else
 * its timestamp shifted by the client's clock error (`now - sent_at`); else its timestamp; else now.
 */
function timestampOf(e: Properties, sentAt: number | undefined, now: number): string {
  let ms: number | undefined;
  const offset = typeof e.offset === 'number' ? e.offset : typeof e.offset === 'string' && e.offset !== '' ? Number(e.offset) : NaN;
  if (Number.isFinite(offset)) ms = now - offset;
  else {
    const ts = timeOf(e.timestamp);
    if (ts !== undefined) ms = sentAt !== undefined ? ts + (now - sentAt) : ts;
  }
  if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > now + MAX_FUTURE_MS) ms = now;
  return new Date(ms).toISOString();
}

const mergedObject = (...parts: unknown[]): Properties | undefined => {
  const objects = parts.filter(isObject);
  // spread, not Object.assign: a "__proto__" key stays a plain key
  return objects.length ? objects.reduce<Properties>((merged, o) => ({ ...merged, ...o }), {}) : undefined;
};
const keysOf = (...parts: unknown[]): string[] | undefined => {
  const keys = parts.flatMap((p) => (Array.isArray(p) ? p.filter((k): k is string => typeof k === 'string') : isObject(p) ? Object.keys(p) : []));
  return keys.length ? keys : undefined;
};

/**
 * Validates and normalizes the events of a capture body. A malformed batch is rejected whole, with
 * `attr` naming the first problem as `batch__<index>__<field>`.
 */
export function normalizeEvents(body: unknown, query: Properties, now = Date.now()): CapturedEvent[] {
  const { items, batch } = eventsOf(body);
  if (!items.length) throw validationError('No events in the batch.', 'batch', 'required');
  const sentAt = sentAtOf(batch, query);
  return items.map((item, i) => {
    const attr = (field?: string) => (field ? `batch__${i}__${field}` : `batch__${i}`);
    if (!isObject(item)) throw validationError(`Event ${i} is not an event object.`, attr());
    if (item.properties !== undefined && item.properties !== null && !isObject(item.properties)) {
      throw validationError(`Event ${i} has properties that are not an object.`, attr('properties'));
    }
    const properties: Properties = isObject(item.properties) ? { ...item.properties } : {};
    if (typeof item.event !== 'string' || item.event === '') throw validationError(`Event ${i} has no event name.`, attr('event'));
    const rawId = item.distinct_id ?? properties.distinct_id;
    if (rawId === undefined || rawId === null || rawId === '') throw validationError(`Event ${i} has no distinct_id.`, attr('distinct_id'));
    if (typeof rawId !== 'string' && typeof rawId !== 'number' && typeof rawId !== 'boolean') {
      throw validationError(`Event ${i} has a distinct_id that is not a string.`, attr('distinct_id'));
    }
    let uuid: string;
    if (item.uuid === undefined || item.uuid === null || item.uuid === '') uuid = uuidv7(now);
    else if (typeof item.uuid === 'string' && isUuid(item.uuid)) uuid = item.uuid.toLowerCase();
    else throw validationError(`Event ${i} has a uuid that is not a UUID.`, attr('uuid'));

    const event = storable(item.event);
    // `$set` and friends arrive at the top level (posthog-node, $identify) or inside properties (posthog-js); both count.
    let set = mergedObject(properties.$set, item.$set);
    const setOnce = mergedObject(properties.$set_once, item.$set_once);
    const unset = keysOf(properties.$unset, item.$unset);
    if (event === '$feature_enrollment_update' && typeof properties.$feature_flag === 'string' && typeof properties.$feature_enrollment === 'boolean') {
      // Older SDKs send only these two; the enrollment is the person property the flag's super condition reads.
      const key = `$feature_enrollment/${properties.$feature_flag}`;
      if (!set || !Object.hasOwn(set, key)) set = { ...set, [key]: properties.$feature_enrollment };
    }
    if (set) properties.$set = set;
    if (setOnce) properties.$set_once = setOnce;
    if (unset) properties.$unset = unset;
    return {
      uuid,
      event,
      distinctId: storable(String(rawId)),
      properties,
      timestamp: timestampOf(item, sentAt, now),
      set,
      setOnce,
      unset,
    };
  });
}

export const overloaded = () =>
  new ApiError(503, 'server_error', 'overloaded', 'The service is busy storing events. Retry in a moment.', null, { 'retry-after': '1' });

/** Lock id (first half) for serializing a project's ingestion across instances on PostgreSQL. */
const INGEST_LOCK = 4_004_001;
/** Events per transaction: larger backlogs are split so that one commit stays short. */
const MAX_EVENTS_PER_COMMIT = 10_000;

interface Pending {
  projectId: number;
  event: CapturedEvent;
}

/**
 * Stores events and applies their person and group rules, durably: `capture` resolves only after the
 * transaction holding its events has committed. Concurrent captures share transactions (group commit).
 */
export class IngestService {
  private readonly writer: GroupCommit<Pending>;
  private readonly groupTypes = new GroupTypeCache();

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    options: { maxPendingEvents: number },
  ) {
    this.writer = new GroupCommit((items) => this.commit(items), { maxPending: options.maxPendingEvents, maxPerCommit: MAX_EVENTS_PER_COMMIT });
  }

  /** Resolves once the events are committed; 503 `overloaded` when too many are waiting. */
  async capture(projectId: number, events: CapturedEvent[]): Promise<void> {
    try {
      await this.writer.write(events.map((event) => ({ projectId, event })));
    } catch (error) {
      if (error instanceof QueueFullError) throw overloaded();
      throw error;
    }
  }

  /** Events accepted and not yet committed. */
  get pending(): number {
    return this.writer.size;
  }

  /** Stops taking events and waits until every accepted one is committed. */
  close(): Promise<void> {
    return this.writer.close();
  }

  private async commit(items: Pending[]) {
    const byProject = new Map<number, CapturedEvent[]>();
    for (const { projectId, event } of items) {
      const list = byProject.get(projectId);
      if (list) list.push(event);
      else byProject.set(projectId, [event]);
    }
    const projects = [...byProject.keys()].sort((a, b) => a - b);
    const batches: [number, PersonBatch][] = [];
    await this.db.kysely.transaction().execute(async (tx) => {
      for (const projectId of projects) batches.push([projectId, await this.storeProject(tx, projectId, byProject.get(projectId)!)]);
    });
    for (const [projectId, batch] of batches) {
      if (!batch.newGroupTypes.size) continue;
      this.groupTypes.remember(projectId, batch.newGroupTypes);
      // Flag evaluation maps group type indexes to names: a new mapping changes what group flags see.
      this.changes.flagsChanged(projectId);
    }
  }

  private async storeProject(tx: Transaction<Database>, projectId: number, events: CapturedEvent[]): Promise<PersonBatch> {
    // Another instance on the same PostgreSQL database may be ingesting this project's persons right now.
    if (this.db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${INGEST_LOCK}, ${projectId})`.execute(tx);
    const createdAt = new Date().toISOString();
    const rows: NewEvent[] = events.map((e) => ({
      project_id: projectId,
      uuid: e.uuid,
      event: e.event,
      distinct_id: e.distinctId,
      properties: JSON.stringify(e.properties),
      timestamp: e.timestamp,
      created_at: createdAt,
    }));
    const inserted = await eventStore.insert(tx, this.db.dialect, rows);
    // Person rules run once per stored event: a duplicate (a retried batch, say) changes nobody.
    const fresh = events.filter((e) => inserted.delete(e.uuid));
    const persons = new PersonBatch(tx, projectId, this.groupTypes.get(projectId));
    await persons.load(fresh);
    for (const e of fresh) await persons.apply(e);
    await persons.flush();
    return persons;
  }
}
