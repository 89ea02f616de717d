import type { FastifyBaseLogger } from 'fastify';
import type { Job } from '../module';
import type { SurveyService } from './service';

/** How often running recurring surveys are moved into their current iteration. */
const INTERVAL_MS = 60_000;

/**
 * Moves running recurring surveys into the iteration they are in (and their internal targeting flag with them), and
 * stops those whose last iteration is over: at start, then every minute. A failure (the database away) is logged and
 * the next round tries again.
 */
export class SurveyScheduleJob implements Job {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly surveys: SurveyService,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = INTERVAL_MS,
  ) {}

  start() {
    const round = () => {
      this.running = this.surveys.advanceSchedules().catch((error: unknown) => this.log.warn({ err: error }, 'surveys: moving iterations on failed'));
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
