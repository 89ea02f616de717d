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

/** What `ServiceProvider`'s `options.bootstrap` (service-js) takes: flags rendered on the server, no flicker. */
export interface Bootstrap {
  distinctID: string;
  featureFlags: Record<string, FlagValue>;
  /** Parsed payloads of enabled flags that have one. */
  featureFlagPayloads: Record<string, unknown>;
}
