import { compileFlags, type CompiledFlags, type PropertyFilter } from '@service/flag-engine';
import type { FastifyBaseLogger } from 'fastify';
import type { IngestSlice, IngestStep } from '../capture/pipeline';
import type { Changes } from '../changes';
import type { Db } from '../db/database';
import type { Executor } from '../db/schema';
import type { Job } from '../module';
import type { Properties } from '../json';
import { Slices } from '../turns';
import { dayOf, firstDayOf } from './evaluation';
import { isBehavioral, leavesOf, windowDays, type BehavioralFilter, type CohortFilters } from './filters';
import { cohortStore, type CohortRow, type EventCount } from './store';

const DAY_MS = 86_400_000;

/** A behavioral leaf as ingestion counts it: its cohort, its place, and a matcher of its event filters (null: every event). */
interface CountedLeaf {
  cohortId: number;
  leaf: number;
  eventFilters: CompiledFlags | null;
}

const FILTER_KEY = 'event-filters';

/** A cohort's behavioral leaves, as ingestion counts them. */
function countedLeaves(row: CohortRow): Array<CountedLeaf & { event: string; filter: BehavioralFilter }> {
  if (row.is_static === 1 || !row.filters.includes('behavioral')) return [];
  return leavesOf(JSON.parse(row.filters) as CohortFilters)
    .filter(isBehavioral)
    .map((filter, leaf) => {
      const properties = (filter.event_filters ?? []).map((f) => ({ ...f, type: 'person' }) as PropertyFilter);
      const eventFilters = properties.length
        ? compileFlags([{ id: 0, key: FILTER_KEY, active: true, filters: { groups: [{ properties, rollout_percentage: 100 }] } }], { mode: 'server' })
        : null;
      return { cohortId: row.id, leaf, eventFilters, event: filter.key, filter };
    });
}

/** Whether an event's properties pass a leaf's event filters. */
function passes(leaf: CountedLeaf, distinctId: string, properties: Properties): boolean {
  if (!leaf.eventFilters) return true;
  const result = leaf.eventFilters.evaluate(FILTER_KEY, { distinctId, personProperties: properties, groups: {}, groupProperties: {} });
  return result !== undefined && !('inconclusive' in result) && result.enabled;
}

/** Adds one to a count of the map (keyed by cohort, leaf, distinct id and day). */
function countOne(counts: Map<string, EventCount>, leaf: CountedLeaf, distinctId: string, day: number) {
  const key = `${leaf.cohortId}\u0000${leaf.leaf}\u0000${distinctId}\u0000${day}`;
  const row = counts.get(key);
  if (row) row.count++;
  else counts.set(key, { cohort_id: leaf.cohortId, leaf: leaf.leaf, distinct_id: distinctId, day, count: 1 });
}

/** Rows a count statement writes at most (six values a row under SQLite's limit of bound values). */
const COUNT_ROWS = 1000;
const BACKFILL_PAGE = 5000;

async function storeCounts(db: Executor, projectId: number, counts: Map<string, EventCount>) {
  const rows = [...counts.values()];
  for (let i = 0; i < rows.length; i += COUNT_ROWS) await cohortStore.addCounts(db, projectId, rows.slice(i, i + COUNT_ROWS));
}

/**
 * Counts the stored events of a cohort's behavioral leaves within their windows, in the transaction that creates the
 * cohort or changes its filters (after its old counts are dropped): a new behavioral cohort knows the past at once, and
 * ingestion counts from then on.
 */
