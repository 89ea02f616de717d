import { EventEmitter } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { enrollmentProperty, type CompiledFlags, type EvaluationContext, type Inconclusive } from '@service/flag-engine';
import { startAutocapture } from './autocapture';
import { fetchEarlyAccessFeatures, type EarlyAccessFeature, type EarlyAccessFeaturesOptions, type EnrollmentOptions } from './early-access';
import { FlagEvaluationError } from './errors';
import { EventQueue } from './events';
import { exceptionList, type CaptureMechanism, type ExceptionEntry } from './exceptions';
import { LocalFlags, remoteFlags, type Decision, type FlagContext, type FlagValue } from './flags';
import { LIB, VERSION } from './http';
import { jsonCopy, type LeftOut } from './json';
import { BucketRateLimiter } from './rate-limit';
import { addSourceContext } from './source-context';
import { uuidv7 } from './uuid';

/** Options of `new Service(projectToken, options)`. Every field is optional. */
export interface ServiceOptions {
  /** Where the service runs. Default `http://localhost:8000`. */
  host?: string;
  /** A personal API key with `feature_flag:read`: turns on local evaluation. Without it every flag call asks the service. */
  personalApiKey?: string;
  /** How often flag definitions are polled, in ms (at least 100). Default 30 000. */
  featureFlagsPollingInterval?: number;
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

/** An event to capture. */
export interface CaptureMessage {
  distinctId: string;
  event: string;
  properties?: Record<string, unknown>;
  /** Group type → group key, sent as `$groups`. */
  groups?: Record<string, string>;
  /** When it happened. Default: now. */
  timestamp?: Date | string;
  /** The event's id (for de-duplication). Default: a new UUIDv7. */
  uuid?: string;
}

/** Person properties to set: a plain object is `$set`; `$set` / `$set_once` keys may be given explicitly. */
export interface IdentifyMessage {
  distinctId: string;
  properties?: Record<string, unknown>;
}

export interface AliasMessage {
  /** The id the person already has. */
  distinctId: string;
  /** Another id of the same person. */
  alias: string;
}

export interface GroupIdentifyMessage {
  groupType: string;
  groupKey: string;
  /** Properties set on the group (`$group_set`). */
  properties?: Record<string, unknown>;
  /** Default `$<groupType>_<groupKey>`. */
  distinctId?: string;
}

/** Options of the flag methods. */
export interface FlagOptions extends FlagContext {
  /** Never ask the service: throw {@link FlagEvaluationError} when local evaluation cannot decide. Default false. */
  onlyEvaluateLocally?: boolean;
  /** Capture `$feature_flag_called` (once per distinct id, flag and value). Default true. */
  sendFeatureFlagEvents?: boolean;
}

/** What `ServiceProvider`'s `options.bootstrap` (service-js) takes: flags rendered on the server, no flicker. */
export interface Bootstrap {
  distinctID: string;
  featureFlags: Record<string, FlagValue>;
  /** Parsed payloads of enabled flags that have one. */
  featureFlagPayloads: Record<string, unknown>;
}

const isInconclusive = (d: Decision | Inconclusive | undefined): d is Inconclusive => d !== undefined && 'inconclusive' in d;

/**
 * The server-side client: captures events in batches and evaluates feature flags, locally when given a
 * personal API key. Emits `error` for failures that cannot be thrown (sending events, polling definitions).
 *
 * ```ts
 * const client = new Service('phc_...', { host: 'http://localhost:8000', personalApiKey: 'phx_...' });
 * client.on('error', (err) => log.warn(err));
 * ```
 */
export class Service extends EventEmitter<{ error: [error: Error] }> {
  private readonly queue: EventQueue;
  private readonly local: LocalFlags | null;
  private readonly remote: { url: string; token: string; timeout: number };
  private readonly earlyAccess: { host: string; token: string; timeout: number };
  private readonly logger: Pick<Console, 'warn' | 'error'>;
  /** Distinct id → the `flag\u0000value` pairs already sent as `$feature_flag_called`, least recently used first. */
  private readonly flagCalls = new Map<string, Set<string>>();
  private readonly flagCallsMax: number;
  private readonly sendFlagCalls: boolean;
  /** Warns about a value {@link jsonCopy} left out. */
  private readonly leftOut = (at: string, why: LeftOut) => this.logger.warn(`[service-node] left out ${at}, a value JSON cannot hold (${why})`);
  private shuttingDown: Promise<void> | null = null;
  /** Exceptions being turned into events (source files are read): flush and shutdown wait for them. */
  private readonly building = new Set<Promise<void>>();
  /** Exceptions captured in this turn of the event loop (and how many times), so autocapture skips one the app captured itself. */
  private readonly capturedThisTurn = new Map<unknown, number>();
  private readonly exceptionLimiter = new BucketRateLimiter();
  /** Types being dropped by the limiter: warned about once per streak. */
  private readonly rateLimitedTypes = new Set<string>();
  private readonly stopAutocapture: (() => void) | null;

