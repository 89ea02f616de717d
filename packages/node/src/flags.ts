import { compileFlags, type CompiledFlags, type FlagDefinition, type FlagResult, type Inconclusive, type PropertyGroup } from '@service/flag-engine';
import { FlagEvaluationError } from './errors';
import { NetworkError, request, USER_AGENT } from './http';

/** A flag's value: `false`, `true`, or the variant key of a multivariate flag. */
export type FlagValue = boolean | string;

/** Who a flag is evaluated for, beyond the distinct id. */
export interface FlagContext {
  /** Group type → group key, e.g. `{ company: 'acme' }`; needed by group-based flags. */
  groups?: Record<string, string>;
  /** Person properties the flags' conditions read (`distinct_id` is added). */
  personProperties?: Record<string, unknown>;
  /** Group type → that group's properties (`$group_key` is added). */
  groupProperties?: Record<string, Record<string, unknown>>;
}

/** One decided flag. */
export interface Decision {
  value: FlagValue;
  /** Parsed payload of an enabled flag, else undefined. */
  payload: unknown;
  locallyEvaluated: boolean;
  id?: number;
  version?: number;
  reason?: string;
  requestId?: string;
}

/** Payloads are stored and sent as JSON strings; SDKs parse them and keep the raw string when that fails. */
export function parsePayload(payload: unknown): unknown {
  if (payload === null || payload === undefined) return undefined;
  if (typeof payload !== 'string') return payload;
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

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

interface FlagDetail {
  key: string;
  enabled: boolean;
  variant?: string | null;
  failed?: boolean;
  reason?: { description?: string; code?: string } | null;
  metadata?: { id?: number; version?: number; payload?: string | null } | null;
}

interface FlagsResponse {
  flags?: Record<string, FlagDetail>;
  featureFlags?: Record<string, FlagValue>;
  featureFlagPayloads?: Record<string, unknown>;
  requestId?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `/flags?v=2` flag entry this client can read (anything else counts as failed). */
const isFlagDetail = (d: unknown): d is FlagDetail => isRecord(d) && typeof d.enabled === 'boolean' && (d.variant == null || typeof d.variant === 'string');

/**
 * Remote evaluation: `POST {host}/flags/?v=2` for one distinct id, optionally only some keys.
 * Returns the decisions by key, and the keys the service reports as failed; throws {@link FlagEvaluationError}.
 */
export async function remoteFlags(
  o: { url: string; token: string; timeout: number },
  distinctId: string,
  ctx: FlagContext,
  keys?: string[],
): Promise<{ flags: Map<string, Decision>; failed: Set<string> }> {
  const body = JSON.stringify({
    token: o.token,
    distinct_id: distinctId,
    groups: ctx.groups ?? {},
    person_properties: ctx.personProperties ?? {},
    group_properties: ctx.groupProperties ?? {},
    geoip_disable: true,
    ...(keys ? { flag_keys_to_evaluate: keys } : {}),
  });
  let res;
  try {
    res = await request(o.url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT }, body }, o.timeout);
  } catch (error) {
    const kind = error instanceof NetworkError ? error.kind : 'connection_error';
    throw new FlagEvaluationError(kind, `flags unavailable: ${(error as Error).message}`, undefined, { cause: error });
  }
  let parsed: unknown;
  try {
    if (res.status === 200) parsed = JSON.parse(res.text);
  } catch {
    // handled below
  }
  // An answer without a flags object (`flags`, or the legacy `featureFlags`) is no answer.
  if (!isRecord(parsed) || !(isRecord(parsed.flags) || isRecord(parsed.featureFlags))) {
    throw new FlagEvaluationError('api_error', `POST /flags answered ${res.status}: ${res.text.slice(0, 300)}`, res.status);
  }
  const answer = parsed as FlagsResponse;
  const out = new Map<string, Decision>();
  const failed = new Set<string>();
  const requestId = typeof answer.requestId === 'string' ? answer.requestId : undefined;
  if (isRecord(answer.flags)) {
    for (const [key, d] of Object.entries(answer.flags)) {
      if (!isFlagDetail(d) || d.failed) {
        failed.add(key);
        continue;
      }
      const value = d.variant ?? d.enabled;
      out.set(key, {
        value,
        payload: d.enabled ? parsePayload(d.metadata?.payload) : undefined,
        locallyEvaluated: false,
        id: d.metadata?.id,
        version: d.metadata?.version,
        reason: d.reason?.description ?? d.reason?.code,
        requestId,
      });
    }
  } else {
    // Legacy shape (`/decide?v=3`-style servers).
    for (const [key, value] of Object.entries(answer.featureFlags ?? {})) {
      if (typeof value !== 'boolean' && typeof value !== 'string') {
        failed.add(key);
        continue;
      }
      out.set(key, { value, payload: value ? parsePayload(answer.featureFlagPayloads?.[key]) : undefined, locallyEvaluated: false, requestId });
    }
  }
  return { flags: out, failed };
}
