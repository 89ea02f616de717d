import type { RrwebEvent, SessionEvent } from './types';

/** rrweb's event types and the incremental sources that a person's own actions make (rrweb's `EventType`, `IncrementalSource`). */
export const FULL_SNAPSHOT = 2;
export const INCREMENTAL = 3;
export const META = 4;
const USER_SOURCES = new Set([1, 2, 3, 4, 5, 6, 7, 12]); // mouse move, mouse interaction, scroll, resize, input, touch, media, drag

/** rrweb's own threshold for skipping: a gap longer than this between a person's actions is inactivity. */
export const INACTIVITY_MS = 10_000;

/** `m:ss` (or `h:mm:ss`) of a number of seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A duration in words for lists and metadata: "45 s", "3 min 5 s", "1 h 2 min". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${m ? ` ${m} min` : ''}`;
}

/** Bytes in words: "812 B", "4.2 KB", "1.3 MB". */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** Whether the replayer can draw the recording: it needs a full snapshot (and the meta event before it). */
export function playable(events: RrwebEvent[]): boolean {
  return events.some((e) => e.type === FULL_SNAPSHOT) && events.some((e) => e.type === META);
}

/** The recording's first and last timestamps (ms): the player's time 0 is the first. */
export function bounds(events: RrwebEvent[]): { start: number; end: number } {
  let start = Infinity;
  let end = -Infinity;
  for (const e of events) {
    if (e.timestamp < start) start = e.timestamp;
    if (e.timestamp > end) end = e.timestamp;
  }
  return Number.isFinite(start) ? { start, end } : { start: 0, end: 0 };
}

const isUserAction = (e: RrwebEvent) => e.type === INCREMENTAL && USER_SOURCES.has((e.data as { source?: number } | null)?.source ?? -1);

/**
 * The stretches (ms from the start) with no action of the person for longer than `threshold`: drawn on the timeline,
 * and what "skip inactivity" plays fast. The recording's end counts as an action, so a quiet tail is inactive too.
 */
export function inactivePeriods(events: RrwebEvent[], threshold = INACTIVITY_MS): [number, number][] {
  const { start, end } = bounds(events);
  const periods: [number, number][] = [];
  let last = start;
  for (const e of events) {
    if (!isUserAction(e)) continue;
    if (e.timestamp - last > threshold) periods.push([last - start, e.timestamp - start]);
    last = Math.max(last, e.timestamp);
  }
  if (end - last > threshold) periods.push([last - start, end - start]);
  return periods;
}

export type MarkerKind = 'pageview' | 'click' | 'custom' | 'exception';

export interface Marker {
  id: string;
  kind: MarkerKind;
  /** ms from the start of the recording, within it. */
  offset: number;
  label: string;
  event: SessionEvent;
}

export const MARKER_INFO: Record<MarkerKind, { label: string; color: string }> = {
  pageview: { label: 'Pageview', color: 'blue' },
  click: { label: 'Click', color: 'grape' },
  custom: { label: 'Event', color: 'teal' },
  exception: { label: 'Exception', color: 'red' },
};

/** What an event is on the timeline, or undefined for the SDK's own events that it leaves out ($identify, $set…). */
export function kindOf(e: SessionEvent): MarkerKind | undefined {
  if (e.event === '$pageview') return 'pageview';
  if (e.event === '$exception') return 'exception';
  if (e.event === '$autocapture') return e.properties.$event_type === 'click' || !e.properties.$event_type ? 'click' : undefined;
  if (e.event === '$rageclick' || e.event === '$dead_click') return 'click';
  return e.event.startsWith('$') ? undefined : 'custom';
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** A line of text for an event: the page of a pageview, the text clicked, the exception's type and message. */
export function describe(e: SessionEvent): string {
  const p = e.properties;
  switch (kindOf(e)) {
    case 'pageview':
      return text(p.$pathname) ?? text(p.$current_url) ?? 'Pageview';
    case 'click':
      return text(p.$el_text) ? `Clicked "${text(p.$el_text)}"` : e.event === '$rageclick' ? 'Rage click' : 'Click';
    case 'exception': {
      const types = Array.isArray(p.$exception_types) ? p.$exception_types.filter((t) => typeof t === 'string').join(', ') : text(p.$exception_types);
      return [types, text(p.$exception_message)].filter(Boolean).join(': ') || 'Exception';
    }
    default:
      return e.event;
  }
}

/** The timeline's markers: the session's events placed at their time in the recording (clamped into it). */
export function markersOf(events: SessionEvent[], start: number, total: number): Marker[] {
  const markers: Marker[] = [];
  for (const e of events) {
    const kind = kindOf(e);
    const at = Date.parse(e.timestamp);
    if (!kind || Number.isNaN(at)) continue;
    markers.push({ id: e.uuid, kind, offset: Math.min(Math.max(at - start, 0), total), label: describe(e), event: e });
  }
  return markers.sort((a, b) => a.offset - b.offset);
}

/** Markers close enough to overlap on the timeline, drawn as one: at the first's place, in the colour of the most telling. */
export interface MarkerGroup {
  offset: number;
  kind: MarkerKind;
  markers: Marker[];
}

const WEIGHT: Record<MarkerKind, number> = { exception: 3, pageview: 2, click: 1, custom: 0 };

/** Groups markers nearer than `fraction` of the recording's length to the group's first (markers in time order). */
export function groupMarkers(markers: Marker[], total: number, fraction = 0.012): MarkerGroup[] {
  const groups: MarkerGroup[] = [];
  for (const m of markers) {
    const last = groups.at(-1);
    if (last && m.offset - last.offset <= total * fraction) {
      last.markers.push(m);
      if (WEIGHT[m.kind] > WEIGHT[last.kind]) last.kind = m.kind;
    } else groups.push({ offset: m.offset, kind: m.kind, markers: [m] });
  }
  return groups;
}
