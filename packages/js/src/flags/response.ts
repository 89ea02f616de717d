import type { JsonResult } from '../core/request'
import type { FlagValue, FlagValues } from './types'

/** What `$feature_flag_called` reports about a flag, from the v2 response. */
export interface FlagMeta {
  id?: number
  version?: number
  reason?: string
}

/** What the client keeps of the last answer for `$feature_flag_called`. */
export interface FlagsMeta {
  requestId?: string
  flags?: Record<string, FlagMeta>
}

/**
 * What a `/flags` answer changes: the new values and their metadata, or the error to report (known values are
 * then kept). It reads the v2 shape `{flags: {key: {enabled, variant, reason, metadata}}}` or the legacy
 * `{featureFlags, featureFlagPayloads}` (object of values, or array of enabled keys). Flags that `failed` are left
 * out; a partial answer (`errorsWhileComputingFlags`) keeps `prev` for the flags it lacks.
 */
export function readFlagsAnswer(r: JsonResult, prev: FlagValues): { error: string } | { base: FlagValues; meta: FlagsMeta; partial: boolean } {
  const j = r.json
  if (r.error || !j || typeof j !== 'object') return { error: r.error ?? 'unknown_error' }
  if (Array.isArray(j.quotaLimited) && j.quotaLimited.includes('feature_flags')) return { error: 'quota_limited' }
  const partial = !!j.errorsWhileComputingFlags
  const flags: Record<string, FlagValue> = partial ? { ...prev.flags } : {}
  const payloads: Record<string, unknown> = partial ? { ...prev.payloads } : {}
  const meta: Record<string, FlagMeta> = {}
  if (j.flags && typeof j.flags === 'object') {
    for (const k in j.flags) {
      const d = j.flags[k]
      if (!d || d.failed) continue
      const v: FlagValue = d.enabled ? (typeof d.variant === 'string' ? d.variant : true) : false
      const m = d.metadata ?? {}
      flags[k] = v
      if (v && m.payload != null) payloads[k] = m.payload
      meta[k] = { id: m.id, version: m.version, reason: d.reason?.description ?? d.reason?.code }
    }
  } else {
    const ff = j.featureFlags
    const fp = j.featureFlagPayloads ?? {}
    if (Array.isArray(ff)) ff.forEach((k) => (flags[k] = true))
    else for (const k in ff) if (typeof ff[k] === 'boolean' || typeof ff[k] === 'string') flags[k] = ff[k]
    for (const k in fp) if (flags[k] && fp[k] != null) payloads[k] = fp[k]
  }
  return { base: { flags, payloads }, meta: { requestId: j.requestId, flags: meta }, partial }
}
