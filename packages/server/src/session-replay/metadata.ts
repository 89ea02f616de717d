import { storable } from '../db/text';
import { isObject } from '../json';
import { EventType, Source, type RrwebEvent } from './decode';

/** What a batch of rrweb events tells of its session, merged into `replay_sessions` at ingest. */
export interface BatchMetadata {
  /** Earliest and latest event times, ms since the epoch. */
  start: number;
  end: number;
  activeMs: number;
  clicks: number;
  keypresses: number;
  consoleLogs: number;
  consoleWarns: number;
  consoleErrors: number;
  /** Pages visited, in order, each once: Meta events' `href`, then the batch's `$current_url`. */
  urls: string[];
}

/** Gaps between user interactions up to this long count as active time (PostHog's threshold). */
export const ACTIVITY_GAP_MS = 5000;

/** Incremental sources that are a person's doing (PostHog's active sources): mouse, scroll, resize, input, touch, media, drag. */
const ACTIVE_SOURCES = new Set([1, 2, 3, 4, 5, 6, 7, 12]);
/** MouseInteraction types that are clicks: Click, DblClick. */
const CLICKS = new Set([2, 4]);
const CONSOLE_PLUGIN = 'rrweb/console@1';
/** Longest URL kept: longer ones are cut (and made storable, as other client strings). */
const MAX_URL_LENGTH = 2048;

/**
 * The metadata of a batch's decoded events. Active time is the sum of the gaps of at most ACTIVITY_GAP_MS between
 * consecutive user interactions, as PostHog counts it (per batch: a gap across two batches is not counted).
 */
export function batchMetadata(events: readonly RrwebEvent[], currentUrl: string | undefined): BatchMetadata {
  const meta: BatchMetadata = {
    start: Infinity,
    end: -Infinity,
    activeMs: 0,
    clicks: 0,
    keypresses: 0,
    consoleLogs: 0,
    consoleWarns: 0,
    consoleErrors: 0,
    urls: [],
  };
  const active: number[] = [];
  const urls = new Set<string>();
  for (const event of events) {
    if (event.timestamp < meta.start) meta.start = event.timestamp;
    if (event.timestamp > meta.end) meta.end = event.timestamp;
    const data = isObject(event.data) ? event.data : undefined;
    if (!data) continue;
    if (event.type === EventType.IncrementalSnapshot && typeof data.source === 'number') {
      if (ACTIVE_SOURCES.has(data.source)) active.push(event.timestamp);
      if (data.source === Source.MouseInteraction && typeof data.type === 'number' && CLICKS.has(data.type)) meta.clicks++;
      if (data.source === Source.Input) meta.keypresses++;
    } else if (event.type === EventType.Meta && typeof data.href === 'string' && data.href) {
      urls.add(storable(data.href, MAX_URL_LENGTH));
    } else if (event.type === EventType.Plugin && data.plugin === CONSOLE_PLUGIN && isObject(data.payload)) {
      const level = data.payload.level;
      if (level === 'error' || level === 'assert') meta.consoleErrors++;
      else if (level === 'warn') meta.consoleWarns++;
      else meta.consoleLogs++;
    }
  }
  if (currentUrl) urls.add(storable(currentUrl, MAX_URL_LENGTH));
  meta.urls = [...urls];
  active.sort((a, b) => a - b);
  for (let i = 1; i < active.length; i++) {
    const gap = active[i]! - active[i - 1]!;
    if (gap <= ACTIVITY_GAP_MS) meta.activeMs += gap;
  }
  return meta;
}
