import { ValidationError } from '../../errors';
import { isObject } from '../../json';
import { Slices } from '../../turns';

/**
 * The spans of an OTLP trace export, read from its JSON encoding or from protobuf decoded into the same shape
 * (`proto.ts`): each checked on its own, so that a malformed span is refused alone and the rest of the export is kept.
 */

/** An attribute's value: OTLP's `AnyValue` as plain JSON (bytes as base64, an empty value as null). */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attributes = Record<string, AttrValue>;

/** A span as read: ids in lower-case hex, times in nanoseconds since the epoch. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** Undefined for a root span. */
  parentId: string | undefined;
  name: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Attributes;
  /** Its resource's attributes (`service.name`, and what a user put there). */
  resource: Attributes;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string | undefined;
  events: { name: string; attributes: Attributes }[];
  /** Where the span is in the export, as an error's `attr` names it: `resourceSpans__0__scopeSpans__1__spans__7`. */
  at: string;
  /** Its place among the export's spans, counting from 0. */
  order: number;
}

/** A span refused, and why. */
export interface Refusal {
  at: string;
  order: number;
  reason: string;
}

/** What is wrong with a span (or with what it holds): the span is refused for this reason. */
export class SpanError extends Error {}

/** Attribute values nested deeper than this (arrays and key-value lists in each other) refuse their span. */
const MAX_VALUE_DEPTH = 20;

const notOtlp = (detail: string, attr: string | null = null) => new ValidationError(`The body is not an OTLP trace export: ${detail}`, attr, 'invalid_otlp');

const HEX = /^[0-9a-f]+$/i;
const STATUS_NAMES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];

/** An id of `bytes` bytes: hex in JSON (as OTLP's JSON encoding sends it), bytes in protobuf; never all zeros. */
function idOf(value: unknown, bytes: number, name: string): string {
  let hex: string | undefined;
  if (value instanceof Uint8Array) hex = value.length === bytes ? Buffer.from(value.buffer, value.byteOffset, value.length).toString('hex') : undefined;
  else if (typeof value === 'string' && value.length === bytes * 2 && HEX.test(value)) hex = value.toLowerCase();
  if (hex === undefined || /^0+$/.test(hex)) throw new SpanError(`its ${name} is not ${bytes} bytes of hex, not all zero`);
  return hex;
}

/** An empty parent id (a root span) is undefined; any other must be a span id. */
function parentOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '' || (value instanceof Uint8Array && value.length === 0)) return undefined;
  return idOf(value, 8, 'parentSpanId');
}

/** Nanoseconds: OTLP's JSON sends a 64-bit integer as a decimal string or a number. */
function nanosOf(value: unknown, name: string): bigint {
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw new SpanError(`its ${name} is not a time in nanoseconds`);
}

/** A 64-bit integer of an `intValue` as a number (beyond 2^53 as near as a double gets). */
function intOf(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return Number(value);
  throw new SpanError('an intValue is not an integer');
}

/** OTLP's `AnyValue` as plain JSON; an `AnyValue` with no value set is null. */
function valueOf(value: unknown, depth = 0): AttrValue {
  if (!isObject(value)) throw new SpanError('an attribute value is not an AnyValue object');
  if (depth > MAX_VALUE_DEPTH) throw new SpanError(`an attribute value is nested deeper than ${MAX_VALUE_DEPTH}`);
  if (value.stringValue !== undefined && value.stringValue !== null) {
    if (typeof value.stringValue !== 'string') throw new SpanError('a stringValue is not a string');
    return value.stringValue;
  }
  if (value.boolValue !== undefined && value.boolValue !== null) {
    if (typeof value.boolValue !== 'boolean') throw new SpanError('a boolValue is not a boolean');
    return value.boolValue;
  }
  if (value.intValue !== undefined && value.intValue !== null) return intOf(value.intValue);
  if (value.doubleValue !== undefined && value.doubleValue !== null) {
    // JSON encodes NaN and the infinities as strings; they are no number an LLM event uses.
    if (typeof value.doubleValue !== 'number') throw new SpanError('a doubleValue is not a number');
    return value.doubleValue;
  }
  if (value.arrayValue !== undefined && value.arrayValue !== null) {
    const values = isObject(value.arrayValue) ? (value.arrayValue.values ?? []) : undefined;
    if (!Array.isArray(values)) throw new SpanError('an arrayValue has no list of values');
    return values.map((v) => valueOf(v, depth + 1));
  }
  if (value.kvlistValue !== undefined && value.kvlistValue !== null) {
    const values = isObject(value.kvlistValue) ? (value.kvlistValue.values ?? []) : undefined;
    if (!Array.isArray(values)) throw new SpanError('a kvlistValue has no list of values');
    return attributesOf(values, depth + 1);
  }
  if (value.bytesValue !== undefined && value.bytesValue !== null) {
    if (value.bytesValue instanceof Uint8Array) return Buffer.from(value.bytesValue).toString('base64');
    if (typeof value.bytesValue !== 'string') throw new SpanError('a bytesValue is not base64');
    return value.bytesValue;
  }
  return null;
}

