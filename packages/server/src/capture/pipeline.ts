import type { Transaction } from 'kysely';
import type { Dialect } from '../db/database';
import type { Database } from '../db/schema';
import type { Properties } from '../json';
import type { StoredPayloads, StoredStacks } from './store';

/** A group's properties an event sets: its type, its key, and the properties. */
export interface GroupSet {
  type: string;
  key: string;
  properties: Properties;
}

/**
 * An event at the door, validated, as the steps' `mark` sees it: before its `$set`, `$set_once` and `$unset` are written
 * into its properties and before it is measured. A step may add to those, or make it a group's event.
 */
export interface EventDraft {
  readonly event: string;
  readonly distinctId: string;
  readonly properties: Properties;
  /** `$set`, `$set_once` and `$unset` of the event: from its top level and its properties together. */
  set?: Properties | undefined;
  setOnce?: Properties | undefined;
  unset?: string[] | undefined;
  /** Set when the event is a group's, not a person's: the group properties it sets. */
  group?: GroupSet | undefined;
  /** The session the event belongs to, stored in its row (`events.session_id`); set by the step that knows sessions. */
  sessionId?: string | undefined;
}

/** How an event's properties are stored: the properties, their JSON, and what is kept apart (`store.ts`). */
export interface StoredProperties {
  properties: Properties;
  json: string;
  stacks: StoredStacks | undefined;
  /** An LLM event's large inputs and outputs, kept apart (`json` holds their hashes in their places). */
  payloads?: StoredPayloads | undefined;
}

/** An event as validated at the door, ready to store. */
export interface CapturedEvent {
  uuid: string;
  event: string;
  distinctId: string;
  properties: Properties;
  /** ISO time of the event; a person it creates is created then. */
  timestamp: string;
  set?: Properties | undefined;
  setOnce?: Properties | undefined;
  unset?: string[] | undefined;
  group?: GroupSet | undefined;
  /** Its session, as a step set it at the door (`EventDraft.sessionId`). */
  sessionId?: string | undefined;
  /** `properties` as stored (JSON), made once at the door, where it is measured; without what is kept apart. */
  propertiesJson: string;
  /** The stack traces stored apart from the event's row (an `$exception`'s), once per distinct stacks. */
  exceptionStacks?: StoredStacks | undefined;
  /** The large inputs and outputs stored apart from the event's row (an LLM event's), each once per distinct JSON. */
  llmPayloads?: StoredPayloads | undefined;
  /** What the steps noted of the event at the door, by their place in the pipeline; undefined when none did. */
  marks?: readonly unknown[] | undefined;
}

/** An event a step marked at the door, with its mark. */
export interface Marked<Mark> {
  event: CapturedEvent;
  mark: Mark;
}

/** One project's newly stored events of a slice, in the ingest transaction. */
export interface IngestSlice {
  tx: Transaction<Database>;
  dialect: Dialect;
  projectId: number;
  /** The events stored by this slice, in order: an event the project had already (a retried batch) is not among them. */
  events: readonly CapturedEvent[];
  /** The uuid of the person a distinct id names once the slice's person rules are applied (set by the persons step). */
  personUuid: (distinctId: string) => string | undefined;
  /** Runs `then` once the transaction has committed; never when it rolls back. */
  afterCommit(then: () => void): void;
}

/**
 * A step of ingestion, which a domain adds to the pipeline (`IngestPipeline.use`). A step that marks is given the events
 * it marked at the door (`marked`), and is not called when there are none; one that does not mark is called every time,
 * with `marked` empty, and reads every event (`events`, `slice.events`).
 */
export interface IngestStep<Mark = unknown> {
  /** At the door, once per event: what the step needs of it later (undefined: nothing), or a change to `$set` or its group. */
  mark?(event: EventDraft): Mark | undefined;
  /** The stored form of the properties of an event this step marked, before it is measured (at most one step per event). */
  serialize?(properties: Properties, mark: Mark): StoredProperties;
  /**
   * Before the ingest transaction, once per request: may change the events' stored properties (and their `set`). It
   * returns nothing when it did its work at once (a step that reads every event keeps capture in the same turn so).
   */
  prepare?(projectId: number, marked: readonly Marked<Mark>[], events: readonly CapturedEvent[]): Promise<void> | undefined;
  /** In the ingest transaction, for each slice of newly stored events, after the steps added before it. */
  record?(slice: IngestSlice, marked: readonly Marked<Mark>[]): Promise<void>;
}

/**
 * The ordered steps of ingestion. Capture validates an event once at the door, where each step marks it; an event is
 * stored once, and each step then records what it makes of the newly stored events in the same transaction, so that
 * an acknowledged event has everything it causes committed with it.
 */
export class IngestPipeline {
  private readonly steps: IngestStep[] = [];

  /** Adds a step after those added before. */
  use<Mark>(step: IngestStep<Mark>): void {
    this.steps.push(step as IngestStep);
  }

  /** Each step's mark of an event at the door, by step; undefined when no step marked it. */
  mark(draft: EventDraft): unknown[] | undefined {
    let marks: unknown[] | undefined;
    for (let i = 0; i < this.steps.length; i++) {
      const mark = this.steps[i]!.mark?.(draft);
      if (mark !== undefined) (marks ??= [])[i] = mark;
    }
    return marks;
  }

  /** The stored form of an event's properties: the first marking step's that serializes, else their JSON. */
  serialize(properties: Properties, marks: readonly unknown[] | undefined): StoredProperties {
    if (marks) {
      for (let i = 0; i < marks.length; i++) {
        const serialize = this.steps[i]!.serialize;
        if (serialize && marks[i] !== undefined) return serialize(properties, marks[i]);
      }
    }
    return { properties, json: JSON.stringify(properties), stacks: undefined };
  }

  /**
   * Runs the steps' `prepare`, in order, before the events are queued for the transaction; undefined, at once, when no
   * step had to wait (the events are then queued in the same turn).
   */
  prepare(projectId: number, events: readonly CapturedEvent[]): Promise<void> | undefined {
    return this.prepareFrom(0, projectId, events);
  }

  /** The steps' `prepare` from step `from` on; past one that must wait, the rest run once it is done. */
  private prepareFrom(from: number, projectId: number, events: readonly CapturedEvent[]): Promise<void> | undefined {
    for (let i = from; i < this.steps.length; i++) {
      const prepare = this.steps[i]!.prepare;
      const marked = prepare && this.markedBy(i, events);
      if (!marked) continue;
      const pending = prepare(projectId, marked, events);
      if (pending) return pending.then(() => this.prepareFrom(i + 1, projectId, events));
    }
    return undefined;
  }

  /** Runs the steps' `record` over a slice of newly stored events, in order. */
  async record(slice: IngestSlice): Promise<void> {
    for (let i = 0; i < this.steps.length; i++) {
      const step = this.steps[i]!;
      if (!step.record) continue;
      const marked = this.markedBy(i, slice.events);
      if (marked) await step.record(slice, marked);
    }
  }

  /** The events step `i` marked (undefined when none: it is skipped), or an empty list for a step that does not mark. */
  private markedBy(i: number, events: readonly CapturedEvent[]): Marked<unknown>[] | undefined {
    if (!this.steps[i]!.mark) return [];
    const marked: Marked<unknown>[] = [];
    for (const event of events) {
      const mark = event.marks?.[i];
      if (mark !== undefined) marked.push({ event, mark });
    }
    return marked.length ? marked : undefined;
  }
}
