import { sql } from 'kysely';
import { recordActivity } from '../activity/service';
import type { Actor } from '../http/actor';
import { INGEST_LOCK } from '../db/ingest-lock';
import type { Db } from '../db/database';
import type { Executor } from '../db/schema';
import { wholeProperties } from '../events/store';
import type { ExceptionEntry } from './exception';
import { mergeIssues } from './issue-merge';
import { resolvedList, type ResolveFrames } from './ingest';
import { issueStore, type IssueRow } from './store';

/** How far back regrouping looks: open issues seen, and their occurrences, in this many days before the maps arrived. */
export const REGROUP_DAYS = 30;
/** Distinct stacks (with their fingerprint) read again in one run. */
const MAX_STACKS = 5_000;
/** Issues, or events, per query. */
const CHUNK = 200;
const DAY_MS = 86_400_000;

/** Why the activity log shows a change regrouping made. */
const reason = (release: string) => ({ field: 'source_maps_uploaded', before: null, after: { release } });

/**
 * Regrouping a release's issues once its source maps arrive. An error captured before its maps were uploaded was
 * grouped by its minified frames; the same error afterwards is grouped by its original ones: another fingerprint, so
 * another issue. A run reads again one event of each distinct stack of the release among the project's open issues
 * (active or suppressed) seen in the last REGROUP_DAYS, maps its frames through the maps now there and fingerprints it
 * as ingestion would; each new fingerprint then names the issue the old one names, and open issues that now share a
 * fingerprint are merged into the oldest (its id, name and status stay; the others' occurrences and people move to it),
 * as the activity log says, in the name of whoever uploaded the maps. Ingestion after that counts the error into the
 * one issue. A resolved issue is left as it is. A run changes nothing it already changed: it may run again at any time.
 *
 * Runs take place in this process, after the upload has answered: one at a time for a release, and uploads of the
 * release during a run make one more run after it (the CLI uploads a release's maps one after another).
 */
