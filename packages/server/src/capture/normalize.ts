import { storable } from '../db/text';
import { TooLargeError, ValidationError, type DomainError } from '../errors';
import { deepJsonError, isObject, type Properties } from '../json';
import { Slices } from '../turns';
import { isUuid, uuidv7 } from '../uuid';
import type { CaptureBody } from './body';
import type { CapturedEvent, EventDraft, IngestPipeline } from './pipeline';

/** The events of a capture body to store, and the refusals of those too large to. */
export interface NormalizedEvents {
  events: CapturedEvent[];
  /** Why each event refused alone was (413 `event_too_large`, 400 `max_depth`), in order. */
  refused: DomainError[];
}

/** Timestamps more than this far in the future are client clock errors; they become "now" (as in PostHog). */
const MAX_FUTURE_MS = 23 * 3600 * 1000;

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
 * Validates and normalizes the events of a capture body (as read by `eventsOf`), each marked by the pipeline's steps,
 * yielding to the event loop between slices of a large batch. A malformed batch is rejected whole, with `attr` naming
 * the first problem as `batch__<index>__<field>`; an event over `maxEventBytes` serialized (properties JSON, name and
 * distinct id, in UTF-8), or nested deeper than MAX_JSON_DEPTH, is refused alone.
 */
export async function normalizeEvents(
  { items, batch, invalid }: CaptureBody,
  query: Properties,
  maxEventBytes: number,
  pipeline: IngestPipeline,
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
    const event = normalizeEvent(items[i], i, sentAt, now, pipeline);
    const bytes =
      Buffer.byteLength(event.propertiesJson) +
      (event.exceptionStacks?.bytes ?? 0) +
      (event.llmPayloads?.bytes ?? 0) +
      Buffer.byteLength(event.event) +
      Buffer.byteLength(event.distinctId);
    if (bytes > maxEventBytes) normalized.refused.push(eventTooLarge(i, bytes, maxEventBytes));
    else normalized.events.push(event);
  }
  return normalized;
}

/** One event of a capture body, the `i`th, validated and normalized (a 400 when it is malformed). */
function normalizeEvent(item: unknown, i: number, sentAt: number | undefined, now: number, pipeline: IngestPipeline): CapturedEvent {
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

  const draft: EventDraft = {
    event: storable(item.event),
    distinctId: storable(String(rawId)),
    properties,
    // `$set` and friends arrive at the top level (posthog-node, $identify) or inside properties (posthog-js); both count.
    set: mergedObject(properties.$set, item.$set),
    setOnce: mergedObject(properties.$set_once, item.$set_once),
    unset: keysOf(properties.$unset, item.$unset),
  };
  const marks = pipeline.mark(draft);
  if (draft.set) properties.$set = draft.set;
  if (draft.setOnce) properties.$set_once = draft.setOnce;
  if (draft.unset) properties.$unset = draft.unset;
  // Before it is measured: a step may store the properties otherwise (an exception's 10,000 frames count as the 100 it keeps).
  const stored = pipeline.serialize(properties, marks);
  return {
    uuid,
    event: draft.event,
    distinctId: draft.distinctId,
    properties: stored.properties,
    propertiesJson: stored.json,
    exceptionStacks: stored.stacks,
    llmPayloads: stored.payloads,
    timestamp: timestampOf(item, sentAt, now),
    set: draft.set,
    setOnce: draft.setOnce,
    unset: draft.unset,
    group: draft.group,
    sessionId: draft.sessionId,
    marks,
  };
}
