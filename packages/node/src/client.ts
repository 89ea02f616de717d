import { EventEmitter } from 'node:events';
import { enrollmentEvent, fetchEarlyAccessFeatures, type EarlyAccessFeature, type EarlyAccessFeaturesOptions, type EnrollmentOptions } from './early-access';
import { EventQueue } from './events';
import { startAutocapture } from './exceptions/autocapture';
import { ExceptionCapture } from './exceptions/capture';
import { FlagCalls } from './flags/called';
import type { Bootstrap, Decision, FlagValue } from './flags/decision';
import { FlagEvaluator, type FlagOptions } from './flags/evaluator';
import type { FeatureFlagKey, FeatureFlagPayload, FeatureFlagValue } from './flags/registry';
import { LIB, VERSION } from './http';
import { jsonCopy, type LeftOut } from './json';
import type { AliasMessage, CaptureMessage, GroupIdentifyMessage, IdentifyMessage } from './messages';
import type { ServiceOptions } from './options';
import { uuidv7 } from './uuid';

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
  private readonly flags: FlagEvaluator;
  private readonly flagCalls: FlagCalls;
  private readonly exceptions: ExceptionCapture;
  private readonly earlyAccess: { host: string; token: string; timeout: number };
  private readonly logger: Pick<Console, 'warn' | 'error'>;
  private readonly sendFlagCalls: boolean;
  /** Warns about a value {@link jsonCopy} left out. */
  private readonly leftOut = (at: string, why: LeftOut) => this.logger.warn(`[service-node] left out ${at}, a value JSON cannot hold (${why})`);
  private shuttingDown: Promise<void> | null = null;
  private readonly stopAutocapture: (() => void) | null;

  constructor(projectToken: string, options: ServiceOptions = {}) {
    super();
    if (typeof projectToken !== 'string' || projectToken === '') throw new TypeError('service-node: a project token is required');
    const host = (options.host ?? 'http://localhost:8000').replace(/\/+$/, '');
    this.logger = options.logger ?? console;
    this.sendFlagCalls = options.sendFeatureFlagEvent ?? true;
    this.flagCalls = new FlagCalls(Math.max(1, options.maxCacheSize ?? 50_000));
    const report = (error: Error) => this.report(error);
    const warn = (message: string) => this.logger.warn(`[service-node] ${message}`);
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
      warn,
    });
    this.flags = new FlagEvaluator(
      {
        host,
        token: projectToken,
        personalApiKey: options.personalApiKey,
        pollingInterval: Math.max(100, options.featureFlagsPollingInterval ?? 30_000),
        timeout: requestTimeout,
        remoteTimeout: options.featureFlagsRequestTimeout ?? 3_000,
        realtime: options.realtimeFlags === true,
      },
      report,
    );
    if (options.realtimeFlags && !options.personalApiKey) warn('realtimeFlags needs a personalApiKey (it streams changes to local evaluation): ignored');
    this.earlyAccess = { host, token: projectToken, timeout: requestTimeout };
    this.exceptions = new ExceptionCapture({ capture: (message) => this.capture(message), report, warn });
    this.stopAutocapture = options.enableExceptionAutocapture
      ? startAutocapture({ capture: (error, mechanism) => this.exceptions.autocapture(error, mechanism), shutdown: (ms) => this.shutdown(ms) })
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
      this.exceptions.capture(error, site.stack, distinctId, properties);
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
    await this.exceptions.settled();
    return this.queue.flush();
  }

  /**
   * Stops polling (and the flags' stream) and sends everything pending, retrying until done or `timeoutMs` passed. Never rejects.
   *
   * ```ts
   * process.on('SIGTERM', async () => { await client.shutdown(); process.exit(0); });
   * ```
   */
  shutdown(timeoutMs = 30_000): Promise<void> {
    this.flags.stop();
    this.stopAutocapture?.();
    this.shuttingDown ??= (async () => {
      const started = Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.exceptions.settled(), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
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
  async isFeatureEnabled(key: FeatureFlagKey, distinctId: string, options: FlagOptions = {}): Promise<boolean> {
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
  async getFeatureFlag<K extends FeatureFlagKey>(key: K, distinctId: string, options: FlagOptions = {}): Promise<FeatureFlagValue<K> | undefined> {
    const o = this.flagOptions(options);
    const decision = await this.flags.decide(key, distinctId, o);
    if (o.sendFeatureFlagEvents ?? this.sendFlagCalls) this.flagCalled(key, distinctId, decision, o);
    // The registry's types describe what the service answers; at run time a key is any string.
    return decision?.value as FeatureFlagValue<K> | undefined;
  }

  /**
   * The payload of a flag for this distinct id (parsed JSON), or `undefined` when the flag is off or has
   * none. Sends no `$feature_flag_called`. Throws {@link FlagEvaluationError} when it cannot be evaluated.
   *
   * ```ts
   * const banner = await client.getFeatureFlagPayload('banner', 'user_42'); // e.g. { text: 'Hello' }
   * ```
   */
  async getFeatureFlagPayload<K extends FeatureFlagKey>(key: K, distinctId: string, options: FlagOptions = {}): Promise<FeatureFlagPayload<K> | undefined> {
    return (await this.flags.decide(key, distinctId, this.flagOptions(options)))?.payload as FeatureFlagPayload<K> | undefined;
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
    for (const [key, d] of await this.flags.decideAll(distinctId, this.flagOptions(options))) flags[key] = d.value;
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
    for (const [key, d] of await this.flags.decideAll(distinctId, this.flagOptions(options))) {
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
    await this.flags.reload();
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
    this.safely(() => this.capture(enrollmentEvent(distinctId, flagKey, enrolled, options)));
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

  /** `$feature_flag_called` for a flag read, unless it was sent for this distinct id, flag and value already. */
  private flagCalled(key: string, distinctId: string, d: Decision | undefined, o: FlagOptions): void {
    const properties = this.flagCalls.properties(key, distinctId, d, o.onlyEvaluateLocally === true);
    if (properties) this.capture({ distinctId, event: '$feature_flag_called', properties, groups: o.groups });
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
