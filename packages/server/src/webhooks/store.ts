import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../db/database';
import { countThenPage } from '../db/page';
import type { Database, Executor, WebhookDeliveryTable, WebhookTable } from '../db/schema';

export type WebhookRow = Selectable<WebhookTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;

/** A delivery a worker holds until `locked_until`, with where it goes. */
export interface ClaimedDelivery {
  id: string;
  payload: string;
  attempts: number;
  created_at: string;
  locked_until: string;
  url: string | null;
  secret: string | null;
  enabled: number | null;
}

/** SQL for webhooks and their deliveries (the outbox itself is written by `enqueueWebhooks`). Queries of the API are scoped to a project. */
export const webhookStore = {
  async insert(db: Executor, row: WebhookRow): Promise<WebhookRow> {
    await db.insertInto('webhooks').values(row).execute();
    return row;
  },

  get(db: Executor, projectId: number, id: string): Promise<WebhookRow | undefined> {
    return db.selectFrom('webhooks').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  },

  page(db: Executor, projectId: number, limit: number, offset: number) {
    const query = db.selectFrom('webhooks').where('project_id', '=', projectId);
    return countThenPage(query, limit, offset, (page) => page.selectAll().orderBy('created_at').orderBy('id').execute());
  },

  async update(db: Executor, id: string, changes: Partial<Pick<WebhookRow, 'url' | 'secret' | 'kinds' | 'enabled' | 'updated_at'>>) {
    await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
  },

  async delete(db: Executor, projectId: number, id: string): Promise<boolean> {
    const result = await db.deleteFrom('webhooks').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** A webhook's deliveries, newest first, optionally of one status. */
  deliveries(db: Executor, webhookId: string, opts: { status?: string; limit: number; offset: number }) {
    let query = db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
    if (opts.status) query = query.where('status', '=', opts.status);
    return countThenPage(query, opts.limit, opts.offset, (page) => page.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute());
  },

  /**
   * Takes up to `limit` due pending deliveries that no worker holds, holding them until `lockedUntil` and counting
   * the attempt, in one statement: on PostgreSQL rows another instance is claiming are skipped (`for update skip
   * locked`); SQLite has one writer at a time.
   */
  async claim(db: Kysely<Database>, dialect: Dialect, now: string, lockedUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    const due = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .limit(limit);
    const claimed = await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', dialect === 'postgres' ? due.forUpdate().skipLocked() : due)
      .returning(['id', 'webhook_id', 'payload', 'attempts', 'created_at'])
      .execute();
    if (!claimed.length) return [];
    const hooks = new Map(
      (
        await db
          .selectFrom('webhooks')
          .select(['id', 'url', 'secret', 'enabled'])
          .where(
            'id',
            'in',
            claimed.map((d) => d.webhook_id),
          )
          .execute()
      ).map((hook) => [hook.id, hook]),
    );
    return claimed.map((d) => {
      const hook = hooks.get(d.webhook_id);
      return { ...d, locked_until: lockedUntil, url: hook?.url ?? null, secret: hook?.secret ?? null, enabled: hook?.enabled ?? null };
    });
  },

  /** Records an attempt's outcome, if this worker still holds the delivery. */
  async record(
    db: Executor,
    claimed: Pick<ClaimedDelivery, 'id' | 'locked_until'>,
    outcome: Pick<DeliveryRow, 'status' | 'next_attempt_at' | 'last_response_code' | 'last_error' | 'delivered_at'>,
  ) {
    await db
      .updateTable('webhook_deliveries')
      .set({ ...outcome, locked_until: null })
      .where('id', '=', claimed.id)
      .where('locked_until', '=', claimed.locked_until)
      .execute();
  },

  /** Deletes finished deliveries created before `before` (a delivery log is kept for a while, not forever). */
  async prune(db: Executor, before: string) {
    await db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('created_at', '<', before).execute();
  },
};
