import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestService } from './helpers';

// OTLP trace exports written by hand, in OTLP's JSON encoding, and the reads that check what they became.

export const hex = (bytes: number) => randomBytes(bytes).toString('hex');

type Value = string | number | boolean | Value[] | { [key: string]: Value };

/** A JS value as OTLP's `AnyValue` (integers as `intValue`, as the JS SDK encodes them). */
export function anyValue(value: Value): Record<string, unknown> {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: value } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  return { kvlistValue: { values: attributes(value) } };
}

export const attributes = (values: Record<string, Value>) => Object.entries(values).map(([key, value]) => ({ key, value: anyValue(value) }));

/** Nanoseconds since the epoch of an ISO time, as OTLP's JSON sends them (a decimal string). */
export const nanos = (iso: string, plusMs = 0) => String(BigInt(Date.parse(iso) + plusMs) * 1_000_000n);

export interface SpanSpec {
  traceId: string;
  spanId?: string;
  parentSpanId?: string;
  name: string;
  start?: string;
  /** Milliseconds after the start. */
  durationMs?: number;
  attributes?: Record<string, Value>;
  status?: { code: number; message?: string };
  events?: { name: string; attributes: Record<string, Value> }[];
}

export function span(spec: SpanSpec) {
  const start = spec.start ?? '2026-11-20T10:00:00.000Z';
  return {
    traceId: spec.traceId,
    spanId: spec.spanId ?? hex(8),
    ...(spec.parentSpanId ? { parentSpanId: spec.parentSpanId } : {}),
    name: spec.name,
    kind: 1,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(start, spec.durationMs ?? 1500),
    attributes: attributes(spec.attributes ?? {}),
    events: (spec.events ?? []).map((e) => ({ timeUnixNano: nanos(start), name: e.name, attributes: attributes(e.attributes) })),
    status: spec.status ?? { code: 0 },
  };
}

/** An `ExportTraceServiceRequest` of one resource and scope. */
export const exportOf = (spans: unknown[], resource: Record<string, Value> = { 'service.name': 'chatbot' }) => ({
  resourceSpans: [{ resource: { attributes: attributes(resource) }, scopeSpans: [{ scope: { name: 'test' }, spans }] }],
});

/** What the LLM API and the events API show of what was stored. */
export function reads(s: TestService) {
  const get = async (path: string) => {
    const res = await s.app.inject({ url: `/api/projects/${s.projectId}${path}`, headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  return {
    generations: async (traceId: string) => (await get(`/llm/generations/?trace_id=${traceId}`)).results as Record<string, unknown>[],
    trace: (traceId: string) => get(`/llm/traces/${traceId}/`),
    /** The stored events of a distinct id, by uuid. */
    events: async (distinctId: string) => {
      const { results } = await get(`/events/?distinct_id=${encodeURIComponent(distinctId)}&limit=1000`);
      return new Map((results as { id: string; event: string; properties: Record<string, unknown> }[]).map((e) => [e.id, e]));
    },
  };
}
