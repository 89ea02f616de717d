import type { Client } from '../../core/client'
import type { ExtensionOf } from '../../core/extension'
import type { Props } from '../../core/properties'
import type { ReplayConfig } from '../../replay/types'
import { startRecording } from './recording'

/**
 * Lazy extension `replay`: session replay's recorder (rrweb's, see recording.ts). The replay feature
 * (src/replay/feature.ts) loads it once the project records and this session is sampled in, then announces
 * `replay` with what to record with, or `false` to stop (the session was not sampled in, the linked flag went
 * off, `stopSessionRecording`). src/extensions/replay.ts makes it a chunk of its own.
 */
/** What to record with, from the `/flags` answer and the page's `session_recording` option. */
export const config = (answer: Props, client: Client): ReplayConfig => ({
  ...(answer.sessionRecording as ReplayConfig),
  networkTiming: !!(answer.capturePerformance as { network_timing?: boolean } | undefined)?.network_timing,
  options: client.config.session_recording,
})

const replay: ExtensionOf<Client> = {
  name: 'replay',
  start(client) {
    let stop: (() => void) | undefined
    const off = client.on('replay', (cfg) => {
      if (!cfg) {
        stop?.()
        stop = undefined
      } else stop ??= startRecording(client, config(cfg, client))
    })
    return () => {
      off()
      stop?.()
    }
  },
}

export default replay
