import type { SessionRecordingOptions } from '../core/config'

/**
 * The project's `sessionRecording` as `/flags?config=true` (and the remote config) carry it while the project
 * records: posthog-js's shape, read by both recorders. `false` when the project does not record.
 */
export interface RemoteReplayConfig {
  /** Where batches go: `/s/`. */
  endpoint?: string
  /** The share of sessions recorded, a decimal string (`'0.25'`); absent or null: all. */
  sampleRate?: string | number | null
  /** Nothing is sent before the session has lasted this long. */
  minimumDurationMilliseconds?: number | null
  /** Record only while this flag is on (or has this variant). */
  linkedFlag?: string | { flag: string; variant?: string | null } | null
  masking?: { maskAllInputs?: boolean; maskTextSelector?: string | null; blockSelector?: string | null } | null
  consoleLogRecordingEnabled?: boolean
  recordCanvas?: boolean | null
  /** Sessions are sent once a page of theirs matches one of these (or an event trigger is captured). */
  urlTriggers?: { url: string; matching?: string }[] | null
  /** Pages whose address matches one of these are not recorded. */
  urlBlocklist?: { url: string; matching?: string }[] | null
  /** Sessions are sent once one of these events is captured (or a URL trigger matches). */
  eventTriggers?: string[] | null
}

/** What the `replay` extension records with: the project's configuration and the page's options. */
export interface ReplayConfig extends RemoteReplayConfig {
  /** The project's `capturePerformance.network_timing`: resource timings recorded as `rrweb/network@1` events. */
  networkTiming?: boolean
  /** The `session_recording` option of `init`. */
  options?: SessionRecordingOptions
}

/** What the session replay feature adds to the client. */
export interface ReplayApi {
  /**
   * Starts recording again after `stopSessionRecording`, while the project records; with `true`, this
   * session is recorded even if it was not sampled in or its linked flag is off.
   * @example service.startSessionRecording(true)
   */
  startSessionRecording(override?: boolean): void

  /**
   * Stops recording on this page until `startSessionRecording`.
   * @example service.stopSessionRecording()
   */
  stopSessionRecording(): void

  /**
   * Whether this page is being recorded (the project records, the session is sampled in, the linked flag is on
   * and the recorder has loaded).
   * @example if (service.sessionRecordingStarted()) showRecordingNotice()
   */
  sessionRecordingStarted(): boolean

  /**
   * Where the current session's replay is seen in the service's web app.
   * @example console.log(service.getSessionReplayUrl())
   */
  getSessionReplayUrl(): string
}
