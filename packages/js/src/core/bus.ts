import type { Props } from './properties'
import type { CaptureEvent } from './queue'
import { listeners, type Listeners } from './store'
import type { FlagSnapshot } from '../flags/types'

/** What the client announces (to extensions, through `client.on`), with the value each announcement carries. */
export interface ClientEvents {
  /** An event is being built: add properties to this object (the event's own properties, super properties and the caller's win). */
  beforeCapture: Props
  /** An event went into the send queue, as it will be sent. */
  eventCaptured: CaptureEvent
  /** `/flags` answered: the whole answer, with the project's configuration (`sessionRecording`, `capturePerformance`). */
  remoteConfig: Props
  /**
   * Session replay's state changed: while recording is on, the `/flags` answer holding what to record with (its
   * `sessionRecording` and `capturePerformance`, see src/replay/types.ts); `false` when off. The `replay`
   * extension hears it.
   */
  replay: Props | false
  /** `/flags` answered, or failed (`error` in the snapshot): the flag snapshot after it. */
  featureFlagsLoaded: FlagSnapshot
  /** The distinct id changed (`init`, `identify`, `reset`): the new one. */
  distinctId: string
  /** The session id changed (the first one this page knows, or a new session): the new one. */
  sessionId: string
  /** `flush()` was called: hand what is buffered to the queues now (session replay's recorder does). */
  flush: void
  /** The page is going away (`pagehide`): capture now; the queue leaves with `sendBeacon` right after. */
  unload: void
  /** `captureException` or `addExceptionStep` was called: the `exceptions` extension sends the event, or records the step. */
  exception: ExceptionCall
}

/** A `captureException(error, properties)` or `addExceptionStep(step, properties)` call. */
export type ExceptionRequest = { properties?: Props } & ({ error: unknown } | { step: string })
/** An `ExceptionRequest` with the time it was made. */
export type ExceptionCall = ExceptionRequest & { timestamp: Date }

export type ClientEventName = keyof ClientEvents

/** An announcement as `[name, value]`. */
export type Announcement = { [K in ClientEventName]: [K, ClientEvents[K]] }[ClientEventName]

export interface Bus {
  on<K extends ClientEventName>(name: K, listener: (value: ClientEvents[K]) => void): () => void
  emit<K extends ClientEventName>(name: K, value: ClientEvents[K]): void
}

/** The client's announcements: `on(name, listener) → off`, `emit(name, value)`; a failing listener is skipped. */
export function createBus(): Bus {
  const all: Partial<Record<ClientEventName, Listeners<never>>> = {}
  return {
    on: (name, listener) => (all[name] ??= listeners()).add(listener),
    emit: (name, value) => all[name]?.call(value as never),
  }
}
