import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { HIDDEN, changesBetween, recordActivity } from '../activity/service';
import type { Actor } from '../http/actor';
import type { Database, Executor } from '../db/schema';
import { NotFoundError, ValidationError } from '../errors';
import { isUuid, uuidv7 } from '../uuid';
import { webhookStore, type DeliveryRow, type WebhookRow } from './store';
import { targetProblem } from './target';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export interface WebhookInput {
  url: string;
  kinds: string[];
  enabled?: boolean;
  secret?: string;
}
export type WebhookPatch = Partial<WebhookInput>;

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (the Standard Webhooks form). */
export const newSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** A given secret must be one Standard Webhooks libraries take: `whsec_` and the base64 of 24 to 64 bytes. */
function checkSecret(secret: string) {
  const encoded = secret.slice(SECRET_PREFIX.length);
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && encoded.length % 4 === 0 ? Buffer.from(encoded, 'base64').length : 0;
  if (!secret.startsWith(SECRET_PREFIX) || bytes < 24 || bytes > 64) {
    throw new ValidationError('A webhook secret is "whsec_" followed by the base64 encoding of 24 to 64 random bytes.', 'secret', 'invalid_secret');
  }
}

/** The secret as shown after creation: its start and end. */
const maskSecret = (secret: string) => `${secret.slice(0, 10)}...${secret.slice(-4)}`;

export function toWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    kinds: JSON.parse(row.kinds) as string[],
    enabled: row.enabled === 1,
    secret_mask: maskSecret(row.secret),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    attempts: row.attempts,
    last_response_code: row.last_response_code,
    last_error: row.last_error,
    created_at: row.created_at,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    delivered_at: row.delivered_at,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

/** A webhook as the activity log shows it: the secret only as whether it changed. */
const logged = (row: WebhookRow, secret: string) => ({ url: row.url, kinds: JSON.parse(row.kinds) as string[], enabled: row.enabled === 1, secret });
const LOGGED_FIELDS = ['url', 'kinds', 'enabled', 'secret'] as const;

/** Records a webhook's creation, change or deletion in the activity log (in the change's transaction); never its secret. */
function recordWebhookActivity(db: Executor, actor: Actor, before: WebhookRow | undefined, after: WebhookRow | undefined) {
  const row = (after ?? before)!;
  const secretChanged = before !== undefined && after !== undefined && before.secret !== after.secret;
  return recordActivity(db, actor, {
    projectId: row.project_id,
    scope: 'Webhook',
    itemId: row.id,
    activity: !before ? 'created' : !after ? 'deleted' : 'updated',
    name: row.url,
    changes: after ? changesBetween(before ? logged(before, HIDDEN) : null, logged(after, secretChanged ? `${HIDDEN} (new)` : HIDDEN), LOGGED_FIELDS) : null,
  });
}

/** Webhooks of a project (URL, secret, kinds) and the log of their deliveries. */
export class WebhookService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: {
      allowPrivate: boolean;
      /** What a webhook can be sent for. */
      kinds: readonly string[];
    },
  ) {}

  /** What a webhook can be sent for. */
  get kinds(): readonly string[] {
    return this.opts.kinds;
  }

  private checkKinds(kinds: string[]): string[] {
    if (!kinds.length) throw new ValidationError('Choose at least one kind.', 'kinds', 'required');
    for (const kind of kinds) {
      if (!this.kinds.includes(kind)) {
        throw new ValidationError(`"${kind}" is not a valid choice; the kinds are ${this.kinds.join(', ')}.`, 'kinds', 'invalid_choice');
      }
    }
    return [...new Set(kinds)];
  }

  private checkUrl(url: string) {
    const problem = targetProblem(url, this.opts.allowPrivate);
    if (problem) throw new ValidationError(problem, 'url', 'invalid_url');
  }

  async list(projectId: number, limit: number, offset: number) {
    const { count, rows } = await webhookStore.page(this.db, projectId, limit, offset);
    return { count, results: rows.map(toWebhook) };
  }

  /** Creates a webhook; the answer holds the secret, which is shown only here (`secret_mask` afterwards). */
  async create(projectId: number, input: WebhookInput, actor: Actor) {
    this.checkUrl(input.url);
    const kinds = this.checkKinds(input.kinds);
    if (input.secret !== undefined) checkSecret(input.secret);
    const now = new Date().toISOString();
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await webhookStore.insert(trx, {
        id: uuidv7(),
        project_id: projectId,
        url: input.url,
        secret: input.secret ?? newSecret(),
        kinds: JSON.stringify(kinds),
        enabled: input.enabled === false ? 0 : 1,
        created_at: now,
        updated_at: now,
      });
      await recordWebhookActivity(trx, actor, undefined, inserted);
      return inserted;
    });
    return { ...toWebhook(row), secret: row.secret };
  }

  async get(projectId: number, id: string) {
    return toWebhook(await this.row(projectId, id));
  }

  async update(projectId: number, id: string, patch: WebhookPatch, actor: Actor) {
    const row = await this.row(projectId, id);
    const changes: Parameters<typeof webhookStore.update>[2] = {};
    if (patch.url !== undefined) {
      this.checkUrl(patch.url);
      changes.url = patch.url;
    }
    if (patch.kinds !== undefined) changes.kinds = JSON.stringify(this.checkKinds(patch.kinds));
    if (patch.secret !== undefined) {
      checkSecret(patch.secret);
      changes.secret = patch.secret;
    }
    if (patch.enabled !== undefined) changes.enabled = patch.enabled ? 1 : 0;
    if (!Object.keys(changes).length) return toWebhook(row);
    changes.updated_at = new Date().toISOString();
    const updated = { ...row, ...changes };
    await this.db.transaction().execute(async (trx) => {
      await webhookStore.update(trx, row.id, changes);
      await recordWebhookActivity(trx, actor, row, updated);
    });
    return toWebhook(updated);
  }

  /** Deletes the webhook and its deliveries (pending ones are not sent). */
  async delete(projectId: number, id: string, actor: Actor) {
    if (!isUuid(id)) throw new NotFoundError();
    await this.db.transaction().execute(async (trx) => {
      const row = await webhookStore.get(trx, projectId, id);
      if (!row || !(await webhookStore.delete(trx, projectId, id))) throw new NotFoundError();
      await recordWebhookActivity(trx, actor, row, undefined);
    });
  }

  async deliveries(projectId: number, webhookId: string, opts: { status?: string; limit: number; offset: number }) {
    const webhook = await this.row(projectId, webhookId);
    if (opts.status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(opts.status)) {
      throw new ValidationError(`"${opts.status}" is not a valid choice; use ${DELIVERY_STATUSES.join(', ')}.`, 'status', 'invalid_choice');
    }
    const { count, rows } = await webhookStore.deliveries(this.db, webhook.id, opts);
    return { count, results: rows.map(toDelivery) };
  }

  private async row(projectId: number, id: string): Promise<WebhookRow> {
    const row = isUuid(id) ? await webhookStore.get(this.db, projectId, id) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }
}
