import type { Executor } from '../db/schema';
import { uuidv7 } from '../uuid';

/** The JSON body of a delivery; `id` is the delivery's id, also sent as `webhook-id`. */
export interface WebhookPayload {
  id: string;
  /** One of the modules' `webhookKinds`. */
  kind: string;
  created_at: string;
  project_id: number;
  data: Record<string, unknown>;
}

/**
 * Writes one delivery per webhook of the project that wants `kind`, in the caller's transaction (the outbox): the
 * delivery exists exactly when the change committed. The worker (`delivery-worker.ts`) sends it later.
 * One query when the project has no enabled webhook.
 */
export async function enqueueWebhooks(db: Executor, projectId: number, kind: string, data: Record<string, unknown>): Promise<void> {
  const hooks = await db.selectFrom('webhooks').select(['id', 'kinds']).where('project_id', '=', projectId).where('enabled', '=', 1).execute();
  const wanting = hooks.filter((hook) => (JSON.parse(hook.kinds) as string[]).includes(kind));
  if (!wanting.length) return;
  const now = new Date().toISOString();
  const rows = wanting.map((hook) => {
    const id = uuidv7();
    const payload: WebhookPayload = { id, kind, created_at: now, project_id: projectId, data };
    return {
      id,
      project_id: projectId,
      webhook_id: hook.id,
      kind,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      last_response_code: null,
      last_error: null,
      created_at: now,
      delivered_at: null,
    };
  });
  await db.insertInto('webhook_deliveries').values(rows).execute();
  wakeWorkers();
}

const wakers = new Set<() => void>();

/** Calls `wake` shortly after each in-process enqueue (so a delivery need not wait for the next poll); returns the unsubscribe. */
export function onEnqueue(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

function wakeWorkers() {
  for (const wake of wakers) wake();
}
