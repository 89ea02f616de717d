import type { Client } from '../core/client'
import type { Feature } from '../core/feature'
import { autocaptureProps } from './elements'

/** `$autocapture` for clicks, changes and submits (option `autocapture`, on by default); see `autocaptureProps`. */
export function autocapture(client: Client): Feature {
  return {
    start() {
      if (!client.config.autocapture) return
      const onDom = (e: Event) => {
        try {
          const props = autocaptureProps(e)
          if (props) client.capture('$autocapture', props)
        } catch {
          // an odd DOM never breaks the page's own handlers
        }
      }
      for (const t of ['click', 'change', 'submit']) document.addEventListener(t, onDom, true)
    },
  }
}
