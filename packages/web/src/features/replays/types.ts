/** Session replay as the API gives it (`/api/projects/:id/session_recordings/`, `…/session_recording_settings/`). */
import type { components } from '../../api/schema.gen';

type Schemas = components['schemas'];

/** One recorded session in the list: its id is the session id; durations in seconds; `ongoing`: a batch came in the last five minutes. */
export type SessionRecording = Schemas['SessionRecording'];
/** A recording with the URLs visited, the rrweb events left out at ingest (`skipped_count`) and its stored blocks. */
export type SessionRecordingDetail = Schemas['SessionRecordingDetail'];
/** An event of the session, for the player's timeline (its properties as sent: any JSON). */
export type SessionEvent = Schemas['SessionRecordingEvent'];
export type SessionEvents = Schemas['SessionRecordingEvents'];
export type SessionRecordingList = Schemas['SessionRecordingList'];
export type ReplaySettings = Schemas['SessionRecordingSettings'];
export type UrlTrigger = Schemas['SessionRecordingUrlTrigger'];

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