  constructor(projectToken: string, options: ServiceOptions = {}) {
    super();
    if (typeof projectToken !== 'string' || projectToken === '') throw new TypeError('service-node: a project token is required');
    const host = (options.host ?? 'http://localhost:8000').replace(/\/+$/, '');
    this.logger = options.logger ?? console;
    this.flagCallsMax = Math.max(1, options.maxCacheSize ?? 50_000);
    this.sendFlagCalls = options.sendFeatureFlagEvent ?? true;
    const report = (error: Error) => this.report(error);
    const requestTimeout = options.requestTimeout ?? 10_000;
    this.queue = new EventQueue({
      url: `${host}/batch/`,
      apiKey: projectToken,
      flushAt: Math.max(1, options.flushAt ?? 20),
      flushInterval: options.flushInterval ?? 5_000,
      maxBatchSize: Math.max(1, options.maxBatchSize ?? 100),
      maxQueueSize: Math.max(1, options.maxQueueSize ?? 10_000),
      requestTimeout,
      retryCount: options.fetchRetryCount ?? 3,
      retryDelay: options.fetchRetryDelay ?? 1_000,
      gzip: options.gzip ?? true,
      report,
      warn: (message) => this.logger.warn(`[service-node] ${message}`),
    });
    this.remote = { url: `${host}/flags/?v=2`, token: projectToken, timeout: options.featureFlagsRequestTimeout ?? 3_000 };
    this.earlyAccess = { host, token: projectToken, timeout: requestTimeout };
    this.local = options.personalApiKey
      ? new LocalFlags({
          url: `${host}/flags/definitions?token=${encodeURIComponent(projectToken)}&send_cohorts`,
          personalApiKey: options.personalApiKey,
          interval: Math.max(100, options.featureFlagsPollingInterval ?? 30_000),
          timeout: requestTimeout,
          report,
        })
      : null;
    this.stopAutocapture = options.enableExceptionAutocapture
      ? startAutocapture({ capture: (error, mechanism) => this.autocapture(error, mechanism), shutdown: (ms) => this.shutdown(ms) })
      : null;
  }

  /**
   * Queues an event; it is sent in a batch (at `flushAt` events or after `flushInterval`). Never throws.
   *
   * ```ts
   * client.capture({ distinctId: 'user_42', event: 'purchase', properties: { amount: 30 }, groups: { company: 'acme' } });
   * ```
   */
  capture(message: CaptureMessage): void {
    this.safely(() => {
      const { distinctId, event, properties, groups, timestamp, uuid } = message;
      if (!distinctId || typeof event !== 'string' || event === '') throw new TypeError('capture needs a distinctId and an event name');
      this.queue.push({
        uuid: uuid ?? uuidv7(),
        event,
        distinct_id: String(distinctId),
        properties: {
          ...(this.jsonCopy(properties, 'properties') as Record<string, unknown> | undefined),
          $lib: LIB,
          $lib_version: VERSION,
          ...(groups ? { $groups: this.jsonCopy(groups, 'groups') } : {}),
        },
        timestamp: timestamp instanceof Date ? timestamp.toISOString() : (timestamp ?? new Date().toISOString()),
      });
    });
  }

  /**
   * Sets person properties (`$identify`). Never throws.
   *
   * ```ts
   * client.identify({ distinctId: 'user_42', properties: { email: 'ada@example.com', $set_once: { first_seen: '2026-01-01' } } });
   * ```
   */
  identify(message: IdentifyMessage): void {
    this.safely(() => {
      const { $set, $set_once, ...rest } = message.properties ?? {};
      const set = { ...rest, ...($set as Record<string, unknown> | undefined) };
      this.capture({ distinctId: message.distinctId, event: '$identify', properties: { $set: set, ...($set_once ? { $set_once } : {}) } });
    });
  }

