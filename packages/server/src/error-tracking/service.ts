import { changesBetween, recordActivity } from '../activity/service';
import type { Actor } from '../http/actor';
import type { Db } from '../db/database';
import { lockIngest } from '../db/ingest-lock';
import { PAGE_MAX_BYTES } from '../db/page';
import type { Executor } from '../db/schema';
import { NotFoundError, ValidationError } from '../errors';
import { isUuid } from '../uuid';
import { mergeIssues } from './issue-merge';
import { ReleaseRegrouping } from './regroup';
import type { ResolveFrames } from './ingest';
import { wholeProperties } from '../events/store';
import { issueStore, type IssueFilter, type IssueOrder, type IssueRow, type OccurrenceEvent } from './store';

export const STATUSES = ['active', 'resolved', 'suppressed'] as const;
export type IssueStatus = (typeof STATUSES)[number];

/** Days of volume when none are asked for, and the most that may be. */
export const DEFAULT_VOLUME_DAYS = 14;
export const MAX_VOLUME_DAYS = 90;
/** Most issues merged into one at once. */
export const MAX_MERGE = 100;

const DAY_MS = 86_400_000;

/** An issue as the API shows it. */
export function toIssue(row: IssueRow, fingerprints: string[]) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as IssueStatus,
    first_seen: row.first_seen,
    last_seen: row.last_seen,
    occurrences: Number(row.occurrences),
    people: Number(row.people),
    regressed_at: row.regressed_at,
    fingerprints,
  };
}
export type Issue = ReturnType<typeof toIssue>;

const toEvent = (e: OccurrenceEvent) => ({
  uuid: e.uuid,
  distinct_id: e.distinct_id,
  timestamp: e.timestamp,
  properties: wholeProperties(e.properties, e.stacks),
});

export interface IssuePatch {
  status?: string;
  name?: string;
  description?: string;
}

/**
 * Error tracking issues: `$exception` events grouped by fingerprint (ingest.ts groups them as they are stored). Lists,
 * one issue with its latest event, volume, events and people; status and text changes and merges, logged in the
 * activity log. Changes take the project's ingest lock on PostgreSQL, so that ingestion never counts into an issue a
 * merge is deleting, nor reopens one under a status change.
 */
export class ErrorTrackingService {
  private readonly regrouping: ReleaseRegrouping | undefined;

  constructor(
    private readonly db: Db,
    private readonly resolve?: ResolveFrames,
  ) {
    this.regrouping = resolve && new ReleaseRegrouping(db, resolve);
  }

  /**
   * Regroups the release's open issues with the maps it has now (regroup.ts), after the caller has moved on: call it
   * once a release's source map has been uploaded. Resolves once the run is over (tests wait for it).
   */
  regroup(projectId: number, release: string, actor: Actor): Promise<void> {
    return this.regrouping?.schedule(projectId, release, actor) ?? Promise.resolve();
  }

  /** Resolves once no regrouping waits or is under way. */
  settled(): Promise<void> {
    return this.regrouping?.settled() ?? Promise.resolve();
  }

  /** Waits for regrouping under way to stop. */
  close(): Promise<void> {
    return this.regrouping?.close() ?? Promise.resolve();
  }

  async list(projectId: number, filter: IssueFilter) {
    const { count, rows } = await issueStore.page(this.db.kysely, projectId, filter);
    const fingerprints = await issueStore.fingerprints(
      this.db.kysely,
      rows.map((r) => r.id),
    );
    return { count, results: rows.map((r) => toIssue(r, fingerprints.get(r.id) ?? [])) };
  }

  /** An issue with its latest event (null when its events were deleted). */
  async get(projectId: number, id: string) {
    const row = await this.row(this.db.kysely, projectId, id);
    const [issue, latest] = await Promise.all([this.issue(this.db.kysely, row), issueStore.latestEvent(this.db.kysely, projectId, row.id)]);
    return { ...issue, latest_event: latest ? toEvent(latest) : null };
  }

