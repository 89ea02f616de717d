import type { Client } from '../../core/client'
import type { ReplayConfig } from '../../replay/types'

/** Where this tab keeps the session a trigger started recording for. */
const TRIGGERED = '__svc_replay_triggered'

const regexes = (list: ReplayConfig['urlTriggers']) =>
  (list ?? []).flatMap((t) => {
    try {
      return [new RegExp(t.url)]
    } catch {
      return []
    }
  })

/**
 * The project's triggers and blocklist, as posthog-js reads them from `sessionRecording`: with `urlTriggers` or
 * `eventTriggers`, a session's recording is kept but not sent until a page of it matches a URL trigger or it captures
 * a trigger event (either: `triggerMatchType` `any`); a page matching `urlBlocklist` is not recorded. The trigger is
 * kept for the session in sessionStorage, so the rest of the session's pages in this tab send at once.
 */
export function recordingGate(client: Client, cfg: ReplayConfig, session: () => string) {
  const urls = regexes(cfg.urlTriggers)
  const blocklist = regexes(cfg.urlBlocklist)
  const events = cfg.eventTriggers ?? []
  const waits = urls.length + events.length > 0
  let triggeredFor: string | null = null
  try {
    triggeredFor = sessionStorage.getItem(TRIGGERED)
  } catch {
    // no sessionStorage: this page's triggers only
  }
  const trigger = () => {
    triggeredFor = session()
    try {
      sessionStorage.setItem(TRIGGERED, triggeredFor)
    } catch {
      // kept in memory
    }
  }
  const off = client.on('eventCaptured', (ev) => {
    if (events.includes(ev.event)) trigger()
  })
  return {
    /** Whether what the session recorded may be sent. */
    triggered: () => !waits || triggeredFor === session(),
    /** Whether this address is not recorded; a URL trigger it matches starts the session's recording. */
    blocked(url: string) {
      if (waits && urls.some((r) => r.test(url))) trigger()
      return blocklist.some((r) => r.test(url))
    },
    off,
  }
}
