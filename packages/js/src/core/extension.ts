import type { Announcement } from './bus'

/**
 * A capability loaded lazily, a chunk of its own (`exceptions`, `surveys`; later session replay): loaded with
 * `client.loadExtension(name)` or by its option, and started on a client of type `C` once `init` has run in a
 * browser (`Extension` is one for the default `Service`). An extension sees only the client's public surface:
 * `capture`, `config`, `get_distinct_id`/`get_session_id`, the flag store and `on(...)` announcements.
 * @example
 * const clicks: Extension = { name: 'clicks', start: (client) => client.on('eventCaptured', (e) => console.log(e.event)) }
 */
export interface ExtensionOf<C> {
  /** Its name; a lazy one is src/extensions/<name>.ts, and `/static/<name>.<version>.js` for the script-tag build. */
  name: string
  /**
   * Starts it on an initialised client. `early` holds the window events the client kept for it while its
   * chunk loaded (see `loadExtension`), `heard` the `eventCaptured` and `exception` announcements made meanwhile,
   * in order. Returns what stops it, if anything.
   */
  start(client: C, early?: Event[], heard?: Announcement[]): (() => void) | void
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
