import { compileFlags, type CompiledFlags, type PropertyFilter } from '@service/flag-engine';
import type { FastifyBaseLogger } from 'fastify';
import type { IngestSlice, IngestStep } from '../capture/pipeline';
import type { Changes } from '../changes';
import type { Db } from '../db/database';
import type { Executor } from '../db/schema';
import type { Job } from '../module';
import { dayOf, firstDayOf } from './evaluation';
import { isBehavioral, leavesOf, windowDays, type CohortFilters } from './filters';
import { cohortStore, type EventCount } from './store';

/** A behavioral leaf as ingestion counts it: its cohort, its place, and a matcher of its event filters (null: every event). */
interface CountedLeaf {
  cohortId: number;
  leaf: number;
  eventFilters: CompiledFlags | null;
}

const FILTER_KEY = 'event-filters';

/** The behavioral leaves of a project's live cohorts, by event name. */
async function leavesByEvent(db: Executor, projectId: number): Promise<Map<string, CountedLeaf[]>> {
  const byEvent = new Map<string, CountedLeaf[]>();
  for (const row of await cohortStore.live(db, projectId)) {
    if (row.is_static === 1 || !row.filters.includes('behavioral')) continue;
    leavesOf(JSON.parse(row.filters) as CohortFilters)
      .filter(isBehavioral)
      .forEach((filter, leaf) => {
        const properties = (filter.event_filters ?? []).map((f) => ({ ...f, type: 'person' }) as PropertyFilter);
        const eventFilters = properties.length
          ? compileFlags([{ id: 0, key: FILTER_KEY, active: true, filters: { groups: [{ properties, rollout_percentage: 100 }] } }], { mode: 'server' })
          : null;
        byEvent.set(filter.key, [...(byEvent.get(filter.key) ?? []), { cohortId: row.id, leaf, eventFilters }]);
      });
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
      for (const { cohortId, leaf, eventFilters } of leaves) {
        if (eventFilters) {
          const ctx = { distinctId: event.distinctId, personProperties: event.properties, groups: {}, groupProperties: {} };
          const result = eventFilters.evaluate(FILTER_KEY, ctx);
          if (!result || 'inconclusive' in result || !result.enabled) continue;
        }
        const key = `${cohortId}\u0000${leaf}\u0000${event.distinctId}\u0000${day}`;
        const row = counts.get(key);
        if (row) row.count++;
        else counts.set(key, { cohort_id: cohortId, leaf, distinct_id: event.distinctId, day, count: 1 });
      }
    }
    if (counts.size) await cohortStore.addCounts(slice.tx, slice.projectId, [...counts.values()]);
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
