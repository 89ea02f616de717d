/** Options of `new Service(projectToken, options)`. Every field is optional. */
export interface ServiceOptions {
  /** Where the service runs. Default `http://localhost:8000`. */
  host?: string;
  /** A personal API key with `feature_flag:read`: turns on local evaluation. Without it every flag call asks the service. */
  personalApiKey?: string;
  /** How often flag definitions are polled, in ms (at least 100). Default 30 000. */
  featureFlagsPollingInterval?: number;
  /**
   * With `personalApiKey`: listen to the service's `/flags/stream` and reload the flag definitions as soon as they
   * change, instead of at the next poll (which goes on, as the fallback). Default false.
   */
  realtimeFlags?: boolean;
  /** Send a batch once this many events are queued. Default 20. */
  flushAt?: number;
  /** Send queued events at most this long after they were captured, in ms. Default 5 000. */
  flushInterval?: number;
  /** Time limit of `/batch/` and `/flags/definitions` requests, in ms. Default 10 000. */
  requestTimeout?: number;
  /** Time limit of remote evaluation (`/flags`), in ms. Default 3 000. */
  featureFlagsRequestTimeout?: number;
  /** Events kept while the service does not acknowledge them; beyond this the oldest is dropped (with a warning). Default 10 000. */
  maxQueueSize?: number;
  /** Events per `/batch/` request. Default 100. */
  maxBatchSize?: number;
  /** Retries of a failed `/batch/` request within one flush (network errors, 408, 429, 5xx). Default 3. */
  fetchRetryCount?: number;
  /** First retry delay in ms, doubled for each further retry (±25 %). Default 1 000. */
  fetchRetryDelay?: number;
  /** Gzip `/batch/` bodies (`Content-Encoding: gzip`). Default true. */
  gzip?: boolean;
  /** Where warnings go, and errors when no `error` listener is attached. Default `console`. */
  logger?: Pick<Console, 'warn' | 'error'>;
  /** Default of the flag methods' `sendFeatureFlagEvents` (posthog-node's `sendFeatureFlagEvent`). Default true. */
  sendFeatureFlagEvent?: boolean;
  /**
   * How many distinct ids the `$feature_flag_called` de-duplication remembers (the least recently used is
   * forgotten first; its next call is sent again). Default 50 000, as posthog-node.
   */
  maxCacheSize?: number;
  /**
   * Capture uncaught exceptions and unhandled rejections as `$exception` events (rate-limited per exception type:
   * 10, then one per 10 s). After an uncaught exception the process exits with code 1, as Node would, once the
   * event is sent (at most 2 s), unless the app has its own `uncaughtException` listener. Default false.
   */
  enableExceptionAutocapture?: boolean;
}
