import type { CompiledFlags, EvaluationContext, Inconclusive } from '@service/flag-engine';
import { FlagEvaluationError } from '../errors';
import type { Decision, FlagContext } from './decision';
import { LocalFlags } from './local';
import { remoteFlags } from './remote';
import { FlagStream } from './stream';

/** Options of the flag methods. */
export interface FlagOptions extends FlagContext {
  /** Never ask the service: throw {@link FlagEvaluationError} when local evaluation cannot decide. Default false. */
  onlyEvaluateLocally?: boolean;
  /** Capture `$feature_flag_called` (once per distinct id, flag and value). Default true. */
  sendFeatureFlagEvents?: boolean;
}

const isInconclusive = (d: Decision | Inconclusive | undefined): d is Inconclusive => d !== undefined && 'inconclusive' in d;

/**
 * Decides flags for a distinct id: with a personal API key from the polled definitions ({@link LocalFlags}), and
 * what they cannot decide (or everything, without a key) by the service's `/flags` ({@link remoteFlags}).
 */
export class FlagEvaluator {
  private readonly local: LocalFlags | null;
  private readonly stream: FlagStream | null;
  private readonly remote: { url: string; token: string; timeout: number };

  constructor(
    o: { host: string; token: string; personalApiKey?: string; pollingInterval: number; timeout: number; remoteTimeout: number; realtime: boolean },
    private readonly report: (error: Error) => void,
  ) {
    this.remote = { url: `${o.host}/flags/?v=2`, token: o.token, timeout: o.remoteTimeout };
    this.local = o.personalApiKey
      ? new LocalFlags({
          url: `${o.host}/flags/definitions?token=${encodeURIComponent(o.token)}&send_cohorts`,
          personalApiKey: o.personalApiKey,
          interval: o.pollingInterval,
          timeout: o.timeout,
          report,
        })
      : null;
    const local = this.local;
    this.stream =
      local && o.realtime
        ? new FlagStream({
            url: `${o.host}/flags/stream?token=${encodeURIComponent(o.token)}`,
            personalApiKey: o.personalApiKey!,
            onChange: () => void local.refresh(),
            report,
          })
        : null;
  }

  /** Fetches the definitions now (nothing without a personal API key). Never rejects. */
  async reload(): Promise<void> {
    await this.local?.load();
  }

  /** Stops polling the definitions and closes their stream. */
  stop(): void {
    this.local?.stop();
    this.stream?.stop();
  }

  /** One flag: locally if decidable, else the service (unless onlyEvaluateLocally). */
  async decide(key: string, distinctId: string, o: FlagOptions): Promise<Decision | undefined> {
    const only = o.onlyEvaluateLocally === true;
    const compiled = await this.definitions();
    if (compiled) {
      const d = this.local!.decide(compiled.evaluate(key, context(distinctId, o)));
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
  async decideAll(distinctId: string, o: FlagOptions): Promise<Map<string, Decision>> {
    const only = o.onlyEvaluateLocally === true;
    const out = new Map<string, Decision>();
    const compiled = await this.definitions();
    let undecided: string[] | undefined; // undefined: ask the service for every flag
    if (compiled) {
      undecided = [];
      const all = compiled.evaluateAll(context(distinctId, o));
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

  /** The compiled definitions once the first load has finished; null without a personal key or definitions. */
  private async definitions(): Promise<CompiledFlags | null> {
    if (!this.local) return null;
    await this.local.ready;
    return this.local.compiled;
  }

  private notLoaded(): FlagEvaluationError {
    return new FlagEvaluationError(
      'not_loaded',
      this.local ? 'onlyEvaluateLocally: flag definitions are not loaded' : 'onlyEvaluateLocally needs a personalApiKey',
    );
  }
}

function context(distinctId: string, o: FlagOptions): EvaluationContext {
  return { distinctId, personProperties: o.personProperties, groups: o.groups, groupProperties: o.groupProperties };
}