  /**
   * Tells the service that two distinct ids are the same person (`$create_alias`). Never throws.
   *
   * ```ts
   * client.alias({ distinctId: 'user_42', alias: 'ada@example.com' });
   * ```
   */
  alias(message: AliasMessage): void {
    this.safely(() => {
      const { distinctId, alias } = message;
      this.capture({ distinctId, event: '$create_alias', properties: { distinct_id: distinctId, alias } });
    });
  }

  /**
   * Sets properties of a group (`$groupidentify`). Never throws.
   *
   * ```ts
   * client.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { plan: 'enterprise' } });
   * ```
   */
  groupIdentify(message: GroupIdentifyMessage): void {
    this.safely(() => {
      const { groupType, groupKey, properties, distinctId } = message;
      if (!groupType || !groupKey) throw new TypeError('groupIdentify needs a groupType and a groupKey');
      this.capture({
        distinctId: distinctId ?? `$${groupType}_${groupKey}`,
        event: '$groupidentify',
        properties: { $group_type: groupType, $group_key: groupKey, $group_set: properties ?? {} },
      });
    });
  }

  /**
   * Captures an exception as an `$exception` event in posthog-node's format: `$exception_list` (the error, then
   * its `cause` chain), each with its stack parsed into frames (oldest first, the throw site last) with source
   * lines read from the files, and `$exception_level: 'error'`. Without a distinct id the event gets a new one and
   * `$process_person_profile: false` (no person is made). `properties` are added to the event (and may set
   * `$exception_fingerprint`, `$issue_name`, ...). Anything can be passed: a value that is not an Error is
   * captured with the stack of this call (`mechanism.synthetic: true`). Never throws; `flush()` sends it now.
   *
   * ```ts
   * try { await charge(order); } catch (error) { client.captureException(error, 'user_42', { order_id: order.id }); }
   * ```
   */
  captureException(error: unknown, distinctId?: string, properties?: Record<string, unknown>): void {
    this.safely(() => {
      const site: { stack?: string } = {};
      Error.captureStackTrace(site, Service.prototype.captureException); // the caller's frames, for a thrown non-Error
      this.noteCaptured(error);
      this.queueException(exceptionList(error, { type: 'generic', handled: true }, site.stack), distinctId, properties);
    });
  }

  /**
   * Sends every queued event now. Resolves when the queue is empty or a batch still failed after its
   * retries (those events stay queued; the error goes to the `error` listener). Never rejects.
   *
   * ```ts
   * await client.flush();
   * ```
   */
  async flush(): Promise<void> {
    await Promise.all(this.building);
    return this.queue.flush();
  }

  /**
   * Stops polling and sends everything pending, retrying until done or `timeoutMs` passed. Never rejects.
   *
   * ```ts
   * process.on('SIGTERM', async () => { await client.shutdown(); process.exit(0); });
   * ```
   */
  shutdown(timeoutMs = 30_000): Promise<void> {
    this.local?.stop();
    this.stopAutocapture?.();
    this.shuttingDown ??= (async () => {
      const started = Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(this.building), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      await this.queue.close(Math.max(0, timeoutMs - (Date.now() - started)));
    })();
    return this.shuttingDown;
  }

  /**
   * Whether a flag is on (enabled, or any variant) for this distinct id; `false` for a flag that does not
   * exist. Evaluated locally when it can be, else by the service.
   * Throws {@link FlagEvaluationError} when neither can answer: catch it and choose a default.
   *
   * ```ts
   * const on = await client.isFeatureEnabled('new-checkout', 'user_42', { personProperties: { plan: 'pro' } }).catch(() => false);
   * ```
   */
  async isFeatureEnabled(key: string, distinctId: string, options: FlagOptions = {}): Promise<boolean> {
    const value = await this.getFeatureFlag(key, distinctId, options);
    return value !== undefined && value !== false;
  }

