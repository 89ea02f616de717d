import type { FlagResult, Inconclusive } from '@service/flag-engine';
import type { FlagRow } from '../feature-flags/store';

/** The pieces of one flag outcome on the wire, as JSON text ready to join. */
interface Fragments {
  enabled: boolean;
  /** `"key":{key, enabled, variant, reason, metadata}` for the v2 `flags` map. */
  detail: string;
  /** `"key":value` for `featureFlags`. */
  value: string;
  /** `"key":"<payload>"` for `featureFlagPayloads`, or null. */
  payload: string | null;
}

/** A payload on the wire: a JSON string, as PostHog stores and sends them. */
const payloadString = (payload: unknown) => (payload === null || payload === undefined ? null : typeof payload === 'string' ? payload : JSON.stringify(payload));

/**
 * A flag has few distinct outcomes (enabled or not, which variant, which reason), so each outcome's JSON
 * is built once per compiled flag set and responses are joined from those fragments.
 */
export class WireFragments {
  private readonly cache = new Map<string, Fragments>();

  constructor(private readonly byKey: ReadonlyMap<string, FlagRow>) {}

  of(key: string, result: FlagResult | Inconclusive): Fragments {
    // Server mode never answers inconclusive; keep the wire shape total all the same.
    const decided = result.inconclusive
      ? { enabled: false, variant: null, payload: null, reason: { code: 'no_condition_match', condition_index: null, description: result.why } }
      : result;
    const id = `${key}\0${decided.enabled}\0${decided.variant}\0${decided.reason.code}\0${decided.reason.condition_index}\0${decided.reason.description}`;
    let fragments = this.cache.get(id);
    if (!fragments) {
      const row = this.byKey.get(key)!;
      const payload = decided.enabled ? payloadString(decided.payload) : null;
      const name = JSON.stringify(key);
      const detail = {
        key,
        enabled: decided.enabled,
        variant: decided.variant,
        reason: decided.reason,
        metadata: { id: row.id, version: row.version, description: row.name || null, payload },
      };
      fragments = {
        enabled: decided.enabled,
        detail: `${name}:${JSON.stringify(detail)}`,
        value: `${name}:${JSON.stringify(decided.variant ?? decided.enabled)}`,
        payload: payload === null ? null : `${name}:${JSON.stringify(payload)}`,
      };
      this.cache.set(id, fragments);
    }
    return fragments;
  }
}

export type Shape = 'v2' | 'legacy' | 'enabled-map' | 'enabled-list';

export interface Rendered {
  fragments: Fragments[];
  keys: string[];
  requestId: string;
  evaluatedAt: number;
}

/** The response body as JSON text: v2 (`flags` with details, plus the legacy maps), legacy, or older decide shapes. */
export function renderBody({ fragments, keys, requestId, evaluatedAt }: Rendered, shape: Shape, extra: string): string {
  const join = (pick: (f: Fragments) => string | null) => fragments.map(pick).filter((s) => s !== null).join(',');
  const tail = `"errorsWhileComputingFlags":false,"requestId":"${requestId}"${extra ? `,${extra}` : ''}`;
  const maps = `"featureFlags":{${join((f) => f.value)}},"featureFlagPayloads":{${join((f) => f.payload)}}`;
  switch (shape) {
    case 'v2':
      return `{"flags":{${join((f) => f.detail)}},${maps},"evaluatedAt":${evaluatedAt},${tail}}`;
    case 'legacy':
      return `{${maps},${tail}}`;
    case 'enabled-map':
      return `{"featureFlags":{${join((f) => (f.enabled ? f.value : null))}},${tail}}`;
    case 'enabled-list':
      return `{"featureFlags":${JSON.stringify(keys.filter((_, i) => fragments[i]!.enabled))},${tail}}`;
  }
}
