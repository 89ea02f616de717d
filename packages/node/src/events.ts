import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { request, sleep, USER_AGENT } from './http';

const gzipAsync = promisify(gzip);

/** An event as sent in a `/batch/` body. */
export interface WireEvent {
  uuid: string;
  event: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  timestamp: string;
}

export interface QueueOptions {
  url: string;
  apiKey: string;
  flushAt: number;
  flushInterval: number;
  maxBatchSize: number;
  maxQueueSize: number;
  requestTimeout: number;
  retryCount: number;
  retryDelay: number;
  gzip: boolean;
  report: (error: Error) => void;
  warn: (message: string) => void;
}

type Outcome = 'sent' | 'rejected' | 'failed';

/** A queued event, serialized once when captured (so a value JSON cannot hold fails at capture, not at send). */
type Serialized = string;

/**
 * Events waiting for the service. An event leaves the queue only once a `/batch/` request holding it was
 * acknowledged (2xx), or rejected for good (a 4xx other than 408 / 429). Network errors, 408, 429 and 5xx
 * are retried with exponential back-off; after `retryCount` retries the events stay for the next flush.
 */
export class EventQueue {
  private events: Serialized[] = [];
  /** Events ever removed from the head of the queue (sent, rejected or dropped): positions of a batch in flight. */
  private removed = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private draining: Promise<void> | null = null;
  private dropped = 0;
  private closed = false;

  constructor(private readonly o: QueueOptions) {}

  /** Queues an event; throws when it cannot be serialized. */
  push(event: WireEvent): void {
    this.events.push(JSON.stringify(event));
    if (this.events.length > this.o.maxQueueSize) {
      this.events.shift();
      this.removed++;
      if (++this.dropped === 1 || this.dropped % 1000 === 0) {
        this.o.warn(`event queue full (maxQueueSize ${this.o.maxQueueSize}): dropped the oldest event (${this.dropped} so far)`);
      }
    }
    if (this.events.length >= this.o.flushAt) void this.flush();
    else this.schedule();
  }

  /** Sends everything queued; resolves when the queue is empty or a batch failed after its retries. Never rejects. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.draining ??= this.drain()
      .catch((error: unknown) => this.o.report(error as Error))
      .finally(() => {
        this.draining = null;
        this.schedule();
      });
    return this.draining;
  }

  /** Flushes until the queue is empty or `timeoutMs` passed; then stops retrying. */
  async close(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length && Date.now() < deadline) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadline - Date.now())));
      await Promise.race([this.flush(), timedOut]);
      clearTimeout(timer);
      if (this.events.length && Date.now() < deadline) await sleep(Math.min(this.o.retryDelay, deadline - Date.now()));
    }
    this.closed = true;
    clearTimeout(this.timer);
    if (this.events.length) this.o.report(new Error(`shutdown: ${this.events.length} events not sent within ${timeoutMs} ms`));
  }

  private schedule(): void {
    if (this.timer || this.closed || !this.events.length) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.o.flushInterval);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    while (this.events.length) {
      const batch = this.events.slice(0, this.o.maxBatchSize);
      const end = this.removed + batch.length;
      const outcome = await this.send(batch);
      if (outcome === 'failed') return;
      if (outcome === 'sent') this.dropped = 0;
      // The batch is still the head of the queue, less any oldest events dropped meanwhile.
      const n = Math.max(0, end - this.removed);
      this.events.splice(0, n);
      this.removed += n;
    }
  }

  private async send(batch: Serialized[]): Promise<Outcome> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
    if (this.o.gzip) headers['content-encoding'] = 'gzip';
    for (let attempt = 0; ; attempt++) {
      // sent_at is the time of this attempt: the service corrects client clock skew with it.
      const json = `{"api_key":${JSON.stringify(this.o.apiKey)},"batch":[${batch.join(',')}],"sent_at":"${new Date().toISOString()}"}`;
      let error: Error;
      let retryable = true;
      try {
        const res = await request(this.o.url, { method: 'POST', headers, body: this.o.gzip ? await gzipAsync(json) : json }, this.o.requestTimeout);
        if (res.status >= 200 && res.status < 300) return 'sent';
        retryable = res.status === 408 || res.status === 429 || res.status >= 500;
        error = new Error(`POST /batch/ answered ${res.status}: ${res.text.slice(0, 300)}`);
      } catch (e) {
        error = e as Error;
      }
      if (!retryable) {
        this.o.report(new Error(`${error.message} (${batch.length} events dropped)`, { cause: error }));
        return 'rejected';
      }
      if (attempt >= this.o.retryCount || this.closed) {
        this.o.report(new Error(`${error.message} (${batch.length} events kept for the next flush)`, { cause: error }));
        return 'failed';
      }
      await sleep(this.o.retryDelay * 2 ** attempt * (0.75 + Math.random() / 2));
    }
  }
}
