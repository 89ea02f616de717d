import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordActivity, type Change } from '../activity/service';
import type { Changes } from '../changes';
import type { Dialect } from '../db/database';
import type { Database } from '../db/schema';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../errors';
import { checkFilters, type FeatureFlagService, type FlagPatch } from '../feature-flags/service';
import type { Filters, FlagRow } from '../feature-flags/store';
import type { Actor } from '../http/actor';
import { scheduledChangeStore as store, toScheduledChange, type ChangePayload, type ScheduledChange, type ScheduledChangeRow } from './store';

/** One change at one time, or a ramp: rollout percentages at successive times, created together. */
export interface ScheduleInput {
  scheduled_at?: string;
  payload?: ChangePayload;
  ramp?: { scheduled_at: string; rollout_percentage: number }[];
}

/** A change made to a pending change: its time and/or what it does (replaced whole). */
export interface ScheduleEdit {
  scheduled_at?: string;
  payload?: ChangePayload;
}

/** The most steps of a ramp. */
export const MAX_RAMP_STEPS = 20;
/** Changes the job applies in one transaction. */
const BATCH = 20;

/**
 * What `payload` does to a flag: `active` sets it; `rollout_percentage` sets the rollout of every condition set (a
 * flag without one gets one for everyone); `variants` replaces the multivariate variants.
 */
export function patchOf(flag: Pick<FlagRow, 'filters'>, payload: ChangePayload): FlagPatch {
  const patch: FlagPatch = {};
  if (payload.active !== undefined) patch.active = payload.active;
  if (payload.rollout_percentage === undefined && payload.variants === undefined) return patch;
  const filters = JSON.parse(flag.filters) as Filters;
  if (payload.rollout_percentage !== undefined) {
    const groups = Array.isArray(filters.groups) && filters.groups.length ? (filters.groups as Filters[]) : [{ properties: [] }];
    filters.groups = groups.map((group) => ({ ...group, rollout_percentage: payload.rollout_percentage }));
  }
  if (payload.variants !== undefined) filters.multivariate = { ...(filters.multivariate as Filters | undefined), variants: payload.variants };
  patch.filters = filters;
  return patch;
}

/** A time the API was given, as stored (ISO, UTC); 400 when it is not a time or not in the future. */
function futureTime(raw: string, now: number, attr: string): string {
  const at = Date.parse(raw);
  if (Number.isNaN(at)) throw new ValidationError('Give a date and time, e.g. 2030-01-31T09:00:00Z.', attr, 'invalid_date');
  if (at <= now) throw new ValidationError('The scheduled time is in the past; give a time in the future.', attr, 'in_the_past');
  return new Date(at).toISOString();
}

/** 400 unless `payload` changes something and makes a valid flag of `flag` as it is now (`attr` names it in the error). */
function checkPayload(flag: FlagRow, payload: ChangePayload, attr: string) {
  const patch = patchOf(flag, payload);
  if (!Object.keys(patch).length) throw new ValidationError('Say what changes: active, rollout_percentage or variants.', attr, 'required');
  try {
    if (patch.filters) checkFilters(patch.filters);
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError(error.detail, attr, error.code);
    throw error;
  }
}

/** The activity log's field for a scheduled change; its value says which change, when, and what it does. */
export const SCHEDULED_CHANGE_FIELD = 'scheduled_change';
const logged = (row: ScheduledChangeRow) => ({ id: row.id, scheduled_at: row.scheduled_at, ...(JSON.parse(row.payload) as ChangePayload) });

/**
 * Records scheduling, editing or cancelling changes of a flag as an update of the flag (so its history shows them),
 * one `scheduled_change` field per change: null before it was scheduled, null after it was cancelled.
 */
function recordScheduling(db: Kysely<Database>, actor: Actor, flag: Pick<FlagRow, 'project_id' | 'id' | 'key'>, changes: Change[]) {
  return recordActivity(db, actor, { projectId: flag.project_id, scope: 'FeatureFlag', itemId: flag.id, activity: 'updated', name: flag.key, changes });
}

/**
 * Flag changes at set times (`/api/projects/:id/feature_flags/:fid/scheduled_changes/`), and the job's work: each due
 * change applied once, through the flag service (its rules, activity entry and webhook), even with several instances.
 */