export async function backfillCounts(db: Executor, row: CohortRow, now = Date.now()): Promise<void> {
  await db.deleteFrom('cohort_event_counts').where('cohort_id', '=', row.id).execute();
  const slices = new Slices();
  await slices.begin();
  for (const leaf of countedLeaves(row)) {
    const since = new Date(firstDayOf(dayOf(now), windowDays(leaf.filter)) * DAY_MS).toISOString();
    const counts = new Map<string, EventCount>();
    for (let after = 0; ;) {
      const events = await db
        .selectFrom('events')
        .select(['id', 'distinct_id', 'properties', 'timestamp'])
        .where('project_id', '=', row.project_id)
        .where('event', '=', leaf.event)
        .where('timestamp', '>=', since)
        .where('id', '>', after)
        .orderBy('id')
        .limit(BACKFILL_PAGE)
        .execute();
      if (!events.length) break;
      after = events[events.length - 1]!.id;
      for (const event of events) {
        if (passes(leaf, event.distinct_id, JSON.parse(event.properties) as Properties))
          countOne(counts, leaf, event.distinct_id, dayOf(Date.parse(event.timestamp)));
        if (slices.over) await slices.next();
      }
    }
    await storeCounts(db, row.project_id, counts);
  }
}

/** The behavioral leaves of a project's live cohorts, by event name. */
async function leavesByEvent(db: Executor, projectId: number): Promise<Map<string, CountedLeaf[]>> {
  const byEvent = new Map<string, CountedLeaf[]>();
  for (const row of await cohortStore.live(db, projectId)) {
    for (const leaf of countedLeaves(row)) byEvent.set(leaf.event, [...(byEvent.get(leaf.event) ?? []), leaf]);
  }
  return byEvent;
}

/**
 * Keeps behavioral cohorts current at ingest: in the ingest transaction, each newly stored event a behavioral leaf counts
 * (its event, its event filters) adds one to the leaf's count of the person's distinct id and the event's UTC day, so
 * `/flags` answers from it as soon as the event is acknowledged. The leaves of a project are read once per change of
 * its cohorts (`flagsChanged`).
 */
export class BehavioralCounter {
  private readonly leaves = new Map<number, Promise<Map<string, CountedLeaf[]>>>();

  constructor(changes: Changes) {
    changes.on('flags', (projectId) => this.leaves.delete(projectId));
    changes.on('gap', () => this.leaves.clear());
  }

  readonly step: IngestStep = { record: (slice) => this.record(slice) };

  private leavesOf(db: Executor, projectId: number) {
    let leaves = this.leaves.get(projectId);
    if (!leaves) {
      leaves = leavesByEvent(db, projectId);
      this.leaves.set(projectId, leaves);
      leaves.catch(() => this.leaves.get(projectId) === leaves && this.leaves.delete(projectId));
    }
    return leaves;
  }

  private async record(slice: IngestSlice): Promise<void> {
    const byEvent = await this.leavesOf(slice.tx, slice.projectId);
    if (!byEvent.size) return;
    const counts = new Map<string, EventCount>();
    for (const event of slice.events) {
      const leaves = byEvent.get(event.event);
      if (!leaves || event.group) continue;
      const day = dayOf(Date.parse(event.timestamp));
      if (!Number.isFinite(day)) continue;
      for (const leaf of leaves) if (passes(leaf, event.distinctId, event.properties)) countOne(counts, leaf, event.distinctId, day);
    }
    if (counts.size) await storeCounts(slice.tx, slice.projectId, counts);
  }
}

/** How often behavioral counts past their windows are dropped. */
const EXPIRY_INTERVAL_MS = 60 * 60_000;

/**
 * Drops behavioral counts no window reaches any more (each leaf's days before its window) and those of deleted
 * cohorts: at start, then hourly. Membership itself never waits for it: `/flags` counts only the days in the window.
 */
export class CountExpiryJob implements Job {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async expire(now = Date.now()): Promise<void> {
    const today = dayOf(now);
    for (const row of await cohortStore.allDynamic(this.db.kysely)) {
      const leaves = leavesOf(JSON.parse(row.filters) as CohortFilters).filter(isBehavioral);
      for (const [leaf, filter] of leaves.entries()) await cohortStore.expireLeaf(this.db.kysely, row.id, leaf, firstDayOf(today, windowDays(filter)));
    }
    await cohortStore.dropCountsOfDeleted(this.db.kysely);
  }

  start() {
    const round = () => {
      this.running = this.expire().catch((error: unknown) => this.log.warn({ err: error }, 'cohorts: expiring behavioral counts failed'));
    };
    round();
    this.timer = setInterval(round, EXPIRY_INTERVAL_MS);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    await this.running;
  }
}
