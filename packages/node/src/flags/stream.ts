import http from 'node:http';
import https from 'node:https';
import { createParser } from 'eventsource-parser';
import { USER_AGENT } from '../http';

/** The first wait before reconnecting, in ms; it doubles with each failed attempt, up to `MAX_DELAY_MS`, with jitter. */
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 60_000;
/** The service sends a comment every 25 s: a connection silent for longer than this is taken for dead. */
const SILENCE_MS = 60_000;

/** Options of {@link FlagStream}. */
export interface FlagStreamOptions {
  /** `<host>/flags/stream?token=<project token>`. */
  url: string;
  personalApiKey: string;
  /** Called on each `refetchEvaluation` notice, and as each connection opens (a change may have come before it). */
  onChange: () => void;
  report: (error: Error) => void;
}

/**
 * Listens to `/flags/stream` and calls `onChange` when the service says the flag definitions changed, so local evaluation
 * reloads them at once instead of at its next poll (which goes on, the fallback should the stream be cut). Reconnects
 * after a failure with exponential back-off and jitter (a 429's `Retry-After` at least). It uses `node:http` rather than
 * fetch so that its connection does not keep the host's process alive, as the poll's timer does not.
 */
export class FlagStream {
  private request: http.ClientRequest | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private stopped = false;

  constructor(private readonly o: FlagStreamOptions) {
    this.connect();
  }

  /** Closes the stream; it does not reconnect. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.request?.destroy();
    this.request = null;
  }

  private connect() {
    if (this.stopped) return;
    let request: http.ClientRequest;
    try {
      const get = this.o.url.startsWith('https:') ? https.get : http.get;
      request = get(this.o.url, { headers: { authorization: `Bearer ${this.o.personalApiKey}`, accept: 'text/event-stream', 'user-agent': USER_AGENT } });
    } catch (error) {
      this.failed(error as Error);
      return;
    }
    this.request = request;
    let done = false;
    const end = (error: Error | null, retryAfterMs = 0) => {
      if (done) return;
      done = true;
      request.destroy();
      if (this.request === request) this.request = null;
      if (error) this.failed(error, retryAfterMs);
      else this.retry(retryAfterMs);
    };
    request.on('socket', (socket) => {
      socket.unref();
      socket.setTimeout(SILENCE_MS, () => end(new Error(`GET /flags/stream: nothing heard for ${SILENCE_MS / 1000} s`)));
    });
    request.on('error', (error) => end(this.stopped ? null : error));
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body = (body + chunk).slice(0, 300)));
        response.on('error', () => undefined);
        response.on('end', () => {
          const retryAfter = Number(response.headers['retry-after']);
          end(new Error(`GET /flags/stream answered ${response.statusCode}: ${body}`), Number.isFinite(retryAfter) ? retryAfter * 1000 : 0);
        });
        return;
      }
      this.failures = 0;
      this.notify();
      const parser = createParser({
        onEvent: (event) => {
          if ((event.event ?? 'message') === 'message' && event.data.includes('"refetchEvaluation"')) this.notify();
        },
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => parser.feed(chunk));
      response.on('error', () => undefined);
      // The service ended the stream (a restart, say): connect again soon, and back off should it keep doing so.
      response.on('close', () => {
        this.failures = Math.max(this.failures, 1);
        end(null);
      });
    });
  }

  private notify() {
    try {
      this.o.onChange();
    } catch (error) {
      this.o.report(error as Error);
    }
  }

  private failed(error: Error, atLeastMs = 0) {
    if (this.stopped) return;
    this.o.report(error);
    this.failures++;
    this.retry(atLeastMs);
  }

  private retry(atLeastMs: number) {
    if (this.stopped) return;
    const backOff = this.failures === 0 ? 0 : Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (this.failures - 1));
    // Jitter: clients cut off together (a restart) do not all come back in the same instant.
    const delay = Math.max(atLeastMs, backOff * (0.5 + Math.random() / 2));
    this.timer = setTimeout(() => this.connect(), delay);
    this.timer.unref();
  }
}
