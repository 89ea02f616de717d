import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import type { Db } from '../db/database';
import { lockIngest } from '../db/ingest-lock';
import type { Database } from '../db/schema';
import { OverloadedError } from '../errors';
import type { Properties } from '../json';
import type { CaptureBody } from './body';
import { GroupCommit, QueueFullError } from './group-commit';
import { normalizeEvents, type NormalizedEvents } from './normalize';
import { IngestPipeline, type CapturedEvent } from './pipeline';
import { eventWrites, type NewEvent, type NewExceptionStacks, type NewLlmPayload } from './store';

/** The distinct stack traces `events` name, as rows of `exception_stacks`. */
function stacksOf(projectId: number, events: CapturedEvent[], createdAt: string): NewExceptionStacks[] {
  const rows = new Map<string, NewExceptionStacks>();
  for (const { exceptionStacks: stacks } of events) {
    if (stacks && !rows.has(stacks.hash)) rows.set(stacks.hash, { project_id: projectId, hash: stacks.hash, stacks: stacks.json, created_at: createdAt });
  }
  return [...rows.values()];
}

/** The distinct LLM inputs and outputs `events` name, as rows of `llm_payloads`. */
function payloadsOf(projectId: number, events: CapturedEvent[], createdAt: string): NewLlmPayload[] {
  const rows = new Map<string, NewLlmPayload>();
  for (const { llmPayloads } of events) {
    for (const { hash, json } of llmPayloads?.values ?? []) {
      if (!rows.has(hash)) rows.set(hash, { project_id: projectId, hash, payload: json, created_at: createdAt });
    }
  }
  return [...rows.values()];
}

export const overloaded = () => new OverloadedError('The service is busy storing events. Retry in a moment.');

/**
 * Events per transaction on PostgreSQL: larger backlogs (and requests) are split so that one commit stays short;
 * fewer, larger commits cost less time in all.
 */
const MAX_EVENTS_PER_COMMIT = 10_000;
/**
 * Events per transaction on SQLite, where a commit's fsync of the WAL holds the event loop, for as long as the
 * transaction wrote (some 40 ms for 10,000 events); checkpoints run in a worker (db/checkpointer.ts).
 */
const SQLITE_EVENTS_PER_COMMIT = 2_000;
/**
 * Events stored between two turns of the event loop on SQLite, where every statement runs synchronously: a
 * slice bounds how long other requests wait (500 events take some tens of milliseconds). PostgreSQL queries
 * wait on the network, not on the event loop, and each slice costs round trips: there a transaction is one slice.
 */
const SQLITE_EVENTS_PER_SLICE = 500;

interface Pending {
  projectId: number;
  event: CapturedEvent;
}

/**
 * Stores captured events and runs the pipeline's steps over them, durably: `capture` resolves only after the
 * transaction holding its events (and everything the steps recorded of them) has committed. Concurrent captures share
 * transactions (group commit).
 */
export class IngestService {
  private readonly writer: GroupCommit<Pending>;
  private readonly perCommit: number;

  constructor(
    private readonly db: Db,
    options: { maxPendingEvents: number },
    /** The steps that domains add (`IngestPipeline.use`); none: events are stored, nothing more. */
    readonly pipeline = new IngestPipeline(),
  ) {
    this.perCommit = db.dialect === 'sqlite' ? SQLITE_EVENTS_PER_COMMIT : MAX_EVENTS_PER_COMMIT;
    this.writer = new GroupCommit((items) => this.commit(items), { maxPending: options.maxPendingEvents, maxPerCommit: this.perCommit });
  }

  /** The events of a capture body, validated and marked by the pipeline's steps (see `normalizeEvents`). */
  normalize(body: CaptureBody, query: Properties, maxEventBytes: number): Promise<NormalizedEvents> {
    return normalizeEvents(body, query, maxEventBytes, this.pipeline);
  }

  /** Prepares the events (the steps' `prepare`), then resolves once they are committed; 503 `overloaded` when too many are waiting. */
  capture(projectId: number, events: CapturedEvent[]): Promise<void> {
    const prepared = this.pipeline.prepare(projectId, events);
    return prepared ? prepared.then(() => this.write(projectId, events)) : this.write(projectId, events);
  }

  private async write(projectId: number, events: CapturedEvent[]): Promise<void> {
    try {
      await this.writer.write(events.map((event) => ({ projectId, event })));
    } catch (error) {
      if (error instanceof QueueFullError) throw overloaded();
      throw error;
    }
  }

  /** Stops taking events and waits until every accepted one is committed. */
  close(): Promise<void> {
    return this.writer.close();
  }

  /** Commits `items` in order, in transactions of at most `perCommit` events. */
  private async commit(items: Pending[]) {
    for (let start = 0; start < items.length; start += this.perCommit) await this.commitOne(items.slice(start, start + this.perCommit));
  }

  /** Stores `items` in one transaction, by project, then runs what the steps left for after the commit. */
  private async commitOne(items: Pending[]) {
    const byProject = new Map<number, CapturedEvent[]>();
    for (const { projectId, event } of items) {
      const list = byProject.get(projectId);
      if (list) list.push(event);
      else byProject.set(projectId, [event]);
    }
    const projects = [...byProject.keys()].sort((a, b) => a - b);
    const afterCommit: Array<() => void> = [];
    await this.db.kysely.transaction().execute(async (tx) => {
      for (const projectId of projects) await this.storeProject(tx, projectId, byProject.get(projectId)!, afterCommit);
    });
    for (const then of afterCommit) then();
  }

  /** Stores a project's events and runs the steps over those newly stored, slice by slice, in order. */
  private async storeProject(tx: Transaction<Database>, projectId: number, events: CapturedEvent[], afterCommit: Array<() => void>) {
    // Another instance on the same PostgreSQL database may be ingesting this project's events right now.
    await lockIngest(tx, this.db.dialect, projectId);
    const createdAt = new Date().toISOString();
    const perSlice = this.db.dialect === 'sqlite' ? SQLITE_EVENTS_PER_SLICE : events.length;
    for (let start = 0; start < events.length; start += perSlice) {
      // Other requests run meanwhile; the transaction stays open (queries on its connection wait for the commit).
      await nextTurn();
      const slice = events.slice(start, start + perSlice);
      const rows: NewEvent[] = slice.map((e) => ({
        project_id: projectId,
        uuid: e.uuid,
        event: e.event,
        distinct_id: e.distinctId,
        properties: e.propertiesJson,
        timestamp: e.timestamp,
        created_at: createdAt,
        exception_stacks: e.exceptionStacks?.hash ?? null,
        session_id: e.sessionId ?? null,
        llm_payloads: e.llmPayloads?.places ?? null,
        llm_payload_bytes: e.llmPayloads?.bytes ?? null,
      }));
      await eventWrites.insertStacks(tx, stacksOf(projectId, slice, createdAt));
      await eventWrites.insertPayloads(tx, payloadsOf(projectId, slice, createdAt));
      const inserted = await eventWrites.insert(tx, this.db.dialect, rows);
      // The steps see each stored event once: a duplicate (a retried batch, say) changes nothing.
      const fresh = slice.filter((e) => inserted.delete(e.uuid));
      await this.pipeline.record({
        tx,
        dialect: this.db.dialect,
        projectId,
        events: fresh,
        personUuid: () => undefined,
        afterCommit: (then) => afterCommit.push(then),
      });
    }
  }
}
