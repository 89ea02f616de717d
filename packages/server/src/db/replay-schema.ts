// The session-replay module's tables (migration 0019), part of `Database` in schema.ts.

/** A project's recording settings; a project without a row records nothing. */
export interface ReplaySettingsTable {
  project_id: number;
  enabled: number;
  /** JSON of the settings besides `enabled` (`ReplayConfig` of the session-replay module). */
  config: string;
  updated_at: string;
}

/** A recorded session: its metadata, kept current as its batches and events are ingested. */
export interface ReplaySessionTable {
  project_id: number;
  session_id: string;
  distinct_id: string;
  person_id: number | null;
  start_time: string | null;
  end_time: string | null;
  start_url: string | null;
  active_ms: number;
  click_count: number;
  keypress_count: number;
  console_log_count: number;
  console_warn_count: number;
  console_error_count: number;
  exception_count: number;
  event_count: number;
  skipped_count: number;
  block_count: number;
  size_bytes: number;
  created_at: string;
  updated_at: string;
}

export interface ReplaySessionUrlTable {
  project_id: number;
  session_id: string;
  url: string;
}

/** A batch of a session's rrweb events as stored: compressed, its bytes in the blob store under `blob_key`. */
export interface ReplayBlockTable {
  project_id: number;
  session_id: string;
  seq: number;
  window_id: string;
  first_ts: number;
  last_ts: number;
  event_count: number;
  size_bytes: number;
  blob_key: string;
  created_at: string;
}

/** The id of a batch stored (a `$snapshot` event's uuid), so a batch sent again is kept once. */
export interface ReplayBatchTable {
  project_id: number;
  session_id: string;
  batch_id: string;
  created_at: string;
}

/** The database blob store's bytes. */
export interface ReplayBlobTable {
  key: string;
  bytes: Uint8Array;
  created_at: string;
}
