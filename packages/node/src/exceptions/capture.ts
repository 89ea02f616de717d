import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CaptureMessage } from '../messages';
import { uuidv7 } from '../uuid';
import { BucketRateLimiter } from './rate-limit';
import { addSourceContext } from './source-context';
import { exceptionList, type CaptureMechanism, type ExceptionEntry } from './stack';

/**
 * Turns exceptions into `$exception` events: those the app captures (`captureException`) and, with
 * `enableExceptionAutocapture`, the process's uncaught ones (rate-limited per type). Each is queued once its
 * frames' source lines are read; `settled()` waits for those still being read.
 */
export class ExceptionCapture {
  /** Exceptions being turned into events (source files are read): flush and shutdown wait for them. */
  private readonly building = new Set<Promise<void>>();
  /** Exceptions captured in this turn of the event loop (and how many times), so autocapture skips one the app captured itself. */
  private readonly capturedThisTurn = new Map<unknown, number>();
  private readonly limiter = new BucketRateLimiter();
  /** Types being dropped by the limiter: warned about once per streak. */
  private readonly rateLimitedTypes = new Set<string>();

  constructor(private readonly o: { capture: (message: CaptureMessage) => void; report: (error: Error) => void; warn: (message: string) => void }) {}

  /** Settles when every exception captured so far is queued. */
  settled(): Promise<unknown> {
    return Promise.all(this.building);
  }

  /**
   * An exception the app captured; `siteStack` is the stack of the call, used for a thrown value that is not an
   * Error. Throws when the value cannot be read (the caller reports it).
   */
  capture(error: unknown, siteStack: string | undefined, distinctId?: string, properties?: Record<string, unknown>): void {
    this.noteCaptured(error);
    void this.queue(exceptionList(error, { type: 'generic', handled: true }, siteStack), distinctId, properties);
  }

  /**
   * An uncaught exception or unhandled rejection, from the process listeners. Waits for the end of the turn, so an
   * app's own `captureException` of it (in its listener or error hook) wins, with its distinct id and properties;
   * then at most 10 per exception type, and one more each 10 s.
   */
  async autocapture(error: unknown, mechanism: CaptureMechanism): Promise<void> {
    try {
      await nextTurn();
      if (this.capturedThisTurn.has(error)) return;
      this.noteCaptured(error);
      const list = exceptionList(error, mechanism);
      const type = list[0]!.type;
      if (!this.limiter.take(type)) {
        if (this.rateLimitedTypes.size > 1000) this.rateLimitedTypes.clear();
        if (!this.rateLimitedTypes.has(type)) this.o.warn(`exception autocapture of ${type} rate-limited: 10, then one per 10 s`);
        this.rateLimitedTypes.add(type);
        return;
      }
      this.rateLimitedTypes.delete(type);
      await this.queue(list, undefined, undefined);
    } catch (e) {
      this.o.report(e as Error);
    }
  }

  /** Queues the `$exception` event of an exception list once its frames' source lines are read. Never rejects. */
  private queue(list: ExceptionEntry[], distinctId: string | undefined, properties: Record<string, unknown> | undefined): Promise<void> {
    const timestamp = new Date(); // when it happened, not when its source lines were read
    const queued = addSourceContext(list)
      .then(() => {
        const anonymous = distinctId === undefined || distinctId === null || distinctId === '';
        this.o.capture({
          distinctId: anonymous ? uuidv7() : distinctId,
          event: '$exception',
          timestamp,
          properties: {
            $exception_list: list,
            $exception_level: 'error',
            ...(anonymous ? { $process_person_profile: false } : {}),
            ...properties,
          },
        });
      })
      .catch((e: unknown) => this.o.report(e as Error))
      .finally(() => this.building.delete(queued));
    this.building.add(queued);
    return queued;
  }

  /**
   * Remembers an exception until the turn after next (the app's listener may run before or after ours). Each is
   * forgotten on its own schedule: clearing them all at once could forget one noted just before autocapture looks.
   */
  private noteCaptured(error: unknown): void {
    this.capturedThisTurn.set(error, (this.capturedThisTurn.get(error) ?? 0) + 1);
    setImmediate(() =>
      setImmediate(() => {
        const left = this.capturedThisTurn.get(error)! - 1;
        if (left) this.capturedThisTurn.set(error, left);
        else this.capturedThisTurn.delete(error);
      }),
    );
  }
}
