import type { Selectable } from 'kysely';
import type { Dialect } from '../db/database';
import type { Executor } from '../db/schema';
import type { ScheduledChangeTable } from '../db/scheduled-changes-schema';

export type ScheduledChangeRow = Selectable<ScheduledChangeTable>;
export type NewScheduledChange = Omit<ScheduledChangeRow, 'id' | 'status' | 'failure_reason' | 'executed_at'>;

/** What a change does to its flag. */
export interface ChangePayload {
  active?: boolean;
  rollout_percentage?: number;
  variants?: { key: string; name?: string; rollout_percentage: number }[];
}

/** A scheduled change as the API shows it. */
export interface ScheduledChange {
  id: number;
  feature_flag_id: number;
  scheduled_at: string;
  payload: ChangePayload;
  status: string;
  ramp_id: string | null;
  failure_reason: string | null;
  created_by: string;
  created_at: string;
  executed_at: string | null;
}

export function toScheduledChange(row: ScheduledChangeRow): ScheduledChange {
  return {
    id: row.id,
    feature_flag_id: row.flag_id,
    scheduled_at: row.scheduled_at,
    payload: JSON.parse(row.payload) as ChangePayload,
    status: row.status,
    ramp_id: row.ramp_id,
    failure_reason: row.failure_reason,
    created_by: row.created_by_label,
    created_at: row.created_at,
    executed_at: row.executed_at,
  };
}

export const scheduledChangeStore = {
  async insert(db: Executor, rows: NewScheduledChange[]): Promise<ScheduledChangeRow[]> {
    return db
      .insertInto('scheduled_changes')
      .values(rows.map((row) => ({ ...row, status: 'pending' })))
      .returningAll()
      .execute();
  },

  /** A flag's changes, by time (soonest first), a page. */
  async page(db: Executor, projectId: number, flagId: number, page: { limit: number; offset: number }) {
    const of = db.selectFrom('scheduled_changes').where('project_id', '=', projectId).where('flag_id', '=', flagId);
    const { count } = await of.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    const rows = await of.selectAll().orderBy('scheduled_at').orderBy('id').limit(page.limit).offset(page.offset).execute();
    return { count: Number(count), rows };
  },

  /**
   * A flag's change, locked for the caller's transaction on PostgreSQL: the job holds a change it is applying until it
   * commits, so this waits for it and then reads it applied (SQLite has one writer at a time).
   */
  async lock(db: Executor, dialect: Dialect, projectId: number, flagId: number, id: number): Promise<ScheduledChangeRow | undefined> {
    const row = db.selectFrom('scheduled_changes').selectAll().where('project_id', '=', projectId).where('flag_id', '=', flagId).where('id', '=', id);
    return (dialect === 'postgres' ? row.forUpdate() : row).executeTakeFirst();
  },

  /** Changes a pending change (its time, what it does, or cancels it); undefined when it is no longer pending. */
  async updatePending(
    db: Executor,
    id: number,
    set: Partial<Pick<ScheduledChangeRow, 'scheduled_at' | 'payload' | 'executed_at'>> & { status?: 'cancelled' },
  ): Promise<ScheduledChangeRow | undefined> {
    return db.updateTable('scheduled_changes').set(set).where('id', '=', id).where('status', '=', 'pending').returningAll().executeTakeFirst();
  },

  /**
   * Due pending changes, soonest first, locked for the caller's transaction: on PostgreSQL rows another instance holds
   * are skipped (`for update skip locked`), and a row it has applied is no longer pending once its transaction
   * commits; SQLite has one writer at a time. Only a flag's earliest pending change is taken: so a flag's changes
   * apply in their order, and never two at once in two instances (each would read the flag before the other wrote).
   */
  async lockDue(db: Executor, dialect: Dialect, now: string, limit: number): Promise<ScheduledChangeRow[]> {
    const due = db
      .selectFrom('scheduled_changes as c')
      .selectAll('c')
      .where('c.status', '=', 'pending')
      .where('c.scheduled_at', '<=', now)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('scheduled_changes as e')
              .select('e.id')
              .whereRef('e.flag_id', '=', 'c.flag_id')
              .where('e.status', '=', 'pending')
              .where((eb) =>
                eb.or([
                  eb('e.scheduled_at', '<', eb.ref('c.scheduled_at')),
                  eb.and([eb('e.scheduled_at', '=', eb.ref('c.scheduled_at')), eb('e.id', '<', eb.ref('c.id'))]),
                ]),
              ),
          ),
        ),
      )
      .orderBy('c.scheduled_at')
      .orderBy('c.id')
      .limit(limit);
    return (dialect === 'postgres' ? due.forUpdate().skipLocked() : due).execute();
  },

  /** When the next pending change is due, or undefined when none is pending. */
  async nextDue(db: Executor): Promise<string | undefined> {
    const row = await db
      .selectFrom('scheduled_changes')
      .select((eb) => eb.fn.min('scheduled_at').as('next'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row?.next ?? undefined;
  },

  async finish(db: Executor, id: number, outcome: { status: 'applied' | 'failed'; failure_reason: string | null; executed_at: string }) {
    await db.updateTable('scheduled_changes').set(outcome).where('id', '=', id).execute();
  },
};