  /**
   * A flag's value: `true` / `false`, or the variant key; `undefined` for a flag that does not exist.
   * Throws {@link FlagEvaluationError} when it cannot be evaluated.
   *
   * ```ts
   * const variant = await client.getFeatureFlag('checkout-experiment', 'user_42');
   * if (variant === 'test') renderNewCheckout();
   * ```
   */
  async getFeatureFlag(key: string, distinctId: string, options: FlagOptions = {}): Promise<FlagValue | undefined> {
    const o = this.flagOptions(options);
    const decision = await this.decide(key, distinctId, o);
    if (o.sendFeatureFlagEvents ?? this.sendFlagCalls) this.flagCalled(key, distinctId, decision, o);
    return decision?.value;
  }

  /**
   * The payload of a flag for this distinct id (parsed JSON), or `undefined` when the flag is off or has
   * none. Sends no `$feature_flag_called`. Throws {@link FlagEvaluationError} when it cannot be evaluated.
   *
   * ```ts
   * const banner = await client.getFeatureFlagPayload('banner', 'user_42'); // e.g. { text: 'Hello' }
   * ```
   */
  async getFeatureFlagPayload(key: string, distinctId: string, options: FlagOptions = {}): Promise<unknown> {
    return (await this.decide(key, distinctId, this.flagOptions(options)))?.payload;
  }

  /**
   * Every flag's value for this distinct id. Flags that local evaluation cannot decide are asked of the
   * service in one request; if that fails they are left out (and the error is reported). Throws
   * {@link FlagEvaluationError} only when nothing can be evaluated.
   *
   * ```ts
   * const flags = await client.getAllFlags('user_42', { personProperties: { plan: 'pro' } });
   * ```
   */
  async getAllFlags(distinctId: string, options: FlagOptions = {}): Promise<Record<string, FlagValue>> {
    const flags: Record<string, FlagValue> = {};
    for (const [key, d] of await this.decideAll(distinctId, this.flagOptions(options))) flags[key] = d.value;
    return flags;
  }

  /**
   * Every flag's value and payload for this distinct id, shaped as service-js's `bootstrap` option, so a
   * server-rendered page starts with the right flags (see the README). Same rules as {@link getAllFlags}.
   *
   * ```ts
   * const bootstrap = await client.getAllFlagsAndPayloads('user_42');
   * // <ServiceProvider apiKey={token} options={{ bootstrap }}>
   * ```
   */
  async getAllFlagsAndPayloads(distinctId: string, options: FlagOptions = {}): Promise<Bootstrap> {
    const featureFlags: Record<string, FlagValue> = {};
    const featureFlagPayloads: Record<string, unknown> = {};
    for (const [key, d] of await this.decideAll(distinctId, this.flagOptions(options))) {
      featureFlags[key] = d.value;
      if (d.payload !== undefined) featureFlagPayloads[key] = d.payload;
    }
    return { distinctID: distinctId, featureFlags, featureFlagPayloads };
  }

  /**
   * Fetches flag definitions now instead of at the next poll (no-op without a personal API key). Never rejects.
   *
   * ```ts
   * await client.reloadFeatureFlags();
   * ```
   */
  async reloadFeatureFlags(): Promise<void> {
    await this.local?.load();
  }

  /**
   * The project's early access features in the given stages (default: the service's default, `beta`), read
   * from the public list with the project token. Never rejects: on a failure it resolves `[]` and the error
   * goes to the `error` listener.
   *
   * ```ts
   * const features = await client.getEarlyAccessFeatures({ stages: ['concept', 'beta'] });
   * // [{ id, name, description, stage: 'beta', documentationUrl, flagKey: 'dark-mode', payload: { icon: 'moon' } }]
   * ```
   */
  async getEarlyAccessFeatures(options: EarlyAccessFeaturesOptions = {}): Promise<EarlyAccessFeature[]> {
    try {
      return await fetchEarlyAccessFeatures(this.earlyAccess, options?.stages);
    } catch (error) {
      this.report(error as Error);
      return [];
    }
  }

