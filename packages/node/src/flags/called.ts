import type { Decision } from './decision';

/**
 * What `$feature_flag_called` events to send: once per (distinct id, flag, value), as posthog-node. What was sent
 * is remembered per distinct id, for the `max` most recently used distinct ids.
 */
export class FlagCalls {
  /** Distinct id → the `flag\u0000value` pairs already sent, least recently used first. */
  private readonly sent = new Map<string, Set<string>>();

  constructor(private readonly max: number) {}

  /**
   * The properties of the `$feature_flag_called` event of a flag read, or undefined when it was sent already. A
   * flag that does not exist is reported too (no response, `$feature_flag_error: 'flag_missing'`).
   */
  properties(key: string, distinctId: string, d: Decision | undefined, onlyEvaluateLocally: boolean): Record<string, unknown> | undefined {
    const seen = `${key}\u0000${String(d?.value)}`;
    const sent = this.sent.get(distinctId) ?? new Set<string>();
    this.sent.delete(distinctId); // re-inserted: now the most recently used
    this.sent.set(distinctId, sent);
    if (sent.has(seen)) return undefined;
    sent.add(seen);
    if (this.sent.size > this.max) this.sent.delete(this.sent.keys().next().value!);
    const properties: Record<string, unknown> = {
      $feature_flag: key,
      $feature_flag_response: d?.value,
      [`$feature/${key}`]: d?.value,
      locally_evaluated: d ? d.locallyEvaluated : onlyEvaluateLocally,
    };
    if (d === undefined) properties.$feature_flag_error = 'flag_missing';
    if (d?.id !== undefined) properties.$feature_flag_id = d.id;
    if (d?.version !== undefined) properties.$feature_flag_version = d.version;
    if (d?.reason !== undefined) properties.$feature_flag_reason = d.reason;
    if (d?.requestId !== undefined) properties.$feature_flag_request_id = d.requestId;
    return properties;
  }
}
