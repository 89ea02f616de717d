import type { Client } from '../core/client'

/** Failed connections in a row after which the stream waits for the tab's next return to view. */
const GIVE_UP = 8

/**
 * Option `realtime_flags`: listens to `<api_host>/flags/stream?token=…` (server-sent events) and calls `reload`
 * on each `refetchEvaluation` notice, so values change within a second of a change on the service. A failed
 * connection is retried with exponential back-off and jitter (1–2 s, doubling, at most 60 s), its own and not the
 * browser's, so that every retry backs off and a reconnection asks for the answers it may have missed. After
 * `realtime_flags_inactivity_delay_seconds` (default 120) in a hidden tab the stream closes; the tab's return
 * reopens it and reloads. Without `EventSource`, or after `GIVE_UP` failures in a row (a proxy that blocks
 * streams), the flags refresh as they do without the option (at start, on identify and group, on
 * `reloadFeatureFlags`), and a return to the tab tries the stream again.
 */
export function flagStream(c: Client, reload: () => void): void {
  if (typeof EventSource === 'undefined') return
  let source: EventSource | undefined
  let failures = 0
  let retry: ReturnType<typeof setTimeout> | undefined
  let idle: ReturnType<typeof setTimeout> | undefined

  const close = () => {
    source?.close()
    source = undefined
    clearTimeout(retry)
  }
  const open = () =>
    c._try(() => {
      close()
      const s = (source = new EventSource(`${c.config.api_host}/flags/stream?token=${encodeURIComponent(c.config.token)}`))
      s.onopen = () => {
        // Changes made while this client was not listening reached nobody: ask once it listens again.
        if (failures) reload()
        failures = 0
      }
      s.onmessage = (e) => c._try(() => JSON.parse(e.data).type === 'refetchEvaluation' && reload())
      s.onerror = () => {
        close()
        if (++failures < GIVE_UP) retry = setTimeout(open, Math.min(1e3 << failures, 6e4) * (0.5 + Math.random() / 2))
      }
    })

  /** A hidden tab closes the stream after the delay; a visible one reopens it, and reloads, if it was closed. */
  const seen = () =>
    c._try(() => {
      clearTimeout(idle)
      if (document.hidden) idle = setTimeout(close, (c.config.realtime_flags_inactivity_delay_seconds ?? 120) * 1e3)
      else if (!source) {
        failures = 0
        open()
        reload()
      }
    })
  document.addEventListener('visibilitychange', seen)
  open()
  seen()
}
