import type { FastifyBaseLogger } from 'fastify';
import type { Job } from '../module';
import type { ReplayStorage } from './storage';

/** How often recordings past retention are looked for. */
const INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes the recordings that ended more than REPLAY_RETENTION_DAYS ago, with their blocks, blobs, URLs and batch ids
 * (`ReplayStorage.sweep`): at start, then every hour. A failure (the database away) is logged and the next round
 * tries again; a round still running when the next is due is not doubled.
 */
export class ReplayRetentionJob implements Job {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly storage: ReplayStorage,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = INTERVAL_MS,
  ) {}

  start() {
    const round = () => {
      this.running ??= this.storage
        .sweep()
        .then((deleted) => deleted && this.log.info({ deleted }, 'replay: recordings past retention deleted'))
        .catch((error: unknown) => this.log.warn({ err: error }, 'replay: deleting recordings past retention failed'))
        .finally(() => (this.running = undefined));
    };
    round();
    this.timer = setInterval(round, this.intervalMs);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    await this.running;
  }
}
