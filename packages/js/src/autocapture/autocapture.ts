import type { Extension } from '../core/extension'
import { autocaptureProps } from './elements'

/** `$autocapture` for clicks, changes and submits (option `autocapture`, on by default); see `autocaptureProps`. */
export const autocapture: Extension = {
  name: 'autocapture',
  start(client) {
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
