import type { Props } from './properties'

/**
 * A capability that plugs into the core client (`Client`): flags, early access, `captureException`,
 * autocapture, pageviews. Each is made once per client, by a function given the client, and returns the
 * public members it adds to the client (`api`) and the hooks the core calls. A feature reaches the core
 * through the client's members, the internal ones (`_storage`, `_capture`, `_run`, ...) included; code
 * loaded lazily (an `Extension`) sees the public ones only.
 * @example
 * const clicks = (client: Client): Feature<{ clicks(): number }> => {
 *   let n = 0
 *   return { api: { clicks: () => n }, start: () => document.addEventListener('click', () => n++) }
 * }
 */
export interface Feature<A extends object = object> {
  /** The public members it adds to the client (methods and stores), there from the client's construction. */
  api?: A
  /** `init` has set up storage and identity: read what the feature keeps (before the calls made before `init` are replayed). */
  init?(): void
  /** In a browser, at the end of `init`, after the calls made before it are replayed. */
  start?(): void
  /** Properties for every event: over those `beforeCapture` listeners add, under super properties and the event's own. */
  properties?(): Props
  /** The person changed (`identify`), or their properties or groups did (`identify`, `group`): what the service answers for them may too. */
  personChanged?(): void
  /** `reset`: the person is forgotten, and so is what the feature knew of them. */
  reset?(): void
}
