import type { Service } from './client'
import type { Announcement } from './bus'

/**
 * A capability the client starts once `init` has run in a browser: autocapture and pageviews are built in;
 * lazy ones (`exceptions`, later session replay and surveys) are chunks of their own, loaded with
 * `client.loadExtension(name)` or by their option. An extension sees only the client's public surface:
 * `capture`, `config`, `get_distinct_id`/`get_session_id`, the flag store and `on(...)` announcements.
 * @example
 * const clicks: Extension = { name: 'clicks', start: (client) => client.on('eventCaptured', (e) => console.log(e.event)) }
 */
export interface Extension {
  /** Its name; a lazy one is src/extensions/<name>.ts, and `/static/<name>.<version>.js` for the script-tag build. */
  name: string
  /**
   * Starts it on an initialised client. `early` holds the window events the client kept for it while its
   * chunk loaded (see `loadExtension`), `heard` the `eventCaptured` and `exception` announcements made meanwhile,
   * in order. Returns what stops it, if anything.
   */
  start(client: Service, early?: Event[], heard?: Announcement[]): (() => void) | void
}

/** Keeps the window events of the given types from now on; the returned function stops and hands them over. */
export function holdEvents(types: string[]): () => Event[] {
  const held: Event[] = []
  const hold = (e: Event) => void held.push(e)
  types.forEach((t) => addEventListener(t, hold))
  return () => {
    types.forEach((t) => removeEventListener(t, hold))
    return held
  }
}
