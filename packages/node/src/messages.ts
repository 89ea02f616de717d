/** An event to capture. */
export interface CaptureMessage {
  distinctId: string;
  event: string;
  properties?: Record<string, unknown>;
  /** Group type → group key, sent as `$groups`. */
  groups?: Record<string, string>;
  /** When it happened. Default: now. */
  timestamp?: Date | string;
  /** The event's id (for de-duplication). Default: a new UUIDv7. */
  uuid?: string;
}

/** Person properties to set: a plain object is `$set`; `$set` / `$set_once` keys may be given explicitly. */
export interface IdentifyMessage {
  distinctId: string;
  properties?: Record<string, unknown>;
}

export interface AliasMessage {
  /** The id the person already has. */
  distinctId: string;
  /** Another id of the same person. */
  alias: string;
}

export interface GroupIdentifyMessage {
  groupType: string;
  groupKey: string;
  /** Properties set on the group (`$group_set`). */
  properties?: Record<string, unknown>;
  /** Default `$<groupType>_<groupKey>`. */
  distinctId?: string;
}
