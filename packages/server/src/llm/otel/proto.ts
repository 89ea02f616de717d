import protobuf from 'protobufjs/light.js';
import { Slices } from '../../turns';

/**
 * The messages of an OTLP/HTTP protobuf trace export (`ExportTraceServiceRequest`, opentelemetry-proto's
 * `collector/trace/v1` and the messages it holds), as protobufjs reflection. Only the fields read here are declared:
 * the numbers and wire types are OTLP's, and protobufjs skips the fields a message has and this does not name (a span's
 * trace state, links, flags; a scope's name). Names are the camelCase of OTLP's JSON encoding, so that a decoded
 * request reads like a JSON one (`spans.ts` reads both). `ScopeSpans` declares its spans as bytes: the request is
 * decoded down to them at once, each span then on its own, in slices.
 */
const repeated = (type: string, id: number) => ({ rule: 'repeated', type, id });
const ROOT = protobuf.Root.fromJSON({
  nested: {
    AnyValue: {
      oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] } },
      fields: {
        stringValue: { type: 'string', id: 1 },
        boolValue: { type: 'bool', id: 2 },
        intValue: { type: 'int64', id: 3 },
        doubleValue: { type: 'double', id: 4 },
        arrayValue: { type: 'ArrayValue', id: 5 },
        kvlistValue: { type: 'KeyValueList', id: 6 },
        bytesValue: { type: 'bytes', id: 7 },
      },
    },
    ArrayValue: { fields: { values: repeated('AnyValue', 1) } },
    KeyValueList: { fields: { values: repeated('KeyValue', 1) } },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
    Resource: { fields: { attributes: repeated('KeyValue', 1) } },
    ExportTraceServiceRequest: { fields: { resourceSpans: repeated('ResourceSpans', 1) } },
    ResourceSpans: { fields: { resource: { type: 'Resource', id: 1 }, scopeSpans: repeated('ScopeSpans', 2) } },
    ScopeSpans: { fields: { spans: repeated('bytes', 2) } },
    Span: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        parentSpanId: { type: 'bytes', id: 4 },
        name: { type: 'string', id: 5 },
        // An enum on the wire is a varint: read as its number, as OTLP's JSON sends it.
        kind: { type: 'int32', id: 6 },
        startTimeUnixNano: { type: 'fixed64', id: 7 },
        endTimeUnixNano: { type: 'fixed64', id: 8 },
        attributes: repeated('KeyValue', 9),
        events: repeated('SpanEvent', 11),
        status: { type: 'Status', id: 15 },
      },
    },
    SpanEvent: { fields: { timeUnixNano: { type: 'fixed64', id: 1 }, name: { type: 'string', id: 2 }, attributes: repeated('KeyValue', 3) } },
    Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
  },
});
const REQUEST = ROOT.lookupType('ExportTraceServiceRequest');
const SPAN = ROOT.lookupType('Span');
const TO_OBJECT = { longs: String };

interface Envelope {
  resourceSpans?: { resource?: unknown; scopeSpans?: { spans?: Uint8Array[] }[] }[];
}

/**
 * A protobuf `ExportTraceServiceRequest` as plain objects in the shape of OTLP's JSON encoding, but for ids and bytes,
 * which stay bytes (Uint8Array), and 64-bit integers, which are decimal strings; its spans decoded in slices with turns
 * of the event loop between them (an export of 8 MB takes some 100 ms to decode). Throws when the bytes are not one.
 */
export async function decodeTraceRequest(bytes: Uint8Array): Promise<unknown> {
  const request = REQUEST.toObject(REQUEST.decode(bytes), TO_OBJECT) as Envelope;
  const slices = new Slices();
  await slices.begin();
  for (const resourceSpans of request.resourceSpans ?? []) {
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      const spans: unknown[] = scopeSpans.spans ?? [];
      for (let i = 0; i < spans.length; i++) {
        if (slices.over) await slices.next();
        spans[i] = SPAN.toObject(SPAN.decode(spans[i] as Uint8Array), TO_OBJECT);
      }
    }
  }
  return request;
}
