import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database';
import { isDiskFull } from '../db/disk-space';
import { onEnqueue } from './outbox';
import { sendDelivery, type AttemptResult } from './send';
import { webhookStore, type ClaimedDelivery, type DeliveryRow } from './store';

export interface WebhookWorkerOptions {
  /** WEBHOOK_ALLOW_PRIVATE: send to loopback and private addresses too. */
  allowPrivate: boolean;
  /** WEBHOOK_POLL_MS: how often the outbox is looked at for due deliveries. */
  pollMs: number;
  /** WEBHOOK_RETRY_BASE_MS: the wait after a first failed attempt; it doubles with each attempt, up to an hour. */
  retryBaseMs: number;
  /** One attempt's time limit (connection and response headers). */
  timeoutMs?: number;
  /** Deliveries sent at once by this worker. */
  concurrency?: number;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/** Failed attempts are retried for this long after the delivery was created; then it is `failed`. */
export const RETRY_FOR_MS = 24 * 60 * 60 * 1000;
const MAX_DELAY_MS = 60 * 60 * 1000;
/** Finished deliveries are kept this long, then deleted (checked hourly). */
const KEEP_FINISHED_MS = 30 * 24 * 60 * 60 * 1000;
/** A claimed delivery is held this much longer than an attempt may take; a worker that died lets it go then. */
const LEASE_MARGIN_MS = 30_000;

/** The wait before attempt `attempts + 1`: base × 2^(attempts − 1), at most an hour, ±20 % jitter. */
export function retryDelay(attempts: number, baseMs: number, random = Math.random()): number {
  const delay = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
  return Math.round(delay * (0.8 + 0.4 * random));
}

type Outcome = Pick<DeliveryRow, 'status' | 'next_attempt_at' | 'last_response_code' | 'last_error' | 'delivered_at'>;

/**
 * What an attempt makes of a delivery: a 2xx succeeds it; 410 Gone fails it at once (the receiver says it is gone
 * for good); anything else is retried after `retryDelay` unless that is past 24 hours after its creation.
 */
export function outcomeOf(
  result: AttemptResult & { stopped?: boolean },
  delivery: Pick<ClaimedDelivery, 'attempts' | 'created_at'>,
  now: number,
  retryBaseMs: number,
): Outcome {
  const at = new Date(now).toISOString();
  const recorded = { last_response_code: result.status, last_error: result.error };
  if (result.status !== null && result.status >= 200 && result.status < 300) {
    return { ...recorded, status: 'succeeded', next_attempt_at: at, delivered_at: at };
  }
  if (result.stopped) return { ...recorded, status: 'pending', next_attempt_at: at, delivered_at: null };
  const next = now + retryDelay(delivery.attempts, retryBaseMs);
  if (result.status === 410 || next > Date.parse(delivery.created_at) + RETRY_FOR_MS) {
    return { ...recorded, status: 'failed', next_attempt_at: at, delivered_at: null };
  }
  return { ...recorded, status: 'pending', next_attempt_at: new Date(next).toISOString(), delivered_at: null };
}

/**
 * Sends the webhook outbox: polls for due deliveries (and looks right after an enqueue in this process), claims a
 * few at a time (safe with several instances on one database), sends each signed with a time limit, and records
 * the response code or error with the next attempt. Nothing of it runs in an API request.
 */
export class WebhookDeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private running = false;
  private stopped = true;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private unsubscribe: (() => void) | undefined;
  private lastPrune = 0;
  private readonly timeoutMs: number;
  private readonly concurrency: number;

  constructor(
    private readonly db: Db,
    private readonly opts: WebhookWorkerOptions,
  ) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.concurrency = opts.concurrency ?? 4;
  }

  start() {
    if (!this.stopped || this.abort.signal.aborted) return;
    this.stopped = false;
    // The enqueueing transaction commits after the call: look a moment later (SQLite's one connection waits for the commit anyway).
    this.unsubscribe = onEnqueue(() => this.schedule(20));
    this.schedule(0);
  }

  /** Stops polling, aborts attempts under way (they are retried at the next start) and waits for them to be recorded. */
  async stop() {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    this.abort.abort();
    while (this.inFlight.size || this.running) await Promise.all([...this.inFlight, new Promise((resolve) => setTimeout(resolve, 5))]);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      void this.tick();
    }, ms);
    this.timer.unref();
  }

  private async tick() {
    if (this.stopped) return;
    if (this.running) return this.schedule(this.opts.pollMs);
    this.running = true;
    let full = false;
    try {
      await this.prune();
      const free = this.concurrency - this.inFlight.size;
      if (free > 0) {
        const now = Date.now();
        const lease = new Date(now + this.timeoutMs + LEASE_MARGIN_MS).toISOString();
        const claimed = await webhookStore.claim(this.db.kysely, this.db.dialect, new Date(now).toISOString(), lease, free);
        full = claimed.length === free;
        for (const delivery of claimed) this.track(this.deliver(delivery));
      }
    } catch (error) {
      // A full disk is in the log once (`DiskSpace`), not at every poll; the deliveries wait, due, until there is room.
      if (!isDiskFull(error)) this.opts.log?.warn({ err: error }, 'webhook deliveries: could not claim due deliveries');
    } finally {
      this.running = false;
      // A full claim may have left more due: look again when a slot frees (below), else at the next poll.
      if (!full) this.schedule(this.opts.pollMs);
    }
  }

  private track(sending: Promise<void>) {
    const tracked = sending
      .catch((error: unknown) => this.opts.log?.warn({ err: error }, 'webhook deliveries: an attempt failed unexpectedly'))
      .finally(() => {
        this.inFlight.delete(tracked);
        this.schedule(0);
      });
    this.inFlight.add(tracked);
  }

  private async deliver(delivery: ClaimedDelivery) {
    let result: AttemptResult & { stopped?: boolean };
    if (delivery.url === null || delivery.secret === null) result = { status: null, error: 'the webhook was deleted' };
    else if (delivery.enabled !== 1) result = { status: null, error: 'the webhook is disabled' };
    else {
      result = await sendDelivery({ url: delivery.url, secret: delivery.secret }, delivery, {
        allowPrivate: this.opts.allowPrivate,
        timeoutMs: this.timeoutMs,
        signal: this.abort.signal,
      });
      if (this.abort.signal.aborted && result.status === null) result = { ...result, stopped: true };
    }
    let outcome = outcomeOf(result, delivery, Date.now(), this.opts.retryBaseMs);
    if (delivery.url === null || delivery.enabled !== 1) outcome = { ...outcome, status: 'failed' };
    try {
      await webhookStore.record(this.db.kysely, delivery, outcome);
    } catch (error) {
      // Its lease runs out and another attempt follows.
      if (!isDiskFull(error)) this.opts.log?.warn({ err: error, delivery: delivery.id }, 'webhook deliveries: could not record an attempt');
    }
  }

  /** Deletes finished deliveries older than 30 days, at most once an hour. */
  private async prune() {
    const now = Date.now();
    if (now - this.lastPrune < 60 * 60 * 1000) return;
    this.lastPrune = now;
    await webhookStore.prune(this.db.kysely, new Date(now - KEEP_FINISHED_MS).toISOString());
  }
}
