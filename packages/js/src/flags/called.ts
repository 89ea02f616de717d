import type { Props } from '../core/properties'
import type { FlagsMeta } from './response'
import type { InternalFlagStore } from './store'
import type { FlagSnapshot, FlagValue } from './types'

/**
 * Properties of `$feature_flag_called` for a flag read as `value`: the response, payload, request id,
 * the flag's id, version and reason, whether the value came from the bootstrap (and the bootstrapped one),
 * the value an override replaced, and any error (the last load's, `flag_missing`).
 */
export function flagCalledProps(
  key: string,
  value: FlagValue | undefined,
  snap: FlagSnapshot,
  store: InternalFlagStore,
  meta: FlagsMeta = {},
  bootstrap?: Record<string, FlagValue>,
): Props {
  const m = meta.flags?.[key] ?? {}
  const { _base: base, _over: over } = store._state
  const error = [snap.error, value === undefined && 'flag_missing'].filter(Boolean).join()
  return {
    $feature_flag: key,
    $feature_flag_response: value,
    $feature_flag_payload: snap.payloads[key],
    $feature_flag_request_id: meta.requestId,
    $feature_flag_id: m.id,
    $feature_flag_version: m.version,
    $feature_flag_reason: m.reason,
    $used_bootstrap_value: snap.source === 'bootstrap',
    // Properties left undefined are not sent.
    $feature_flag_bootstrapped_response: bootstrap?.[key],
    $feature_flag_original_response: over.flags && key in over.flags ? base.flags[key] : undefined,
    $feature_flag_error: error || undefined,
  }
}
