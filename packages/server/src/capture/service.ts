import { setImmediate as nextTurn } from 'node:timers/promises';
import { enrollmentProperty } from '@service/flag-engine';
import type { Transaction } from 'kysely';
import type { Changes } from '../changes';
import type { Db } from '../db/database';
import { lockIngest } from '../db/ingest-lock';
import type { Database } from '../db/schema';
import { storable } from '../db/text';
import { enrollmentOf, recordEnrollments } from '../early-access/enrollment-events';
import { EXCEPTION_EVENT } from '../error-tracking/exception';
import { recordExceptions, sanitizeException } from '../error-tracking/ingest';
import { OverloadedError, TooLargeError, UnauthenticatedError, ValidationError, type DomainError } from '../errors';
import { GroupTypeCache, PersonBatch, type PersonEvent } from '../persons/service';
import type { Properties } from '../persons/store';
import { GroupCommit, QueueFullError } from './group-commit';
import { eventWrites, type NewEvent, type NewExceptionStacks, type StoredStacks } from './store';
import { isUuid, uuidv7 } from '../uuid';
import { deepJsonError, isObject } from '../json';
import { Slices } from '../turns';

/** An event as validated at the door, ready to store. */
export interface CapturedEvent extends PersonEvent {
  uuid: string;
  /** `properties` as stored (JSON), made once at the door, where it is measured; an `$exception`'s without its stacks. */
  propertiesJson: string;
  /** An `$exception` event's stack traces, stored once per distinct stacks (`events/store.ts`). */
  exceptionStacks?: StoredStacks | undefined;
}

/** The events of a capture body to store, and the refusals of those too large to. */
export interface NormalizedEvents {
  events: CapturedEvent[];
  /** Why each event refused alone was (413 `event_too_large`, 400 `max_depth`), in order. */
  refused: DomainError[];
}

const nonEmpty = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
/** Timestamps more than this far in the future are client clock errors; they become "now" (as in PostHog). */
const MAX_FUTURE_MS = 23 * 3600 * 1000;

/**
 * A decoded capture body, read once: its events and batch-level fields, or (with no events) why it has none,
 * which is thrown once the request's project is known (a request without a token is a 401 first).
 */
export interface CaptureBody {
  items: unknown[];
  batch: Properties;
  invalid?: ValidationError;
}

/** The events of a decoded capture body and its batch-level fields: one event, an array, or `{batch: [...]}`. */
export function eventsOf(body: unknown): CaptureBody {
  const invalid = (error: ValidationError): CaptureBody => ({ items: [], batch: {}, invalid: error });
  if (body === undefined || body === null || body === '') {
    return invalid(new ValidationError('No events: send an event, a list of events, or {"batch": [...]}.', null, 'required'));
  }
  if (Array.isArray(body)) return { items: body, batch: {} };
  if (!isObject(body)) return invalid(new ValidationError('The body is not an event or a batch of events.', null));
  if ('batch' in body) {
    if (!Array.isArray(body.batch)) return invalid(new ValidationError('batch must be a list of events.', 'batch'));
    return { items: body.batch, batch: body };
  }
  return { items: [body], batch: body };
}

/**
 * The project token of a capture request: the batch's `api_key` / `token`, else the query's, else the
 * events' own (`api_key`, `token`, or `properties.token`). Every token an event names must be that one.
 */
