import { record } from '@rrweb/record'
import type { eventWithTime } from '@rrweb/types'
import type { Client } from '../../core/client'
import { uuidTime } from '../../core/identity'
import type { ReplayConfig } from '../../replay/types'
import { jsonBytes, split } from './batches'
import { mutationLimiter } from './limiter'
import { consolePlugin, networkPlugin } from './plugins'
import { recordingGate } from './triggers'

/** Batches go to the queue this often. */
export const FLUSH_MS = 2000
/** No user interaction for this long: the recording pauses (nothing is sent) until the next one. */
export const IDLE_MS = 5 * 60_000
/** The recording starts (its first full snapshot) when the page is idle, or after this long at the latest. */
export const START_MS = 2000
/** A DOM change adding more elements than this is recorded by a full snapshot once the page is idle (see below). */
export const BURST_ELEMENTS = 2000

/** Runs `fn` when the page is idle (`requestIdleCallback`, at most `timeout` later); returns what cancels it. */
function whenIdle(fn: () => void, timeout: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(fn, 1)
  return () => clearTimeout(id)
}

// rrweb's event types and incremental sources, as numbers (its enums would weigh on the chunk).
const FULL_SNAPSHOT = 2
const INCREMENTAL = 3
const META = 4
/** The incremental sources a user causes (mouse move and interaction, scroll, resize, input, touch, media, drag). */
const USER_SOURCES = [1, 2, 3, 4, 5, 6, 7, 12]

const isInteraction = (e: eventWithTime) => e.type === INCREMENTAL && USER_SOURCES.includes((e.data as { source: number }).source)

/** A selector list from the project's and the page's, or undefined when neither gives one. */
const selectors = (...s: (string | null | undefined)[]) => s.filter(Boolean).join(',') || undefined

/**
 * The rrweb options: private by default. Passwords are always masked (rrweb keeps masking an input that was a
 * password after its type changes), other inputs unless the page says `maskAllInputs: false`; `svc-no-capture`
 * and `ph-no-capture` elements are blocked (rrweb records a placeholder of their size), `svc-mask` and `ph-mask`
 * have their text masked; the project's selectors and the page's add to them. Work is bounded: mouse moves,
 * scrolls and media are throttled, an input records its last value only, and what a replay does not need
 * (scripts, comments, head meta) is left out.
 */
export function rrwebOptions(cfg: ReplayConfig, apiHost: string) {
  const o = cfg.options ?? {}
  return {
    maskAllInputs: o.maskAllInputs !== false,
    maskInputOptions: { password: true },
    blockClass: /^(svc|ph)-no-capture$/,
    blockSelector: selectors(cfg.masking?.blockSelector, o.blockSelector),
    maskTextClass: /^(svc|ph)-mask$/,
    maskTextSelector: selectors(cfg.masking?.maskTextSelector, o.maskTextSelector),
    recordCanvas: !!cfg.recordCanvas,
    sampling: { mousemove: 50, scroll: 150, media: 800, input: 'last' as const, ...(cfg.recordCanvas ? { canvas: 4 } : {}) },
    dataURLOptions: { type: 'image/webp', quality: 0.4 },
    slimDOMOptions: 'all' as const,
    inlineStylesheet: true,
    collectFonts: false,
    plugins: [...(cfg.consoleLogRecordingEnabled ? [consolePlugin()] : []), ...(cfg.networkTiming ? [networkPlugin(apiHost)] : [])],
  }
}

/**
 * Records this page with rrweb and sends what it records as `$snapshot` events (through the client's queue for
 * `/s/`, which keeps them across failed sends): every 2 s and on `pagehide`, each under 0.9 MB, not before the
 * session has lasted `minimumDurationMilliseconds` (until then they are kept). After 5 minutes without user
 * interaction the recording pauses; the next interaction resumes it with a full snapshot, in a new session if
 * the client's session ended meanwhile (30 idle minutes, or 24 hours). Its work is bounded: it starts (rrweb's
 * first full snapshot, the whole page in one task) once the page is idle rather than during its load, a DOM change
 * adding over 2,000 elements at once is recorded by a full snapshot when the page is idle again, and a node's text
 * and attribute changes past a rate limit are dropped (limiter.ts), counted in a `$mutations_rate_limited` custom
 * event. Returns what stops it.
 */
