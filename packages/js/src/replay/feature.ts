import type { Client } from '../core/client'
import type { Feature } from '../core/feature'
import type { Props } from '../core/properties'
import type { FlagsApi } from '../flags/feature'
import type { RemoteReplayConfig, ReplayApi } from './types'

/**
 * Session replay, in the core only as its decision and its calls: it hears the project's `sessionRecording`
 * from `/flags?config=true` (`remoteConfig`) and loads the lazy `replay` extension (rrweb's recorder) only when it
 * is an object, this session is sampled in (`sampleRate`, decided by the session id, so once per session) and the linked
 * flag is on; it decides again when the flags or the session change, and tells the extension (`replay`: the
 * `/flags` answer with the configuration to record with, or `false`).
 */
export function replay(c: Client & FlagsApi): Feature<ReplayApi> {
  /** The last `/flags` answer. */
  let remote: Props | undefined
  /** `startSessionRecording(true)`: on whatever the sampling and the linked flag; `false`: stopped. */
  let manual: boolean | undefined
  let state: Props | false = false
  let loaded = false

  const decide = (sid = c.get_session_id()) => {
    const r = remote?.sessionRecording as RemoteReplayConfig | false | undefined
    let next: Props | false = false
    if (r && typeof r === 'object' && manual !== false && !c.config.disable_session_recording) {
      // The session id's last 32 bits are random (UUIDv7): the same answer for the whole session, in every tab.
      const sampled = parseInt(sid.slice(-8), 16) / 2 ** 32 < +(r.sampleRate ?? 1)
      const l = r.linkedFlag
      const v = l ? c.flagStore.getSnapshot().flags[typeof l === 'string' ? l : l.flag] : true
      const flagOn = typeof l === 'object' && l?.variant != null ? v === l.variant : !!v
      if (manual || (sampled && flagOn)) next = remote!
    }
    state = next
    if (next)
      void c._load('replay').then((ok) => {
        loaded = ok
        c._bus.emit('replay', state)
      })
    else if (loaded) c._bus.emit('replay', false)
  }

  // (The bus skips a listener that throws.)
  c.on('remoteConfig', (answer) => (remote = answer))
  c.on('featureFlagsLoaded', () => decide())
  c.on('sessionId', (sid) => remote && decide(sid))

  return {
    api: {
      startSessionRecording: (override) =>
        c._run(() => {
          manual = override || undefined
          decide()
        }),
      stopSessionRecording: () =>
        c._run(() => {
          manual = false
          decide()
        }),
      sessionRecordingStarted: () => loaded && !!state,
      getSessionReplayUrl: () => c.config.api_host + '/replays/' + c.get_session_id(),
    },
  }
}
