import type { RecordPlugin } from '@rrweb/types'

/** Longest text kept of one console argument, and the most arguments kept of one call. */
const MAX_TEXT = 1000
const MAX_ARGS = 20

/** A console argument as text: strings as they are, errors with their stack, the rest as JSON (cut). */
function text(v: unknown): string {
  let s: string
  try {
    s = typeof v === 'string' ? v : v instanceof Error ? `${v.name}: ${v.message}\n${v.stack ?? ''}` : (JSON.stringify(v) ?? String(v))
  } catch {
    s = String(v)
  }
  return s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '…' : s
}

/**
 * `rrweb/console@1`, the plugin event posthog-js's recorder sends and the service counts (logs, warnings,
 * errors): `{level, payload: [texts], trace: []}` for each `console.log/info/warn/error` call. Opt-in by the
 * project (`consoleLogRecordingEnabled`); what a page logs may be private.
 */
export const consolePlugin = (): RecordPlugin => ({
  name: 'rrweb/console@1',
  observer(cb, win) {
    const con = (win as Window & typeof globalThis).console
    const levels = ['log', 'info', 'warn', 'error'] as const
    const originals = levels.map((level) => {
      const original = con[level]
      con[level] = function (this: Console, ...args: unknown[]) {
        try {
          cb({ level, payload: args.slice(0, MAX_ARGS).map(text), trace: [] })
        } catch {
          // recording must never break the page's logging
        }
        return original.apply(this, args)
      }
      return original
    })
    return () => levels.forEach((level, i) => (con[level] = originals[i]))
  },
  options: {},
})

/**
 * `rrweb/network@1` as posthog-js sends it without payload capture: the page's resource timings (`{requests:
 * [{name, initiatorType, startTime, duration, transferSize, ...}]}`), from a `PerformanceObserver`, the page's
 * load included. Requests to the service itself (`apiHost`) are left out: they are the recorder's own.
 */
export const networkPlugin = (apiHost: string): RecordPlugin => ({
  name: 'rrweb/network@1',
  observer(cb, win) {
    const W = win as Window & typeof globalThis
    if (typeof W.PerformanceObserver !== 'function') return () => {}
    const observer = new W.PerformanceObserver((list) => {
      const requests = (list.getEntries() as PerformanceResourceTiming[])
        .filter((e) => !e.name.startsWith(apiHost))
        .map((e) => ({
          name: e.name,
          entryType: e.entryType,
          initiatorType: e.initiatorType,
          timestamp: Math.round(W.performance.timeOrigin + e.startTime),
          startTime: e.startTime,
          duration: e.duration,
          transferSize: e.transferSize,
          responseStatus: (e as PerformanceResourceTiming & { responseStatus?: number }).responseStatus,
        }))
      if (requests.length) cb({ requests })
    })
    try {
      observer.observe({ type: 'resource', buffered: true })
    } catch {
      // an old browser without `type`: no timings
    }
    return () => observer.disconnect()
  },
  options: {},
})
