import type { PersistenceMode } from './persistence'
import type { FlagValue } from '../flags/types'

/** Values computed elsewhere (usually on your server) and served synchronously until `/flags` answers. */
export interface Bootstrap {
  /** The distinct id to use from the first event on. */
  distinctID?: string
  /** `true` when `distinctID` is a known user (not an anonymous id): no `$identify` is sent for it. */
  isIdentifiedID?: boolean
  /** Flag values by key: `true`/`false` or a variant key. */
  featureFlags?: Record<string, FlagValue>
  /** Flag payloads by key (parsed JSON, or JSON strings which are parsed). */
  featureFlagPayloads?: Record<string, unknown>
}

/**
 * Options of `init(projectToken, options)` for a client of type `C` (`ServiceOptions` for the default
 * `Service`). Every field is optional.
 */
export interface Options<C> {
  /** Where the service runs. Default `http://localhost:8000`. */
  api_host?: string
  /** Abort the `/flags` request after this many ms (cached/bootstrapped values stay in use). Default 3000. */
  feature_flag_request_timeout_ms?: number
  /** Identity and flag values available before any request. */
  bootstrap?: Bootstrap
  /** Where identity, super properties, flags and the unsent-event queue live. Default `localStorage+cookie`. */
  persistence?: PersistenceMode
  /** Capture clicks, changes and submits as `$autocapture`. Default true. */
  autocapture?: boolean
  /** `true`: `$pageview` on load; `'history_change'`: also on pushState/replaceState/popstate. Default true. */
  capture_pageview?: boolean | 'history_change'
  /** Capture `$pageleave` on `pagehide`. Default: when `capture_pageview` is on. */
  capture_pageleave?: boolean | 'if_capture_pageview'
  /** Capture uncaught errors and unhandled rejections as `$exception`. Default false. */
  capture_exceptions?: boolean
  /**
   * Your app's release (a version or commit), sent as `$release` on `$exception` events: the service picks
   * the source maps uploaded for it. Default none.
   */
  release?: string
  /** Start opted out until `opt_in_capturing()` is called. Default false. */
  opt_out_capturing_by_default?: boolean
  /** Never call `/flags` (bootstrap and overrides still work). Default false. */
  advanced_disable_flags?: boolean
  /**
   * Listen to the service's flag stream (`/flags/stream`, server-sent events) and reload flags within a second of
   * a change that could change them; falls back to the usual reloads where streams are blocked. Default false.
   */
  realtime_flags?: boolean
  /** With `realtime_flags`: close the stream after this many seconds in a hidden tab (reopened, and flags reloaded, on return). Default 120. */
  realtime_flags_inactivity_delay_seconds?: number
  /**
   * Session replay on this page, when the project records (its settings) and this session is sampled in.
   * Inputs are masked unless `maskAllInputs: false` (passwords always are); selectors add masking or blocking to
   * the project's. Elements of class `svc-no-capture` (or `ph-no-capture`) are never recorded, `svc-mask` (or
   * `ph-mask`) have their text masked.
   */
  session_recording?: SessionRecordingOptions
  /** Never record this page, whatever the project's settings. Default false. */
  disable_session_recording?: boolean
  /** A session ends after this many seconds without events, or 24 hours after it began. Default 1800. */
  session_idle_timeout_seconds?: number
  /** Called once at the end of `init`, with the client. */
  loaded?: (client: C) => void
  /** Log what the client does (and swallows) to the console. Default false. */
  debug?: boolean
}

/** Option `session_recording` of `init`. */
export interface SessionRecordingOptions {
  /** Mask what is typed into inputs other than passwords (which are always masked). Default true. */
  maskAllInputs?: boolean
  /** CSS selector of more elements whose text is masked (with the project's `maskTextSelector`). */
  maskTextSelector?: string
  /** CSS selector of more elements never recorded (with the project's `blockSelector`). */
  blockSelector?: string
}

/** The effective configuration of a client of type `C`: defaults merged with the options given to `init`. */
export type ConfigOf<C> = Required<Omit<Options<C>, 'loaded' | 'bootstrap' | 'release' | OffByDefault>> &
  Pick<Options<C>, 'loaded' | 'bootstrap' | 'release' | OffByDefault> & {
    /** The project token given to `init` (`''` before). */
    token: string
  }

/** Options that are off unless given: absent from the configuration then (the script tag's bytes are counted). */
type OffByDefault =
  | 'capture_exceptions'
  | 'opt_out_capturing_by_default'
  | 'advanced_disable_flags'
  | 'realtime_flags'
  | 'realtime_flags_inactivity_delay_seconds'
  | 'debug'
  | 'session_recording'
  | 'disable_session_recording'

export const DEFAULTS: ConfigOf<unknown> = {
  token: '',
  api_host: 'http://localhost:8000',
  feature_flag_request_timeout_ms: 3000,
  persistence: 'localStorage+cookie',
  autocapture: true,
  capture_pageview: true,
  capture_pageleave: 'if_capture_pageview',
  session_idle_timeout_seconds: 1800,
}
