import type { FastifyBaseLogger } from 'fastify';
import type { Job } from '../module';
import type { ScheduledChangeService } from './service';

/** The longest wait between looks: changes scheduled by another instance are found within it. */
const MAX_WAIT_MS = 5_000;
/** The wait after a failed look (the database unavailable, say). */
const RETRY_MS = 5_000;

/**
 * Applies scheduled changes when they are due: it sleeps until the next one (at most `MAX_WAIT_MS`, so that what other
 * instances scheduled is seen), is woken when this instance schedules one, and applies what is due in batches.
 */
export class ScheduledChangesJob implements Job {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly changes: ScheduledChangeService,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  start() {
    this.stopped = false;
    this.unsubscribe = this.changes.onScheduled(() => this.schedule(0));
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, ms);
    this.timer.unref();
  }

  private async tick() {
    let wait = MAX_WAIT_MS;
    try {
      // A full batch: there may be more due at once.
      while (!this.stopped && (await this.changes.applyDue()) > 0);
      const next = await this.changes.nextDue();
      if (next !== undefined) wait = Math.min(MAX_WAIT_MS, Math.max(0, next - Date.now()));
    } catch (error) {
      this.log.warn({ err: error }, 'applying scheduled changes failed; trying again soon');
      wait = RETRY_MS;
    }
    this.schedule(wait);
  }
}
