/** Session replay as the API gives it (`/api/projects/:id/session_recordings/`, `…/session_recording_settings/`). */

export interface RecordingPerson {
  id: string | number;
  uuid?: string;
  name?: string;
  distinct_ids?: string[];
}

/** One recorded session in the list: its id is the session id. Durations in seconds. */
export interface SessionRecording {
  id: string;
  distinct_id: string;
  person: RecordingPerson | null;
  start_time: string;
  end_time: string;
  duration: number;
  active_seconds: number;
  click_count: number;
  keypress_count: number;
  console_log_count: number;
  console_warn_count: number;
  console_error_count: number;
  exception_count: number;
  start_url: string | null;
  event_count: number;
  size_bytes: number;
  /** A batch arrived in the last five minutes: the session may still be going on. */
  ongoing: boolean;
}

export interface SessionRecordingDetail extends SessionRecording {
  urls: string[];
  /** rrweb events that could not be decoded at ingest and were left out. */
  skipped_count: number;
  block_count: number;
}

/** An event of the session, for the player's timeline. */
export interface SessionEvent {
  uuid: string;
  event: string;
  timestamp: string;
  properties: {
    $current_url?: string;
    $pathname?: string;
    $exception_types?: string[] | string;
    $exception_message?: string;
    $event_type?: string;
    $el_text?: string;
  };
}

export interface UrlTrigger {
  url: string;
  matching: 'regex';
}

export interface ReplaySettings {
  enabled: boolean;
  sample_rate: number;
  minimum_duration_ms: number;
  linked_flag: { key: string; variant: string | null } | null;
  mask_all_text: boolean;
  mask_text_selector: string | null;
  block_selector: string | null;
  console_logs: boolean;
  network_timings: boolean;
  record_canvas: boolean;
  url_triggers: UrlTrigger[];
  url_blocklist: UrlTrigger[];
  event_triggers: string[];
  /** From the service's configuration (`REPLAY_RETENTION_DAYS`). */
  readonly retention_days: number;
  readonly storage: { bytes: number; sessions: number };
}

/** A minimal rrweb event: the player reads only its type, timestamp and data. */
export interface RrwebEvent {
  type: number;
  timestamp: number;
  data: unknown;
  delay?: number;
}

/** Whom a recording is of: the person's name, else the distinct id it was recorded under. */
export const personOf = (r: Pick<SessionRecording, 'person' | 'distinct_id'>) => r.person?.name || r.distinct_id;

/**
 * Whether the session may still be going on: a batch came in the last five minutes (`ongoing`), and its last recorded
 * moment is recent too (batches of an old session sent late, say after the device was offline, do not make it live).
 */
export const isOngoing = (r: Pick<SessionRecording, 'ongoing' | 'end_time'>, now = Date.now()) => r.ongoing && now - Date.parse(r.end_time) < 30 * 60_000;