export class ScheduledChangeService {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly flags: FeatureFlagService,
    private readonly changes: Changes,
  ) {}

  /** Calls `listener` after changes were scheduled here (the job looks again); returns the unsubscribe function. */
  onScheduled(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async list(projectId: number, flagId: number, page: { limit: number; offset: number }) {
    await this.liveFlag(projectId, flagId);
    const { count, rows } = await store.page(this.db, projectId, flagId, page);
    return { count, results: rows.map(toScheduledChange) };
  }

  /**
   * Schedules one change, or a ramp's steps (each a change of `rollout_percentage`, at strictly later times). Every
   * time must be in the future (400 `in_the_past`), and each change must make a valid flag of the flag as it is now.
   */
  async create(projectId: number, flagId: number, input: ScheduleInput, actor: Actor, now = Date.now()): Promise<ScheduledChange[]> {
    const flag = await this.liveFlag(projectId, flagId);
    const steps = this.steps(input, now);
    for (const [i, step] of steps.entries()) checkPayload(flag, step.payload, input.ramp ? `ramp.${i}` : 'payload');
    const rampId = input.ramp ? randomUUID() : null;
    const createdAt = new Date(now).toISOString();
    const rows = await this.db.transaction().execute(async (trx) => {
      const inserted = await store.insert(
        trx,
        steps.map((step) => ({
          project_id: projectId,
          flag_id: flagId,
          payload: JSON.stringify(step.payload),
          scheduled_at: step.scheduled_at,
          ramp_id: rampId,
          created_by_user_id: actor.user_id,
          created_by_key_id: actor.api_key_id,
          created_by_label: actor.label,
          created_at: createdAt,
        })),
      );
      await recordScheduling(
        trx,
        actor,
        flag,
        inserted.map((row) => ({ field: SCHEDULED_CHANGE_FIELD, before: null, after: logged(row) })),
      );
      return inserted;
    });
    this.notify();
    return rows.map(toScheduledChange);
  }

  /**
   * Changes a pending change's time and/or what it does, with the rules of `create` (400), and records it. 404 for no
   * such change of this flag; 409 once it was applied, failed or cancelled. The change is locked while it is read and
   * written, so it is edited either wholly before the job applies it or not at all.
   */
  async update(projectId: number, flagId: number, id: number, edit: ScheduleEdit, actor: Actor, now = Date.now()): Promise<ScheduledChange> {
    if (edit.scheduled_at === undefined && edit.payload === undefined)
      throw new ValidationError('Say what to change: scheduled_at and/or payload.', 'scheduled_at', 'required');
    const scheduledAt = edit.scheduled_at === undefined ? undefined : futureTime(edit.scheduled_at, now, 'scheduled_at');
    const flag = await this.liveFlag(projectId, flagId);
    if (edit.payload !== undefined) checkPayload(flag, edit.payload, 'payload');
    const updated = await this.db.transaction().execute(async (trx) => {
      const before = await this.pending(trx, projectId, flagId, id, 'edited');
      const after = await store.updatePending(trx, id, {
        ...(scheduledAt === undefined ? {} : { scheduled_at: scheduledAt }),
        ...(edit.payload === undefined ? {} : { payload: JSON.stringify(edit.payload) }),
      });
      if (!after) throw new ConflictError('This change is no longer pending; only a pending change can be edited.');
      await recordScheduling(trx, actor, flag, [{ field: SCHEDULED_CHANGE_FIELD, before: logged(before), after: logged(after) }]);
      return after;
    });
    this.notify();
    return toScheduledChange(updated);
  }

  /** Cancels a pending change, and records it: 404 for none of this flag, 409 once it was applied, failed or cancelled. */
  async cancel(projectId: number, flagId: number, id: number, actor: Actor, now = Date.now()): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await this.pending(trx, projectId, flagId, id, 'cancelled');
      const after = await store.updatePending(trx, id, { status: 'cancelled', executed_at: new Date(now).toISOString() });
      if (!after) throw new ConflictError('This change is no longer pending; only a pending change can be cancelled.');
      const flag = await this.flags.row(projectId, flagId, trx);
      await recordScheduling(trx, actor, flag, [{ field: SCHEDULED_CHANGE_FIELD, before: logged(before), after: null }]);
    });
  }

  /**
   * Applies the due changes, each exactly once: claimed (locked) and applied in one transaction, so another instance
   * skips it and never sees it pending again. A change the flag's rules refuse then (a deleted flag, variants that no
   * longer fit) is `failed` with the reason. Returns how many were claimed.
   */
  async applyDue(now = Date.now()): Promise<number> {
    const touched = new Set<number>();
    const claimed = await this.db.transaction().execute(async (trx) => {
      const due = await store.lockDue(trx, this.dialect, new Date(now).toISOString(), BATCH);
      for (const change of due) {
        const outcome = await this.apply(trx, change);
        await store.finish(trx, change.id, { ...outcome, executed_at: new Date(now).toISOString() });
        if (outcome.status === 'applied') touched.add(change.project_id);
      }
      return due.length;
    });
    for (const projectId of touched) this.changes.flagsChanged(projectId);
    return claimed;
  }

  /** When the next pending change is due (ms), or undefined. */
  async nextDue(): Promise<number | undefined> {
    const next = await store.nextDue(this.db);
    return next === undefined ? undefined : Date.parse(next);
  }

  private async apply(trx: Kysely<Database>, change: ScheduledChangeRow): Promise<{ status: 'applied' | 'failed'; failure_reason: string | null }> {
    const actor: Actor = {
      user_id: change.created_by_user_id,
      api_key_id: change.created_by_key_id,
      label: `${change.created_by_label} (scheduled change ${change.id})`,
    };
    try {
      const flag = await this.flags.row(change.project_id, change.flag_id, trx);
      if (flag.deleted) return { status: 'failed', failure_reason: 'The flag was deleted.' };
      await this.flags.updateWithin(trx, change.project_id, change.flag_id, patchOf(flag, JSON.parse(change.payload) as ChangePayload), actor);
      return { status: 'applied', failure_reason: null };
    } catch (error) {
      // Domain rules refuse before anything is written; anything else ends the transaction and is tried again.
      if (error instanceof DomainError) return { status: 'failed', failure_reason: error.detail };
      throw error;
    }
  }

  /** A change of the flag, locked (`store.lock`) in `trx`: 404 for none, 409 when it is no longer pending. */
  private async pending(trx: Kysely<Database>, projectId: number, flagId: number, id: number, verb: string): Promise<ScheduledChangeRow> {
    const row = await store.lock(trx, this.dialect, projectId, flagId, id);
    if (!row) throw new NotFoundError();
    if (row.status !== 'pending') throw new ConflictError(`This change is ${row.status}; only a pending change can be ${verb}.`);
    return row;
  }

  private notify() {
    for (const listener of this.listeners) listener();
  }

  private steps(input: ScheduleInput, now: number): { scheduled_at: string; payload: ChangePayload }[] {
    if (!input.ramp) {
      if (input.scheduled_at === undefined) throw new ValidationError('Say when: scheduled_at (or a ramp).', 'scheduled_at', 'required');
      if (input.payload === undefined) throw new ValidationError('Say what changes: payload.', 'payload', 'required');
      return [{ scheduled_at: futureTime(input.scheduled_at, now, 'scheduled_at'), payload: input.payload }];
    }
    if (input.scheduled_at !== undefined || input.payload !== undefined)
      throw new ValidationError('Give either scheduled_at and payload (one change) or a ramp, not both.', 'ramp', 'invalid_input');
    if (!input.ramp.length || input.ramp.length > MAX_RAMP_STEPS)
      throw new ValidationError(`A ramp has 1 to ${MAX_RAMP_STEPS} steps.`, 'ramp', 'invalid_input');
    let previous = now;
    return input.ramp.map((step, i) => {
      const scheduledAt = futureTime(step.scheduled_at, now, `ramp.${i}.scheduled_at`);
      if (Date.parse(scheduledAt) <= previous && i > 0)
        throw new ValidationError('Each step of a ramp comes after the one before.', `ramp.${i}.scheduled_at`, 'invalid_input');
      previous = Date.parse(scheduledAt);
      return { scheduled_at: scheduledAt, payload: { rollout_percentage: step.rollout_percentage } };
    });
  }

  private async liveFlag(projectId: number, flagId: number): Promise<FlagRow> {
    const flag = await this.flags.row(projectId, flagId);
    if (flag.deleted) throw new NotFoundError();
    return flag;
  }
}
