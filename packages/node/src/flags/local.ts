import { compileFlags, type CompiledFlags, type FlagDefinition, type FlagResult, type Inconclusive, type PropertyGroup } from '@service/flag-engine';
import { request, USER_AGENT } from '../http';
import { parsePayload, type Decision } from './decision';

/** Body of `GET /flags/definitions`. */
interface DefinitionsBody {
  flags: FlagDefinition[];
  group_type_mapping?: Record<string, string>;
  cohorts?: Record<string, PropertyGroup>;
}

/**
 * Flag definitions for local evaluation: loaded at once, then polled every `interval` ms with
 * `If-None-Match`; a 304 keeps what is loaded, a failure too (it is reported).
 */
export class LocalFlags {
  compiled: CompiledFlags | null = null;
  private definitions = new Map<string, FlagDefinition>();
  private etag: string | undefined;
  private loading: Promise<void> | null = null;
  /** A load asked for during another, which may have read the definitions before the change it was asked for. */
  private next: Promise<void> | null = null;
  private readonly poller: ReturnType<typeof setInterval>;
  /** Settles when the first load has finished (loaded or not). */
  readonly ready: Promise<void>;

  constructor(private readonly o: { url: string; personalApiKey: string; interval: number; timeout: number; report: (error: Error) => void }) {
    this.ready = this.load();
    this.poller = setInterval(() => void this.load(), o.interval);
    this.poller.unref();
  }

  /** Fetches the definitions (one request at a time; a call during a load shares it). Never rejects. */
  load(): Promise<void> {
    this.loading ??= this.fetch().finally(() => (this.loading = null));
    return this.loading;
  }

  /** Loads the definitions after a change: at once, or once the load under way has finished. Never rejects. */
  refresh(): Promise<void> {
    if (!this.loading) return this.load();
    this.next ??= this.loading.then(() => {
      this.next = null;
      return this.load();
    });
    return this.next;
  }

  stop(): void {
    clearInterval(this.poller);
  }

  /** A local result as a decision; an inconclusive one as is; undefined for a flag these definitions do not have. */
  decide(result: FlagResult | Inconclusive | undefined): Decision | Inconclusive | undefined {
    if (result === undefined || result.inconclusive) return result;
    const def = this.definitions.get(result.key);
    return {
      value: result.value,
      payload: result.enabled ? parsePayload(result.payload) : undefined,
      locallyEvaluated: true,
      id: def?.id,
      version: def?.version ?? undefined,
      reason: result.reason.description,
    };
  }

  private async fetch(): Promise<void> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.o.personalApiKey}`, 'user-agent': USER_AGENT };
    if (this.etag) headers['if-none-match'] = this.etag;
    try {
      const res = await request(this.o.url, { headers }, this.o.timeout);
      if (res.status === 304) return;
      if (res.status !== 200) throw new Error(`GET /flags/definitions answered ${res.status}: ${res.text.slice(0, 300)}`);
      const body = JSON.parse(res.text) as DefinitionsBody;
      if (!Array.isArray(body?.flags)) throw new Error('GET /flags/definitions: the body has no flags list');
      this.compiled = compileFlags(body.flags, { groupTypeMapping: body.group_type_mapping ?? {}, cohorts: body.cohorts ?? {}, mode: 'local' });
      this.definitions = new Map(body.flags.map((f) => [f.key, f]));
      this.etag = res.headers.get('etag') ?? undefined;
    } catch (error) {
      this.o.report(error as Error);
    }
  }
}