export function captureTokenOf({ items, batch }: CaptureBody, query: Properties): string | undefined {
  const own = (e: unknown) =>
    isObject(e) ? (nonEmpty(e.api_key) ?? nonEmpty(e.token) ?? (isObject(e.properties) ? nonEmpty(e.properties.token) : undefined)) : undefined;
  const token =
    nonEmpty(batch.api_key) ?? nonEmpty(batch.token) ?? nonEmpty(query.token) ?? nonEmpty(query.api_key) ?? items.map(own).find((t) => t !== undefined);
  if (token !== undefined && items.some((e) => own(e) !== undefined && own(e) !== token)) {
    throw new UnauthenticatedError('invalid_api_key', 'Events in one request must all use the same project API key.');
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

const eventTooLarge = (i: number, bytes: number, maxBytes: number) =>
  new TooLargeError('event_too_large', `Event ${i} is ${bytes} bytes serialized; an event may be at most ${maxBytes} bytes.`, `batch__${i}`);

/**
 * Validates and normalizes the events of a capture body (as read by `eventsOf`), yielding to the event loop between slices of a
 * large batch. A malformed batch is rejected whole, with `attr` naming the first problem as
 * `batch__<index>__<field>`; an event over `maxEventBytes` serialized (properties JSON, name and distinct
 * id, in UTF-8), or nested deeper than MAX_JSON_DEPTH, is refused alone.
 */
export async function normalizeEvents(
  { items, batch, invalid }: CaptureBody,
  query: Properties,
  maxEventBytes: number,
  now = Date.now(),
): Promise<NormalizedEvents> {
  if (invalid) throw invalid;
  if (!items.length) throw new ValidationError('No events in the batch.', 'batch', 'required');
  const sentAt = sentAtOf(batch, query);
  const normalized: NormalizedEvents = { events: [], refused: [] };
  // In slices (`turns.ts`): a batch of 100,000 must not hold the event loop for long.
  const slices = new Slices();
  await slices.begin();
  for (let i = 0; i < items.length; i++) {
    if (slices.over) await slices.next();
    // Before anything walks it: JSON.stringify overflows the stack on JSON nested thousands deep.
    const tooDeep = deepJsonError(items[i], `batch__${i}`);
    if (tooDeep) {
      normalized.refused.push(tooDeep);
      continue;
    }
    const event = normalizeEvent(items[i], i, sentAt, now);
    const bytes =
      Buffer.byteLength(event.propertiesJson) + (event.exceptionStacks?.bytes ?? 0) + Buffer.byteLength(event.event) + Buffer.byteLength(event.distinctId);
    if (bytes > maxEventBytes) normalized.refused.push(eventTooLarge(i, bytes, maxEventBytes));
    else normalized.events.push(event);
  }
  return normalized;
}

/** One event of a capture body, the `i`th, validated and normalized (a 400 when it is malformed). */
function normalizeEvent(item: unknown, i: number, sentAt: number | undefined, now: number): CapturedEvent {
  const attr = (field?: string) => (field ? `batch__${i}__${field}` : `batch__${i}`);
  if (!isObject(item)) throw new ValidationError(`Event ${i} is not an event object.`, attr());
  if (item.properties !== undefined && item.properties !== null && !isObject(item.properties)) {
    throw new ValidationError(`Event ${i} has properties that are not an object.`, attr('properties'));
  }
  const properties: Properties = isObject(item.properties) ? { ...item.properties } : {};
  if (typeof item.event !== 'string' || item.event === '') throw new ValidationError(`Event ${i} has no event name.`, attr('event'));
  const rawId = item.distinct_id ?? properties.distinct_id;
  if (rawId === undefined || rawId === null || rawId === '') throw new ValidationError(`Event ${i} has no distinct_id.`, attr('distinct_id'));
  if (typeof rawId !== 'string' && typeof rawId !== 'number' && typeof rawId !== 'boolean') {
    throw new ValidationError(`Event ${i} has a distinct_id that is not a string.`, attr('distinct_id'));
  }
  let uuid: string;
  if (item.uuid === undefined || item.uuid === null || item.uuid === '') uuid = uuidv7(now);
  else if (typeof item.uuid === 'string' && isUuid(item.uuid)) uuid = item.uuid.toLowerCase();
  else throw new ValidationError(`Event ${i} has a uuid that is not a UUID.`, attr('uuid'));

  const event = storable(item.event);
  // `$set` and friends arrive at the top level (posthog-node, $identify) or inside properties (posthog-js); both count.
  let set = mergedObject(properties.$set, item.$set);
  const setOnce = mergedObject(properties.$set_once, item.$set_once);
  const unset = keysOf(properties.$unset, item.$unset);
  const enrollment = enrollmentOf(event, properties);
  // A group's enrollment ($group_type, $group_key) sets the group's property (persons/service.ts), not a person's.
  if (enrollment && !enrollment.group) {
    // Older SDKs send only these two; the enrollment is the person property the flag's super condition reads.
    const key = enrollmentProperty(enrollment.flagKey);
    if (!set || !Object.hasOwn(set, key)) set = { ...set, [key]: enrollment.enrolled };
  }
  if (set) properties.$set = set;
  if (setOnce) properties.$set_once = setOnce;
  if (unset) properties.$unset = unset;
  // Before it is measured and stored: a stack of 10,000 frames counts as the 100 it keeps.
  const stored = event === EXCEPTION_EVENT ? sanitizeException(properties) : { properties, json: JSON.stringify(properties), stacks: undefined };
  return {
    uuid,
    event,
    distinctId: storable(String(rawId)),
    properties: stored.properties,
    propertiesJson: stored.json,
    exceptionStacks: stored.stacks,
    timestamp: timestampOf(item, sentAt, now),
    set,
    setOnce,
    unset,
  };
}

/** The distinct stack traces `events` name, as rows of `exception_stacks`. */
function stacksOf(projectId: number, events: CapturedEvent[], createdAt: string): NewExceptionStacks[] {
  const rows = new Map<string, NewExceptionStacks>();
  for (const { exceptionStacks: stacks } of events) {
    if (stacks && !rows.has(stacks.hash)) rows.set(stacks.hash, { project_id: projectId, hash: stacks.hash, stacks: stacks.json, created_at: createdAt });
  }
  return [...rows.values()];
}

export const overloaded = () => new OverloadedError('The service is busy storing events. Retry in a moment.');

/**
 * Events per transaction on PostgreSQL: larger backlogs (and requests) are split so that one commit stays short;
 * fewer, larger commits cost less time in all.
 */
const MAX_EVENTS_PER_COMMIT = 10_000;
/**
 * Events per transaction on SQLite, where a commit's fsync of the WAL holds the event loop, for as long as the
 * transaction wrote (some 40 ms for 10,000 events); checkpoints run in a worker (db/checkpointer.ts).
 */
const SQLITE_EVENTS_PER_COMMIT = 2_000;
/**
 * Events stored between two turns of the event loop on SQLite, where every statement runs synchronously: a
 * slice bounds how long other requests wait (500 events take some tens of milliseconds). PostgreSQL queries
 * wait on the network, not on the event loop, and each slice costs round trips: there a transaction is one slice.
 */
const SQLITE_EVENTS_PER_SLICE = 500;

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
  private readonly perCommit: number;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    options: { maxPendingEvents: number },
  ) {
    this.perCommit = db.dialect === 'sqlite' ? SQLITE_EVENTS_PER_COMMIT : MAX_EVENTS_PER_COMMIT;
    this.writer = new GroupCommit((items) => this.commit(items), { maxPending: options.maxPendingEvents, maxPerCommit: this.perCommit });
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

  /** Stops taking events and waits until every accepted one is committed. */
  close(): Promise<void> {
    return this.writer.close();
  }

  /** Commits `items` in order, in transactions of at most `perCommit` events. */
  private async commit(items: Pending[]) {
    for (let start = 0; start < items.length; start += this.perCommit) await this.commitOne(items.slice(start, start + this.perCommit));
  }

  /** Stores `items` in one transaction, then remembers the group types it mapped. */
  private async commitOne(items: Pending[]) {
    const byProject = new Map<number, CapturedEvent[]>();
    for (const { projectId, event } of items) {
      const list = byProject.get(projectId);
      if (list) list.push(event);
      else byProject.set(projectId, [event]);
    }
    const projects = [...byProject.keys()].sort((a, b) => a - b);
    const mapped: [number, Map<string, number>][] = [];
    await this.db.kysely.transaction().execute(async (tx) => {
      for (const projectId of projects) mapped.push([projectId, await this.storeProject(tx, projectId, byProject.get(projectId)!)]);
    });
    for (const [projectId, groupTypes] of mapped) {
      if (!groupTypes.size) continue;
      this.groupTypes.remember(projectId, groupTypes);
      // Flag evaluation maps group type indexes to names: a new mapping changes what group flags see.
      this.changes.flagsChanged(projectId);
    }
  }

  /** Stores a project's events and applies their person rules, slice by slice, in order; returns the group types it mapped. */
  private async storeProject(tx: Transaction<Database>, projectId: number, events: CapturedEvent[]): Promise<Map<string, number>> {
    // Another instance on the same PostgreSQL database may be ingesting this project's persons right now.
    await lockIngest(tx, this.db.dialect, projectId);
    const createdAt = new Date().toISOString();
    const mapped = new Map<string, number>();
    const perSlice = this.db.dialect === 'sqlite' ? SQLITE_EVENTS_PER_SLICE : events.length;
    for (let start = 0; start < events.length; start += perSlice) {
      // Other requests run meanwhile; the transaction stays open (queries on its connection wait for the commit).
      await nextTurn();
      const slice = events.slice(start, start + perSlice);
      const rows: NewEvent[] = slice.map((e) => ({
        project_id: projectId,
        uuid: e.uuid,
        event: e.event,
        distinct_id: e.distinctId,
        properties: e.propertiesJson,
        timestamp: e.timestamp,
        created_at: createdAt,
        exception_stacks: e.exceptionStacks?.hash ?? null,
      }));
      await eventWrites.insertStacks(tx, stacksOf(projectId, slice, createdAt));
      const inserted = await eventWrites.insert(tx, this.db.dialect, rows);
      // Person rules run once per stored event: a duplicate (a retried batch, say) changes nobody.
      const fresh = slice.filter((e) => inserted.delete(e.uuid));
      const persons = new PersonBatch(tx, projectId, new Map([...this.groupTypes.get(projectId), ...mapped]));
      await persons.load(fresh);
      for (const e of fresh) await persons.apply(e);
      await persons.flush();
      // Enrollments in early access features (and their webhooks): no query unless the slice has enrollment events.
      await recordEnrollments(tx, projectId, fresh, (distinctId) => persons.personUuid(distinctId));
      // Exceptions into issues: no query unless the slice has `$exception` events.
      await recordExceptions(tx, this.db.dialect, projectId, fresh);
      for (const [type, index] of persons.newGroupTypes) mapped.set(type, index);
    }
    return mapped;
  }
}