/** A list of OTLP `KeyValue`s as an object (a null-prototype one: any key is a plain key). */
function attributesOf(list: unknown, depth = 0): Attributes {
  const attributes = Object.create(null) as Attributes;
  if (list === undefined || list === null) return attributes;
  if (!Array.isArray(list)) throw new SpanError('its attributes are not a list');
  for (const item of list) {
    if (!isObject(item) || typeof item.key !== 'string') throw new SpanError('an attribute has no string key');
    // A key-value pair without a value (allowed by OTLP) is an empty value.
    attributes[item.key] = item.value === undefined || item.value === null ? null : valueOf(item.value, depth);
  }
  return attributes;
}

function eventsOf(list: unknown): OtlpSpan['events'] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new SpanError('its events are not a list');
  return list.map((event) => {
    if (!isObject(event)) throw new SpanError('an event is not an object');
    return { name: typeof event.name === 'string' ? event.name : '', attributes: attributesOf(event.attributes) };
  });
}

function spanOf(raw: unknown, resource: Attributes, at: string, order: number): OtlpSpan {
  if (!isObject(raw)) throw new SpanError('it is not an object');
  if (raw.name !== undefined && raw.name !== null && typeof raw.name !== 'string') throw new SpanError('its name is not a string');
  const startNs = nanosOf(raw.startTimeUnixNano, 'startTimeUnixNano');
  const endNs = nanosOf(raw.endTimeUnixNano, 'endTimeUnixNano');
  if (startNs === 0n) throw new SpanError('it has no startTimeUnixNano');
  if (endNs < startNs) throw new SpanError('it ends before it starts');
  const status = raw.status ?? {};
  if (!isObject(status)) throw new SpanError('its status is not an object');
  // OTLP's JSON sends enums as numbers; some senders write their names.
  const code = typeof status.code === 'string' ? STATUS_NAMES.indexOf(status.code) : (status.code ?? 0);
  if (code !== 0 && code !== 1 && code !== 2) throw new SpanError('its status code is not 0, 1 or 2');
  if (status.message !== undefined && status.message !== null && typeof status.message !== 'string') throw new SpanError('its status message is not a string');
  return {
    traceId: idOf(raw.traceId, 16, 'traceId'),
    spanId: idOf(raw.spanId, 8, 'spanId'),
    parentId: parentOf(raw.parentSpanId),
    name: typeof raw.name === 'string' ? raw.name : '',
    startNs,
    endNs,
    attributes: attributesOf(raw.attributes),
    resource,
    statusCode: code,
    statusMessage: typeof status.message === 'string' && status.message !== '' ? status.message : undefined,
    events: eventsOf(raw.events),
    at,
    order,
  };
}

const listAt = (value: unknown, at: string): unknown[] => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw notOtlp(`${at.replaceAll('__', '.')} is not a list.`, at);
  return value;
};

/** The spans of an export and the refusals, in the export's order, with a count of all spans it holds. */
export interface ReadSpans {
  spans: OtlpSpan[];
  refused: Refusal[];
  total: number;
}

/**
 * Reads an OTLP trace export (`{resourceSpans: [{resource, scopeSpans: [{spans}]}]}`), in slices with turns of the event
 * loop between them: a span that is malformed (no valid trace or span id, times that are not times, attributes of the
 * wrong shape, …) is refused alone; a body whose structure above the spans is not OTLP's is a ValidationError
 * (`invalid_otlp`).
 */
export async function readSpans(body: unknown): Promise<ReadSpans> {
  if (!isObject(body)) throw notOtlp('send an ExportTraceServiceRequest, {"resourceSpans": [...]}, as JSON or protobuf.');
  const read: ReadSpans = { spans: [], refused: [], total: 0 };
  const slices = new Slices();
  await slices.begin();
  const resources = listAt(body.resourceSpans, 'resourceSpans');
  for (let r = 0; r < resources.length; r++) {
    const resourceSpans = resources[r];
    const at = `resourceSpans__${r}`;
    if (!isObject(resourceSpans)) throw notOtlp(`resourceSpans.${r} is not an object.`, at);
    const resource = resourceOf(resourceSpans.resource ?? {});
    const scopes = listAt(resourceSpans.scopeSpans, `${at}__scopeSpans`);
    for (let s = 0; s < scopes.length; s++) {
      const scopeSpans = scopes[s];
      if (!isObject(scopeSpans)) throw notOtlp(`resourceSpans.${r}.scopeSpans.${s} is not an object.`, `${at}__scopeSpans__${s}`);
      const spans = listAt(scopeSpans.spans, `${at}__scopeSpans__${s}__spans`);
      for (let i = 0; i < spans.length; i++) {
        if (slices.over) await slices.next();
        const spanAt = `${at}__scopeSpans__${s}__spans__${i}`;
        const order = read.total++;
        try {
          if (resource instanceof SpanError) throw new SpanError(`its resource's attributes are malformed (${resource.message})`);
          read.spans.push(spanOf(spans[i], resource, spanAt, order));
        } catch (error) {
          if (!(error instanceof SpanError)) throw error;
          read.refused.push({ at: spanAt, order, reason: error.message });
        }
      }
    }
  }
  return read;
}

/** A resource's attributes; what is wrong with them, when something is, refuses each of its spans. */
function resourceOf(raw: unknown): Attributes | SpanError {
  try {
    if (!isObject(raw)) throw new SpanError('its resource is not an object');
    return attributesOf(raw.attributes);
  } catch (error) {
    if (!(error instanceof SpanError)) throw error;
    return error;
  }
}
