import { FlagEvaluationError } from '../errors';
import { NetworkError, request, USER_AGENT } from '../http';
import { parsePayload, type Decision, type FlagContext, type FlagValue } from './decision';

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