export class ReleaseRegrouping {
  /** By project and release: the run waiting to start, and the one under way. */
  private readonly waiting = new Map<string, Promise<void>>();
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly resolve: ResolveFrames,
  ) {}

  /** Regroups the release's issues after the run under way, if any; resolves once that run has ended. */
  schedule(projectId: number, release: string, actor: Actor): Promise<void> {
    const key = `${projectId}\n${release}`;
    const waiting = this.waiting.get(key);
    if (waiting) return waiting;
    const before = this.running.get(key) ?? Promise.resolve();
    const run = before
      .catch(() => undefined)
      .then(() => {
        this.waiting.delete(key);
        if (this.stopped) return undefined;
        const current = this.regroup(projectId, release, actor).finally(() => {
          if (this.running.get(key) === current) this.running.delete(key);
        });
        this.running.set(key, current);
        return current;
      });
    this.waiting.set(key, run);
    return run;
  }

  /** Resolves once no run waits or is under way. */
  async settled(): Promise<void> {
    while (this.waiting.size || this.running.size) await Promise.allSettled([...this.waiting.values(), ...this.running.values()]);
  }

  /** Waits for the runs under way to stop (between two steps); those waiting do not start. */
  close(): Promise<void> {
    this.stopped = true;
    return this.settled();
  }

  private async regroup(projectId: number, release: string, actor: Actor): Promise<void> {
    const since = new Date(Date.now() - REGROUP_DAYS * DAY_MS).toISOString();
    const { kysely, dialect } = this.db;
    const issues = await issueStore.openSince(kysely, projectId, since);
    const eventIds: number[] = [];
    for (let i = 0; i < issues.length && eventIds.length < MAX_STACKS && !this.stopped; i += CHUNK) {
      const chunk = issues.slice(i, i + CHUNK);
      eventIds.push(...(await issueStore.releaseStacks(kysely, dialect, projectId, chunk, since, release, MAX_STACKS - eventIds.length)));
    }
    // Old fingerprint → the fingerprints its events have now.
    const regrouped = new Map<string, Set<string>>();
    for (let i = 0; i < eventIds.length && !this.stopped; i += CHUNK) {
      for (const event of await issueStore.eventsWithStacks(kysely, projectId, eventIds.slice(i, i + CHUNK))) {
        const found = await this.fingerprintNow(projectId, release, wholeProperties(event.properties, event.stacks));
        if (!found) continue;
        const now = regrouped.get(found.before) ?? new Set();
        regrouped.set(found.before, now.add(found.now));
      }
    }
    if (!regrouped.size || this.stopped) return;
    await kysely.transaction().execute(async (tx) => {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${INGEST_LOCK}, ${projectId})`.execute(tx);
      await this.apply(tx, projectId, release, regrouped, actor);
    });
  }

  /**
   * A stored exception's fingerprint and the one it has with the maps there are now; undefined when they are the same,
   * when the client chose it (`$exception_fingerprint`), or when a frame could not be mapped this time (the budget of
   * loads, a busy worker): a fingerprint of half-mapped frames would name nothing ingestion makes.
   */
  private async fingerprintNow(projectId: number, release: string, properties: Record<string, unknown>) {
    const before = properties.$exception_fingerprint;
    const list = properties.$exception_list;
    if (typeof before !== 'string' || before !== properties.$exception_proposed_fingerprint || !Array.isArray(list)) return undefined;
    const resolved = await resolvedList(list as ExceptionEntry[], projectId, release, this.resolve);
    if (!resolved || resolved.proposed === before) return undefined;
    if (resolved.list.some((x) => x.stacktrace?.frames.some((f) => f.resolve_failure !== undefined))) return undefined;
    return { before, now: resolved.proposed };
  }

  /** Gives each new fingerprint to the open issue of its old one, and merges open issues that share one. */
  private async apply(tx: Executor, projectId: number, release: string, regrouped: Map<string, Set<string>>, actor: Actor) {
    const news = [...new Set([...regrouped.values()].flatMap((s) => [...s]))];
    const olds = await issueStore.byFingerprints(tx, projectId, [...regrouped.keys()]);
    const taken = await issueStore.byFingerprints(tx, projectId, news);
    const open = (status: string) => status === 'active' || status === 'suppressed';
    // Issues that are one error, as a union-find over their ids; each new fingerprint's issue.
    const parent = new Map<string, string>();
    const root = (id: string): string => {
      if (!parent.has(id)) parent.set(id, id);
      let r = id;
      while (parent.get(r) !== r) r = parent.get(r)!;
      parent.set(id, r);
      return r;
    };
    const union = (a: string, b: string) => parent.set(root(a), root(b));
    const owner = new Map<string, string>();
    for (const [before, fingerprints] of regrouped) {
      const issue = olds.get(before);
      if (!issue || !open(issue.status)) continue;
      root(issue.id);
      for (const fingerprint of fingerprints) {
        const other = taken.get(fingerprint)?.id ?? owner.get(fingerprint);
        if (other === undefined) owner.set(fingerprint, issue.id);
        else if (!taken.has(fingerprint) || open(taken.get(fingerprint)!.status)) union(issue.id, other);
      }
    }
    if (!parent.size) return;
    const rows = await issueStore.many(tx, projectId, [...parent.keys()]);
    const groups = new Map<string, IssueRow[]>();
    for (const row of rows) groups.set(root(row.id), [...(groups.get(root(row.id)) ?? []), row]);
    const kept = new Map<string, string>();
    for (const group of groups.values()) {
      const [oldest, ...others] = group.sort(
        (a, b) => a.first_seen.localeCompare(b.first_seen) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
      );
      for (const row of group) kept.set(row.id, oldest!.id);
      if (others.length) await mergeIssues(tx, this.db.dialect, oldest!, others, actor, [reason(release)]);
    }
    const now = new Date().toISOString();
    const added = [...owner].flatMap(([fingerprint, id]) =>
      kept.has(id) ? [{ project_id: projectId, fingerprint, issue_id: kept.get(id)!, created_at: now }] : [],
    );
    const before = await issueStore.fingerprints(tx, [...new Set(added.map((a) => a.issue_id))]);
    await issueStore.insertFingerprints(tx, added);
    for (const [issueId, fingerprints] of before) {
      const row = rows.find((r) => r.id === issueId)!;
      await recordActivity(tx, actor, {
        projectId,
        scope: 'ErrorTrackingIssue',
        itemId: issueId,
        activity: 'updated',
        name: row.name,
        changes: [
          { field: 'fingerprints', before: fingerprints, after: [...fingerprints, ...added.filter((a) => a.issue_id === issueId).map((a) => a.fingerprint)] },
          reason(release),
        ],
      });
    }
  }
}
