// Types of event-stream.mjs.

export interface EventStream {
  status: number;
  headers: Headers;
  /** Everything the stream sent so far (the error body when the status is not 200). */
  text: string;
  /** True once the server ended the stream, or it was closed. */
  ended: boolean;
  /** Settles when the stream has ended. */
  closed: Promise<void>;
  /** Resolves with the whole text once `pattern` matches it; rejects when the stream ends first or `ms` (10 s) pass. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /** Aborts the request. */
  close(): Promise<void>;
}

/** Opens a `text/event-stream` and reads it into `text` as it arrives. */
export function openEventStream(url: string, headers?: Record<string, string>): Promise<EventStream>;