export function startRecording(client: Client, cfg: ReplayConfig): () => void {
  const limiter = mutationLimiter()
  const minMs = Number(cfg.minimumDurationMilliseconds) || 0
  let session = client.get_session_id()
  let buffer: eventWithTime[] = []
  let lastActive = Date.now()
  let idle = false
  let href = location.href
  const gate = recordingGate(client, cfg, () => session)
  let blocked = gate.blocked(href)

  /** Hands the buffered events of the current session to the queue, in batches under 0.9 MB. */
  const flush = () => {
    if (!idle && Date.now() - lastActive > IDLE_MS) idle = true
    const limited = limiter.take(Date.now())
    if (limited && stopRecord) record.addCustomEvent('$mutations_rate_limited', limited)
    if (!gate.triggered()) {
      // Until a trigger: only what a replay needs from the last full snapshot on (rrweb takes one a minute then).
      const last = buffer.map((e) => e.type).lastIndexOf(FULL_SNAPSHOT)
      if (last > 0) buffer = buffer.slice(buffer[last - 1]!.type === META ? last - 1 : last)
      return
    }
    if (!buffer.length || Date.now() - uuidTime(session) < minMs) return
    const events = buffer
    buffer = []
    // ($window_id is the client's, on every event)
    for (const batch of split(events, jsonBytes))
      client.capture('$snapshot', { $snapshot_data: batch.events, $session_id: session, $snapshot_bytes: batch.bytes })
  }

  const emit = (event: eventWithTime) => {
    // A blocklisted page records nothing; leaving it, the recording goes on with a full snapshot.
    if (href !== location.href) {
      const was = blocked
      blocked = gate.blocked(location.href)
      if (was && !blocked && stopRecord) {
        href = location.href
        record.takeFullSnapshot()
      }
    }
    if (blocked) return
    const e = limiter.limit(event)
    if (!e) return
    if (isInteraction(e)) {
      lastActive = e.timestamp
      if (idle) {
        // Back from idle: the recording resumes with a full snapshot, which holds what this interaction did (a
        // new session's, taken by the `sessionId` listener, if the client's session ended meanwhile).
        idle = false
        if (client.get_session_id() === session && stopRecord) record.takeFullSnapshot()
        return
      }
    } else if (!idle && e.timestamp - lastActive > IDLE_MS) {
      idle = true
      flush()
    }
    // Idle: paused, but a full snapshot (taken on resuming) starts what comes next.
    if (!idle || e.type === META || e.type === FULL_SNAPSHOT) buffer.push(e)
    // A new address without a new document (history.pushState): said as posthog-js says it, for the URLs visited.
    if (href !== location.href && e.type !== META) {
      href = location.href
      record.addCustomEvent('$url_changed', { href })
    }
  }

  /** What stops rrweb while it records. */
  let stopRecord: (() => void) | undefined
  let cancelStart = () => {}
  /** rrweb starts (with a full snapshot of the page) once the page is idle, not during its load or a burst. */
  const start = () => {
    cancelStart = whenIdle(() => {
      href = location.href
      blocked = gate.blocked(href)
      stopRecord = record({
        emit,
        errorHandler: () => true,
        // Waiting for a trigger, a full snapshot a minute bounds what is kept (see flush).
        ...(gate.triggered() ? {} : { checkoutEveryNms: 60_000 }),
        ...rrwebOptions(cfg, client.config.api_host),
      })
    }, START_MS)
  }
  start()
  // rrweb serializes what one DOM change adds in one task, with more work a node than its full snapshot does (a
  // 1,000-row table: some 250 ms). This observer hears of each change before rrweb's does (observers are told in
  // the order they were made, and a stopped one is not told), so a burst stops rrweb before it serializes it: the
  // recording goes on with a full snapshot when the page is idle (what the page shows then, at its true time).
  // Not while the recording is paused (no interaction for 5 minutes): that snapshot would be sent.
  const bursts = new MutationObserver((records) => {
    if (idle || !stopRecord) return
    let n = 0
    for (const r of records) r.addedNodes.forEach((node) => (n += 1 + ((node as Element).getElementsByTagName?.('*').length ?? 0)))
    if (n > BURST_ELEMENTS) {
      stopRecord()
      stopRecord = undefined
      start()
    }
  })
  bursts.observe(document, { childList: true, subtree: true })
  const timer = setInterval(flush, FLUSH_MS)
  const stops = [
    () => cancelStart(),
    () => bursts.disconnect(),
    // A new session: what was recorded goes out under the old one, then a full snapshot starts the new one.
    client.on('sessionId', (id) => {
      if (id === session) return
      flush()
      buffer = []
      session = id
      lastActive = Date.now()
      // (while rrweb waits to start again, its start takes one)
      if (stopRecord) record.takeFullSnapshot()
    }),
    client.on('unload', flush),
    client.on('flush', flush),
    gate.off,
  ]
  return () => {
    clearInterval(timer)
    stops.forEach((stop) => stop())
    stopRecord?.()
    flush()
  }
}