  /**
   * Opts a person (or, with `group`, a group) in or out of the early access feature of a flag: captures
   * `$feature_enrollment_update`, and the service sets the `$feature_enrollment/<flagKey>` property of the
   * person (or group) that the flag's enrollment condition reads. In a release stage (alpha, beta,
   * general-availability) the flag then follows the enrollment; in `concept` the opt-in is only registered.
   * Queued like any event (`flush()` sends it now). Never throws.
   *
   * ```ts
   * client.updateEarlyAccessFeatureEnrollment('user_42', 'dark-mode', true);
   * client.updateEarlyAccessFeatureEnrollment('user_42', 'team-inbox', true, { group: { type: 'company', key: 'acme' } });
   * ```
   */
  updateEarlyAccessFeatureEnrollment(distinctId: string, flagKey: string, enrolled: boolean, options: EnrollmentOptions = {}): void {
    this.safely(() => {
      if (typeof flagKey !== 'string' || flagKey === '' || typeof enrolled !== 'boolean') {
        throw new TypeError('updateEarlyAccessFeatureEnrollment needs a flag key and a boolean');
      }
      const group = options?.group;
      if (group !== undefined && (!group || typeof group.type !== 'string' || !group.type || typeof group.key !== 'string' || !group.key)) {
        throw new TypeError('updateEarlyAccessFeatureEnrollment: group needs a type and a key');
      }
      const properties: Record<string, unknown> = { $feature_flag: flagKey, $feature_enrollment: enrolled };
      if (group) {
        // The service sets the group's property; the person's stays as it is.
        properties.$group_type = group.type;
        properties.$group_key = group.key;
      } else {
        properties.$set = { [enrollmentProperty(flagKey)]: enrolled };
      }
      this.capture({ distinctId, event: '$feature_enrollment_update', properties, groups: group ? { [group.type]: group.key } : undefined });
    });
  }

  /**
   * A flag call's options: null means none, and the properties are as the service receives them (see
   * {@link jsonCopy}), so local evaluation reads the same values and never meets what JSON cannot hold.
   */
  private flagOptions(options: FlagOptions | null): FlagOptions {
    const o = options ?? {};
    const groups = this.jsonCopy(o.groups, 'groups') as FlagOptions['groups'];
    const personProperties = this.jsonCopy(o.personProperties, 'personProperties') as FlagOptions['personProperties'];
    const groupProperties = this.jsonCopy(o.groupProperties, 'groupProperties') as FlagOptions['groupProperties'];
    if (groups === o.groups && personProperties === o.personProperties && groupProperties === o.groupProperties) return o;
    return { ...o, groups, personProperties, groupProperties };
  }

  /** {@link jsonCopy}, warning through the logger about what was left out. */
  private jsonCopy(value: unknown, path: string): unknown {
    return jsonCopy(value, path, this.leftOut);
  }

  private context(distinctId: string, o: FlagOptions): EvaluationContext {
    return { distinctId, personProperties: o.personProperties, groups: o.groups, groupProperties: o.groupProperties };
  }

  /** The compiled definitions once the first load has finished; null without a personal key or definitions. */
  private async definitions(): Promise<CompiledFlags | null> {
    if (!this.local) return null;
    await this.local.ready;
    return this.local.compiled;
  }

  /** One flag: locally if decidable, else the service (unless onlyEvaluateLocally). */
  private async decide(key: string, distinctId: string, o: FlagOptions): Promise<Decision | undefined> {
    const only = o.onlyEvaluateLocally === true;
    const compiled = await this.definitions();
    if (compiled) {
      const d = this.local!.decide(compiled.evaluate(key, this.context(distinctId, o)));
      if (!isInconclusive(d)) {
        // A flag these definitions lack may have been created since the last poll: ask the service.
        if (d !== undefined || only) return d;
      } else if (only) {
        throw new FlagEvaluationError('inconclusive', `${key} cannot be decided locally for ${distinctId}: ${d.why}`);
      }
    } else if (only) {
      throw this.notLoaded();
    }
    const { flags, failed } = await remoteFlags(this.remote, distinctId, o, [key]);
    if (failed.has(key)) throw new FlagEvaluationError('api_error', `the service failed to evaluate ${key}`);
    return flags.get(key);
  }

  /** All flags: what local evaluation decides, the rest from one request to the service. */
  private async decideAll(distinctId: string, o: FlagOptions): Promise<Map<string, Decision>> {
    const only = o.onlyEvaluateLocally === true;
    const out = new Map<string, Decision>();
    const compiled = await this.definitions();
    let undecided: string[] | undefined; // undefined: ask the service for every flag
    if (compiled) {
      undecided = [];
      const all = compiled.evaluateAll(this.context(distinctId, o));
      for (const key of compiled.keys) {
        const d = this.local!.decide(all[key]);
        if (isInconclusive(d)) undecided.push(key);
        else if (d) out.set(key, d);
      }
      if (!undecided.length || only) return out;
    } else if (only) {
      throw this.notLoaded();
    }
    try {
      for (const [key, d] of (await remoteFlags(this.remote, distinctId, o, undecided)).flags) out.set(key, d);
    } catch (error) {
      if (!compiled) throw error;
      this.report(error as Error); // the undecided flags are left out
    }
    return out;
  }