  /** Occurrences and people per UTC day over the last `days` days (today included), oldest first, zeros included. */
  async volume(projectId: number, id: string, days: number) {
    const row = await this.row(this.db.kysely, projectId, id);
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const dates = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
    const counted = new Map((await issueStore.volume(this.db.kysely, row.id, dates[0]!)).map((r) => [r.date, r]));
    return {
      interval: 'day' as const,
      points: dates.map((date) => ({ date, occurrences: Number(counted.get(date)?.occurrences ?? 0), people: Number(counted.get(date)?.people ?? 0) })),
    };
  }

  /** A page of the issue's events, newest first. */
  async events(projectId: number, id: string, limit: number, offset: number) {
    const row = await this.row(this.db.kysely, projectId, id);
    const { count, rows } = await issueStore.events(this.db.kysely, projectId, row.id, limit, offset, PAGE_MAX_BYTES);
    return { count, results: rows.map(toEvent) };
  }

  /** A page of the people (distinct ids) the issue affected, most occurrences first. */
  async people(projectId: number, id: string, limit: number, offset: number) {
    const row = await this.row(this.db.kysely, projectId, id);
    const { count, rows } = await issueStore.people(this.db.kysely, projectId, row.id, limit, offset);
    return {
      count,
      results: rows.map((p) => ({
        distinct_id: p.distinct_id,
        person_id: p.person_id,
        occurrences: Number(p.occurrences),
        last_seen: p.last_seen,
        properties: p.properties === null ? {} : (JSON.parse(p.properties) as Record<string, unknown>),
      })),
    };
  }

  /** Changes an issue's status, name or description. */
  update(projectId: number, id: string, patch: IssuePatch, actor: Actor): Promise<Issue> {
    return this.change(projectId, async (tx) => {
      const before = await this.row(tx, projectId, id);
      const changes: Partial<IssueRow> = {};
      if (patch.status !== undefined) changes.status = patch.status;
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.description !== undefined) changes.description = patch.description;
      const after = { ...before, ...changes };
      const changed = changesBetween(before, after, ['name', 'description', 'status']);
      if (changed.length) {
        await issueStore.update(tx, before.id, { ...changes, updated_at: new Date().toISOString() });
        await recordActivity(tx, actor, { projectId, scope: 'ErrorTrackingIssue', itemId: before.id, activity: 'updated', name: after.name, changes: changed });
      }
      return this.issue(tx, after);
    });
  }

  /** Merges the issues `ids` into issue `id`: their fingerprints, occurrences and people move to it, and they are deleted. */
  merge(projectId: number, id: string, ids: string[], actor: Actor): Promise<Issue> {
    return this.change(projectId, async (tx) => {
      const into = await this.row(tx, projectId, id);
      const wanted = [...new Set(ids.map((i) => i.toLowerCase()))];
      if (wanted.includes(into.id)) throw new ValidationError('An issue cannot be merged into itself.', 'ids');
      const found = wanted.every(isUuid) ? await issueStore.many(tx, projectId, wanted) : [];
      const others = found.sort((a, b) => wanted.indexOf(a.id) - wanted.indexOf(b.id));
      const missing = wanted.filter((w) => !others.some((o) => o.id === w));
      if (missing.length) throw new ValidationError(`No issue ${missing[0]} in this project.`, 'ids', 'does_not_exist');
      const merged = await mergeIssues(tx, this.db.dialect, into, others, actor);
      return toIssue(merged.row, merged.fingerprints);
    });
  }

  /** Runs a change in a transaction holding the project's ingest lock (PostgreSQL; SQLite has one writer). */
  private change<T>(projectId: number, run: (tx: Executor) => Promise<T>): Promise<T> {
    return this.db.kysely.transaction().execute(async (tx) => {
      await lockIngest(tx, this.db.dialect, projectId);
      return run(tx);
    });
  }

  private async row(db: Executor, projectId: number, id: string): Promise<IssueRow> {
    const row = isUuid(id) ? await issueStore.get(db, projectId, id.toLowerCase()) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }

  private async issue(db: Executor, row: IssueRow): Promise<Issue> {
    return toIssue(row, (await issueStore.fingerprints(db, [row.id])).get(row.id) ?? []);
  }
}

export type { IssueOrder };
