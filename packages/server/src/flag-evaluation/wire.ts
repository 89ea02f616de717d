import type { FlagResult, Inconclusive, Reason } from '@service/flag-engine';
import type { FlagRow } from '../feature-flags/store';

/**
 * The pieces of one flag outcome on the wire, as JSON text ready to join, each after a comma (`renderBody` drops the
 * comma of each map's first piece).
 */
interface Fragments {
  enabled: boolean;
  /** `,"key":{key, enabled, variant, reason, metadata}` for the v2 `flags` map. */
  detail: string;
  /** `,"key":value` for `featureFlags`. */
  value: string;
  /** `,"key":"<payload>"` for `featureFlagPayloads`, or null. */
  payload: string | null;
}

/**
 * JSON text with every character past ASCII escaped (`é` as `\u00e9`): the same JSON to any parser, and one byte a
 * character, so a response's length is its string's and it is written without UTF-8 encoding (`/flags`' answers and errors).
 */
export const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A payload on the wire: a JSON string, as PostHog stores and sends them. */
const payloadString = (payload: unknown) =>
  payload === null || payload === undefined ? null : typeof payload === 'string' ? payload : JSON.stringify(payload);

/**
 * A flag has few distinct outcomes (its reason, which the engine shares between results, and its value),
 * so each outcome's JSON is built once per compiled flag set and responses are joined from those fragments.
 */
export class WireFragments {
  private readonly cache = new Map<string, Map<Reason, Map<string | boolean, Fragments>>>();

  constructor(private readonly byKey: ReadonlyMap<string, FlagRow>) {}

  of(key: string, result: FlagResult | Inconclusive): Fragments {
    // Server mode never answers inconclusive; keep the wire shape total all the same.
    if (result.inconclusive) return this.build(key, false, null, { code: 'no_condition_match', condition_index: null, description: result.why }, null);
    let byReason = this.cache.get(key);
    if (!byReason) this.cache.set(key, (byReason = new Map()));
    let byValue = byReason.get(result.reason);
    if (!byValue) byReason.set(result.reason, (byValue = new Map()));
    let fragments = byValue.get(result.value);
    if (!fragments) byValue.set(result.value, (fragments = this.build(key, result.enabled, result.variant, result.reason, result.payload)));
    return fragments;
  }

  private build(key: string, enabled: boolean, variant: string | null, reason: Reason, stored: unknown): Fragments {
    const row = this.byKey.get(key)!;
    const payload = enabled ? payloadString(stored) : null;
    const name = asciiJson(key);
    const detail = { key, enabled, variant, reason, metadata: { id: row.id, version: row.version, description: row.name || null, payload } };
    return {
      enabled,
      detail: `,${name}:${asciiJson(detail)}`,
      value: `,${name}:${asciiJson(variant ?? enabled)}`,
      payload: payload === null ? null : `,${name}:${asciiJson(payload)}`,
    };
  }
}

export type Shape = 'v2' | 'legacy' | 'enabled-map' | 'enabled-list';

export interface Rendered {
  fragments: Fragments[];
  keys: string[];
  requestId: string;
  evaluatedAt: number;
}

/**
 * The response body as JSON text, ASCII only: v2 (`flags` with details, plus the legacy maps), legacy, or older decide
 * shapes. `extra`: more fields, ASCII.
 *
 * The text only ever grows at its end, a whole fragment at a time: V8 keeps it as one chain of pieces, which Node writes
 * out faster than the same text joined map by map, each piece after its own comma, and than the text flattened first
 * or copied into a Buffer.
 */
export function renderBody({ fragments, keys, requestId, evaluatedAt }: Rendered, shape: Shape, extra: string): string {
  const tail = `"errorsWhileComputingFlags":false,"requestId":"${requestId}"${extra ? `,${extra}` : ''}}`;
  if (shape === 'enabled-list') return `{"featureFlags":${asciiJson(keys.filter((_, i) => fragments[i]!.enabled))},${tail}`;
  let body = '{';
  if (shape === 'v2') body = joined(`${body}"flags":{`, fragments, 'detail') + '},';
  body = joined(`${body}"featureFlags":{`, fragments, 'value', shape === 'enabled-map') + '},';
  if (shape === 'enabled-map') return body + tail;
  body = joined(`${body}"featureFlagPayloads":{`, fragments, 'payload') + '},';
  return shape === 'v2' ? `${body}"evaluatedAt":${evaluatedAt},${tail}` : body + tail;
}

/** `body` followed by one piece of each fragment (none where it is null, or for disabled flags with `enabledOnly`), the first without its comma. */
function joined(body: string, fragments: Fragments[], piece: 'detail' | 'value' | 'payload', enabledOnly = false): string {
  let first = true;
  for (const f of fragments) {
    const text = f[piece];
    if (text === null || (enabledOnly && !f.enabled)) continue;
    body += first ? text.slice(1) : text;
    first = false;
  }
  return body;
}