  private notLoaded(): FlagEvaluationError {
    return new FlagEvaluationError(
      'not_loaded',
      this.local ? 'onlyEvaluateLocally: flag definitions are not loaded' : 'onlyEvaluateLocally needs a personalApiKey',
    );
  }

  /**
   * `$feature_flag_called`, once per (distinct id, flag, value), as posthog-node: a flag that does not exist is
   * reported too (no response, `$feature_flag_error: 'flag_missing'`). What was sent is remembered per distinct id,
   * for the `maxCacheSize` most recently used distinct ids.
   */
  private flagCalled(key: string, distinctId: string, d: Decision | undefined, o: FlagOptions): void {
    const seen = `${key}\u0000${String(d?.value)}`;
    const sent = this.flagCalls.get(distinctId) ?? new Set<string>();
    this.flagCalls.delete(distinctId); // re-inserted: now the most recently used
    this.flagCalls.set(distinctId, sent);
    if (sent.has(seen)) return;
    sent.add(seen);
    if (this.flagCalls.size > this.flagCallsMax) this.flagCalls.delete(this.flagCalls.keys().next().value!);
    const properties: Record<string, unknown> = {
      $feature_flag: key,
      $feature_flag_response: d?.value,
      [`$feature/${key}`]: d?.value,
      locally_evaluated: d ? d.locallyEvaluated : o.onlyEvaluateLocally === true,
    };
    if (d === undefined) properties.$feature_flag_error = 'flag_missing';
    if (d?.id !== undefined) properties.$feature_flag_id = d.id;
    if (d?.version !== undefined) properties.$feature_flag_version = d.version;
    if (d?.reason !== undefined) properties.$feature_flag_reason = d.reason;
    if (d?.requestId !== undefined) properties.$feature_flag_request_id = d.requestId;
    this.capture({ distinctId, event: '$feature_flag_called', properties, groups: o.groups });
  }

  /** Queues the `$exception` event of an exception list once its frames' source lines are read. Never rejects. */
  private queueException(list: ExceptionEntry[], distinctId: string | undefined, properties: Record<string, unknown> | undefined): Promise<void> {
    const timestamp = new Date(); // when it happened, not when its source lines were read
    const queued = addSourceContext(list)
      .then(() => {
        const anonymous = distinctId === undefined || distinctId === null || distinctId === '';
        this.capture({
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
      .catch((e: unknown) => this.report(e as Error))
      .finally(() => this.building.delete(queued));
    this.building.add(queued);
    return queued;
  }

  /**
   * An uncaught exception or unhandled rejection, from the process listeners. Waits for the end of the turn, so an
   * app's own `captureException` of it (in its listener or error hook) wins, with its distinct id and properties;
   * then at most 10 per exception type, and one more each 10 s.
   */
  private async autocapture(error: unknown, mechanism: CaptureMechanism): Promise<void> {
    try {
      await nextTurn();
      if (this.capturedThisTurn.has(error)) return;
      this.noteCaptured(error);
      const list = exceptionList(error, mechanism);
      const type = list[0]!.type;
      if (!this.exceptionLimiter.take(type)) {
        if (this.rateLimitedTypes.size > 1000) this.rateLimitedTypes.clear();
        if (!this.rateLimitedTypes.has(type)) this.logger.warn(`[service-node] exception autocapture of ${type} rate-limited: 10, then one per 10 s`);
        this.rateLimitedTypes.add(type);
        return;
      }
      this.rateLimitedTypes.delete(type);
      await this.queueException(list, undefined, undefined);
    } catch (e) {
      this.report(e as Error);
    }
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

  /** Runs `fn`, reporting instead of throwing: the event methods never throw into the host app. */
  private safely(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.report(error as Error);
    }
  }

  private report(error: Error): void {
    try {
      if (this.listenerCount('error') > 0) return void this.emit('error', error);
    } catch (thrown) {
      error = new Error(`an error listener threw: ${(thrown as Error).message}`, { cause: error });
    }
    this.logger.error(`[service-node] ${error.message}`);
  }
}
