import type { JsonResult } from '../core/request'
import type { FlagValue, FlagValues } from './types'

/** What `$feature_flag_called` reports about a flag, from the v2 response. */
export interface FlagMeta {
  id?: number
  version?: number
  reason?: string
}

export interface ParsedFlags extends FlagValues {
  meta: Record<string, FlagMeta>
  requestId?: string
  /** `errorsWhileComputingFlags`: values of flags missing from this response are kept. */
  partial: boolean
  quotaLimited: boolean
}

/* eslint-disable @typescript-eslint/no-explicit-any -- server JSON of two shapes, checked field by field */

/**
 * Reads a `/flags` response: the v2 shape `{flags: {key: {enabled, variant, reason, metadata}}}`
 * or the legacy `{featureFlags, featureFlagPayloads}` (object of values, or array of enabled keys).
 * Flags that `failed` are left out, so the caller keeps their last known value.
 */
export function parseFlagsResponse(r: any): ParsedFlags {
  const flags: Record<string, FlagValue> = {}
  const payloads: Record<string, unknown> = {}
  const meta: Record<string, FlagMeta> = {}
  if (r?.flags && typeof r.flags === 'object') {
    for (const k in r.flags) {
      const d = r.flags[k]
      if (!d || d.failed) continue
      const v: FlagValue = d.enabled ? (typeof d.variant === 'string' ? d.variant : true) : false
      flags[k] = v
      const m = d.metadata ?? {}
      if (v && m.payload != null) payloads[k] = m.payload
      meta[k] = { id: m.id, version: m.version, reason: d.reason?.description ?? d.reason?.code }
    }
  } else {
    const ff = r?.featureFlags
    if (Array.isArray(ff)) ff.forEach((k) => (flags[k] = true))
    else for (const k in ff) if (typeof ff[k] === 'boolean' || typeof ff[k] === 'string') flags[k] = ff[k]
    const fp = r?.featureFlagPayloads ?? {}
    for (const k in fp) if (flags[k] && fp[k] != null) payloads[k] = fp[k]
  }
  return {
    flags,
    payloads,
    meta,
    requestId: r?.requestId,
    partial: !!r?.errorsWhileComputingFlags,
    quotaLimited: Array.isArray(r?.quotaLimited) && r.quotaLimited.includes('feature_flags'),
  }
}

/** What the client keeps of the last answer for `$feature_flag_called`. */
export interface FlagsMeta {
  requestId?: string
  flags?: Record<string, FlagMeta>
}

/**
 * What a `/flags` answer changes: the new values (a partial answer, with errors while computing, keeps
 * `prev` for the flags it lacks) and their metadata, or the error to report (known values are then kept).
 */
export function readFlagsAnswer(r: JsonResult, prev: FlagValues): { error: string } | { base: FlagValues; meta: FlagsMeta; partial: boolean } {
  if (r.error || !r.json || typeof r.json !== 'object') return { error: r.error ?? 'unknown_error' }
  const res = parseFlagsResponse(r.json)
  if (res.quotaLimited) return { error: 'quota_limited' }
  const base = res.partial
    ? { flags: { ...prev.flags, ...res.flags }, payloads: { ...prev.payloads, ...res.payloads } }
    : { flags: res.flags, payloads: res.payloads }
  return { base, meta: { requestId: res.requestId, flags: res.meta }, partial: res.partial }
}
