import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { parseJsonBytes } from '../http/sliced-json';
import { isObject, jsonDepthExceeds, type Properties } from '../json';
import { Slices } from '../turns';

/** rrweb's event types and incremental sources that ingest reads (rrweb's `EventType`, `IncrementalSource`). */
export const EventType = { FullSnapshot: 2, IncrementalSnapshot: 3, Meta: 4, Plugin: 6 } as const;
export const Source = { Mutation: 0, MouseInteraction: 2, Input: 5, StyleSheetRule: 8 } as const;

/** posthog-js's marker of an event whose big fields are gzip-compressed Latin-1 strings (`compress_events`, on by default). */
const COMPRESSED = '2024-10';

/** An rrweb event as stored: a plain object with a numeric `timestamp` (ms since the epoch). */
export interface RrwebEvent extends Properties {
  type: number;
  timestamp: number;
}

export interface DecodedSnapshots {
  events: RrwebEvent[];
  /** Events left out: not an rrweb event, or a compressed field that could not be decoded. */
  skipped: number;
}

/** Largest decompressed field: a full snapshot of a very large page is some tens of MB of JSON. */
const MAX_FIELD_BYTES = 64 * 1024 * 1024;
/** Decompressed bytes one batch may expand to (a gzip bomb expands 1,000-fold); past it the rest are skipped. */
const MAX_BATCH_BYTES = 256 * 1024 * 1024;

/**
 * How deep an event may nest (a full snapshot nests two levels a DOM level); deeper ones are skipped before anything
 * serializes them (JSON.stringify overflows the stack near 10,000 levels).
 */
const MAX_EVENT_DEPTH = 3000;

/** Compressed fields up to this size are inflated on the event loop (well under a millisecond); larger ones in the thread pool. */
const SMALL_FIELD_BYTES = 32 * 1024;
const gunzipAsync = promisify(zlib.gunzip);

class Undecodable extends Error {}

/** Budget of decompressed bytes, shared by one batch's fields. */
interface Budget {
  left: number;
}

/**
 * A field posthog-js compressed: each char code is a byte of gzip, which holds the field's JSON. A large one (a full
 * snapshot of a big page) is inflated in the thread pool and parsed in slices (`sliced-json.ts`).
 */
async function inflate(value: unknown, budget: Budget): Promise<unknown> {
  if (typeof value !== 'string') return value;
  const gzip = Buffer.from(value, 'latin1');
  const options = { maxOutputLength: Math.min(MAX_FIELD_BYTES, Math.max(budget.left, 1)) };
  let bytes: Buffer;
  try {
    bytes = gzip.length <= SMALL_FIELD_BYTES ? zlib.gunzipSync(gzip, options) : await gunzipAsync(gzip, options);
  } catch {
    throw new Undecodable();
  }
  budget.left -= bytes.length;
  if (budget.left < 0) throw new Undecodable();
  try {
    return await parseJsonBytes(bytes);
  } catch {
    throw new Undecodable();
  }
}

const MUTATION_FIELDS = ['texts', 'attributes', 'removes', 'adds'] as const;
const STYLESHEET_FIELDS = ['adds', 'removes'] as const;

/** An event with its compressed fields decoded and its `cv` marker dropped; a plain event as it came. */
async function decodeEvent(event: Properties & { timestamp: number; type: number }, budget: Budget): Promise<RrwebEvent> {
  if (event.cv === undefined) return event;
  const { cv, ...plain } = event;
  if (cv !== COMPRESSED) throw new Undecodable();
  if (plain.type === EventType.FullSnapshot) return { ...plain, data: await inflate(plain.data, budget) };
  if (plain.type === EventType.IncrementalSnapshot && isObject(plain.data)) {
    const fields = plain.data.source === Source.Mutation ? MUTATION_FIELDS : plain.data.source === Source.StyleSheetRule ? STYLESHEET_FIELDS : [];
    const data: Properties = { ...plain.data };
    for (const field of fields) if (data[field] !== undefined) data[field] = await inflate(data[field], budget);
    return { ...plain, data };
  }
  return plain;
}

const isEvent = (value: unknown): value is Properties & { timestamp: number; type: number } =>
  isObject(value) && typeof value.type === 'number' && typeof value.timestamp === 'number' && Number.isFinite(value.timestamp);

/**
 * The plain rrweb events of `$snapshot_data` lists, per-event compression (`cv: '2024-10'`) undone: a full snapshot's
 * `data`, a mutation's `texts`, `attributes`, `removes` and `adds`, a stylesheet rule's `adds` and `removes`. An event
 * that is not an rrweb event, whose compressed field does not decode, or that nests too deep, is skipped and counted; the rest are kept.
 * Runs in slices with turns of the event loop between (`turns.ts`): a batch's fields may inflate to tens of MB.
 */
export async function decodeSnapshots(lists: readonly unknown[][]): Promise<DecodedSnapshots[]> {
  const budget: Budget = { left: MAX_BATCH_BYTES };
  const slices = new Slices();
  await slices.begin();
  const decoded: DecodedSnapshots[] = [];
  for (const list of lists) {
    const result: DecodedSnapshots = { events: [], skipped: 0 };
    for (const item of list) {
      if (slices.over) await slices.next();
      if (!isEvent(item)) {
        result.skipped++;
        continue;
      }
      try {
        const event = await decodeEvent(item, budget);
        if (jsonDepthExceeds(event, MAX_EVENT_DEPTH)) throw new Undecodable();
        result.events.push(event);
      } catch (error) {
        if (!(error instanceof Undecodable)) throw error;
        result.skipped++;
      }
    }
    decoded.push(result);
  }
  return decoded;
}
